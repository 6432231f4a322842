package org.loadlab.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The {@code loadlab} launcher script on a machine without Maven, without a JDK, with an old
 * JDK and with a build that fails: each time it says what is missing or shows the build log's
 * tail and path, and exits non-zero; it never stops silently. The script runs from a copy in a
 * temporary checkout (no sources, so it must build) with a PATH of only the basic tools and,
 * where the case needs it, stand-ins for {@code java}, {@code javac} and {@code mvnw}.
 */
class LauncherTest {
    private static final Path SCRIPT = Path.of("..", "loadlab").toAbsolutePath().normalize();
    private static final List<String> TOOLS = List.of("bash", "env", "dirname", "basename", "find", "sed", "grep", "tail",
            "head", "mktemp", "rm", "cat", "cp", "touch", "mkdir", "flock", "cksum", "cut", "sleep");

    @TempDir
    Path tmp;
    Path checkout;
    Path bin;

    record Result(int code, String err) {
    }

    @BeforeEach
    void layOut() throws IOException {
        checkout = Files.createDirectories(tmp.resolve("checkout"));
        Files.copy(SCRIPT, checkout.resolve("loadlab"));
        Files.writeString(checkout.resolve("pom.xml"), "<project/>\n");
        bin = Files.createDirectories(tmp.resolve("bin"));
        for (String tool : TOOLS) {
            for (String dir : List.of("/usr/bin", "/bin")) {
                Path real = Path.of(dir, tool);
                if (Files.isExecutable(real) && !Files.exists(bin.resolve(tool))) {
                    Files.createSymbolicLink(bin.resolve(tool), real);
                }
            }
        }
    }

    private void executable(Path file, String text) throws IOException {
        Files.createDirectories(file.getParent());
        Files.writeString(file, text);
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
    }

    /** A stand-in {@code java} that claims {@code version} and, when run with -jar, prints its arguments. */
    private void fakeJdk(String version) throws IOException {
        executable(bin.resolve("java"), "#!/bin/bash\nif [ \"$1\" = -version ]; then echo 'openjdk version \"" + version
                + "\" 2025-04-15' >&2; exit 0; fi\necho \"java $*\"\n");
        executable(bin.resolve("javac"), "#!/bin/bash\nexit 0\n");
    }

    private Result run(String... args) throws Exception {
        Process p = start(args);
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "the launcher finished");
        return new Result(p.exitValue(), err);
    }

    private Process start(String... args) throws Exception {
        List<String> cmd = new java.util.ArrayList<>(List.of(bin.resolve("bash").toString(), checkout.resolve("loadlab").toString()));
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectOutput(ProcessBuilder.Redirect.DISCARD);
        Map<String, String> env = pb.environment();
        env.clear();
        env.put("PATH", bin.toString());
        env.put("HOME", tmp.toString());
        env.put("TMPDIR", tmp.toString());
        return pb.start();
    }

    @Test
    void withoutJavaItSaysAJdk17IsNeeded() throws Exception {
        Result r = run("scenarios");
        assertEquals(1, r.code(), r.err());
        assertTrue(r.err().contains("java not found") && r.err().contains("JDK 17"), r.err());
    }

    @Test
    void anOldJdkIsNamedWithItsVersion() throws Exception {
        fakeJdk("11.0.2");
        Result r = run("scenarios");
        assertEquals(1, r.code(), r.err());
        assertTrue(r.err().contains("needs a JDK 17 or newer") && r.err().contains("version 11"), r.err());
    }

    @Test
    void withoutMavenOnPathAndWithoutTheWrapperItNamesBoth() throws Exception {
        fakeJdk("17.0.15");
        Result r = run("scenarios");
        assertEquals(1, r.code(), r.err());
        assertTrue(r.err().contains("Maven wrapper") && r.err().contains("mvn is not on PATH"), r.err());
        assertFalse(r.err().isBlank());
    }

    @Test
    void withoutMavenOnPathItBuildsWithTheWrapperAndRunsTheJar() throws Exception {
        fakeJdk("17.0.15");
        Path calls = tmp.resolve("mvnw-calls.txt");
        executable(checkout.resolve("mvnw"), "#!/bin/bash\necho \"$*\" > " + calls + "\nmkdir -p app/target && touch app/target/loadlab.jar\n");
        Files.createDirectories(checkout.resolve(".mvn/wrapper"));
        Files.writeString(checkout.resolve(".mvn/wrapper/maven-wrapper.properties"), "distributionUrl=https://example.invalid/x-bin.zip\n");
        ProcessBuilder probe = new ProcessBuilder(bin.resolve("bash").toString(), "-c", "command -v mvn");
        probe.environment().put("PATH", bin.toString());
        assertEquals(1, probe.start().waitFor(), "mvn is not on the test's PATH");

        Result r = run("scenarios");
        assertEquals(0, r.code(), r.err());
        assertTrue(r.err().contains("building") && r.err().contains("with mvnw"), r.err());
        assertTrue(Files.readString(calls).contains("-DskipTests package"), Files.readString(calls));
    }

    /**
     * Members started together right after a source change ({@code ./loadlab cluster ... &} three
     * times, as docs/cluster.md starts them) each ran a Maven build in the same target/ directories,
     * and all of them failed; now one builds and the others wait for its jar.
     */
    @Test
    void launchersStartedTogetherBuildOnceAndAllRunTheJar() throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue(Files.exists(bin.resolve("flock")), "flock is not installed");
        fakeJdk("17.0.15");
        Path calls = tmp.resolve("mvnw-calls.txt");
        executable(checkout.resolve("mvnw"), "#!/bin/bash\necho build >> " + calls + "\nsleep 3\n"
                + "mkdir -p app/target && touch app/target/loadlab.jar\n");
        Files.createDirectories(checkout.resolve(".mvn/wrapper"));
        Files.writeString(checkout.resolve(".mvn/wrapper/maven-wrapper.properties"), "distributionUrl=https://example.invalid/x-bin.zip\n");
        List<Process> launchers = List.of(start("scenarios"), start("scenarios"), start("scenarios"));
        for (Process p : launchers) {
            String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(p.waitFor(60, TimeUnit.SECONDS), "the launcher finished");
            assertEquals(0, p.exitValue(), err);
        }
        assertEquals(List.of("build"), Files.readAllLines(calls), "one build for three launchers");
    }

    @Test
    void aFailedBuildShowsTheEndOfItsLogAndWhereTheLogIs() throws Exception {
        fakeJdk("17.0.15");
        // A build log without any "ERROR" line: the old launcher printed nothing useful for it.
        executable(checkout.resolve("mvnw"), "#!/bin/bash\nfor i in $(seq 1 50); do echo \"line $i\"; done\n"
                + "echo 'Could not transfer artifact: network is unreachable'\nexit 3\n");
        executable(bin.resolve("seq"), "#!/bin/bash\ni=$1; while [ $i -le $2 ]; do echo $i; i=$((i+1)); done\n");
        Files.createDirectories(checkout.resolve(".mvn/wrapper"));
        Files.writeString(checkout.resolve(".mvn/wrapper/maven-wrapper.properties"), "distributionUrl=https://example.invalid/x-bin.zip\n");
        Result r = run("scenarios");
        assertEquals(1, r.code(), r.err());
        assertTrue(r.err().contains("exited with code 3"), r.err());
        assertTrue(r.err().contains("Could not transfer artifact: network is unreachable"), "the log's tail: " + r.err());
        assertFalse(r.err().contains("line 1\n"), "only the tail, not the whole log: " + r.err());
        Matcher log = Pattern.compile("full log: (\\S+)").matcher(r.err());
        assertTrue(log.find(), r.err());
        assertTrue(Files.readString(Path.of(log.group(1))).contains("line 1\n"), "the log file is kept");
    }
}
