package org.loadlab.app.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** sticky-lazy-check refuses bad input (a missing directory, a truncated runs.jsonl) with exit 2 and says what is wrong. */
class StickyLazyCheckTest {

    @Test
    void aDirectoryThatDoesNotExistIsNamedAsSuch(@TempDir Path tmp) {
        String[] r = CliCapture.run("sticky-lazy-check", tmp.resolve("nonexist").toString());
        assertEquals("2", r[0], r[2]);
        assertTrue(r[2].contains("nonexist does not exist"), r[2]);
    }

    @Test
    void aTruncatedRunsFileIsBadInput(@TempDir Path tmp) throws Exception {
        Files.writeString(tmp.resolve("runs.jsonl"), "{\"scenario\":\"sticky-lazy\",\"pol");
        String[] r = CliCapture.run("sticky-lazy-check", tmp.toString());
        assertEquals("2", r[0], r[2]);
        assertTrue(r[2].contains("runs.jsonl:1: not a valid campaign run") && r[2].contains("one campaign run per line"), r[2]);
        assertTrue(Files.isDirectory(tmp.resolve("runs.jsonl").getParent()) && !Files.exists(tmp.resolve("sticky-lazy.md")),
                "nothing written");
    }

    @Test
    void aDirectoryWithoutRunsSaysSo(@TempDir Path tmp) {
        String[] r = CliCapture.run("sticky-lazy-check", tmp.toString());
        assertEquals("2", r[0], r[2]);
        assertTrue(r[2].contains("has no runs.jsonl"), r[2]);
    }
}
