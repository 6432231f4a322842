package org.loadlab.app;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The protocol cores must stay runnable by both shells: no Pekko import, no wall clock,
 * no global random source (DESIGN.md, "Conventions").
 */
class CorePurityTest {
    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    private static final List<String> CORE_PACKAGES = List.of(
            "kernel/src/main/java/org/loadlab/kernel",
            "node/src/main/java/org/loadlab/node/protocol",
            "node/src/main/java/org/loadlab/node/backend",
            "node/src/main/java/org/loadlab/node/sharing",
            "balancer/src/main/java/org/loadlab/balancer/policy",
            "balancer/src/main/java/org/loadlab/balancer/core",
            "balancer/src/main/java/org/loadlab/balancer/library",
            "workload/src/main/java/org/loadlab/workload/arrival",
            "workload/src/main/java/org/loadlab/workload/demand",
            "workload/src/main/java/org/loadlab/workload/driver",
            "workload/src/main/java/org/loadlab/workload/split");
    private static final Pattern FORBIDDEN = Pattern.compile(
            "import\\s+org\\.apache\\.pekko|ThreadLocalRandom|Math\\.random\\(|System\\.currentTimeMillis\\(|System\\.nanoTime\\("
                    + "|Instant\\.now\\(|UUID\\.randomUUID\\(|new\\s+Random\\(\\s*\\)");

    @Test
    void corePackagesUseNeitherPekkoNorClockNorGlobalRandomness() throws IOException {
        List<String> offences = new ArrayList<>();
        int files = 0;
        for (String pkg : CORE_PACKAGES) {
            Path dir = ROOT.resolve(pkg);
            assertTrue(Files.isDirectory(dir), "core package missing: " + dir);
            try (Stream<Path> s = Files.walk(dir)) {
                for (Path f : s.filter(p -> p.toString().endsWith(".java")).toList()) {
                    files++;
                    List<String> lines = Files.readAllLines(f);
                    for (int i = 0; i < lines.size(); i++) {
                        String line = lines.get(i).trim();
                        if (!line.startsWith("*") && !line.startsWith("//") && FORBIDDEN.matcher(line).find()) {
                            offences.add(ROOT.relativize(f) + ":" + (i + 1) + ": " + line);
                        }
                    }
                }
            }
        }
        assertTrue(files > 30, "expected the core sources, found " + files + " files");
        assertTrue(offences.isEmpty(), "core code must not use Pekko, the wall clock or global randomness:\n"
                + String.join("\n", offences));
    }
}
