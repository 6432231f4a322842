package org.loadlab.experiment.scenario;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A scenario file's includes are read and must exist and parse: HOCON's plain
 * {@code include} is optional, so Typesafe Config dropped a missing one without a word (and,
 * for a file given without a directory, never found any include at all, broken or not), and
 * the scenario ran with the defaults of the keys it lost.
 */
class StrictIncludesTest {
    private static final ScenarioLoader LOADER = new ScenarioLoader(p -> true, "any");

    @TempDir
    Path dir;

    private Path write(String name, String text) throws IOException {
        Path file = dir.resolve(name);
        Files.createDirectories(file.getParent());
        Files.writeString(file, text);
        return file;
    }

    private String problem(Path file) {
        ScenarioException e = assertThrows(ScenarioException.class, () -> LOADER.load(file.toString(), List.of()));
        assertEquals(1, e.problems().size(), e.problems().toString());
        return e.problems().get(0);
    }

    @Test
    void anIncludedFileIsMergedRelativeToTheFileThatIncludesIt() throws IOException {
        write("common/nodes.conf", "nodes.count = 7\n");
        write("common/base.conf", "include \"nodes.conf\"\nduration = 30\n");
        Path scenario = write("runs/mine.conf", "include \"../common/base.conf\"\nname = mine\n");
        Scenario s = LOADER.load(scenario.toString(), List.of());
        assertEquals(7, s.nodes().count());
        assertEquals(30.0, s.duration());
        assertEquals("mine", s.name());
    }

    @Test
    void aMissingIncludeIsRefusedByName() throws IOException {
        Path scenario = write("mine.conf", "include \"missing.conf\"\nname = mine\n");
        String p = problem(scenario);
        assertTrue(p.contains("include \"missing.conf\": no such file"), p);
        assertTrue(p.startsWith("cannot parse " + scenario), p);
    }

    @Test
    void anIncludeThatDoesNotParseIsRefusedWithItsFileAndLine() throws IOException {
        Path broken = write("broken.conf", "nodes.count = 4\nlist = [1,\n");
        Path scenario = write("mine.conf", "include \"broken.conf\"\n");
        String p = problem(scenario);
        assertTrue(p.contains(broken.toAbsolutePath() + ": 3:"), p);
    }

    @Test
    void aRequiredIncludeIsRefusedToo() throws IOException {
        String p = problem(write("mine.conf", "include required(\"gone.conf\")\n"));
        assertTrue(p.contains("include \"gone.conf\": no such file"), p);
    }

    @Test
    void aFileInTheCurrentDirectoryFindsItsIncludes() throws IOException {
        // a path without a parent directory: Typesafe Config resolved its includes against nothing
        Path here = Path.of("strict-includes-test-" + ProcessHandle.current().pid() + ".conf");
        Path included = Path.of("strict-includes-test-" + ProcessHandle.current().pid() + "-nodes.conf");
        try {
            Files.writeString(included, "nodes.count = 5\n");
            Files.writeString(here, "include \"" + included + "\"\n");
            assertEquals(5, LOADER.load(here.toString(), List.of()).nodes().count());
        } finally {
            Files.deleteIfExists(here);
            Files.deleteIfExists(included);
        }
    }
}
