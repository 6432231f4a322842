package org.loadlab.node.sharing;

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
 * The load-sharing agents are pure cores, run by the simulation engine and the Pekko shell
 * alike: no Pekko import, no wall clock, no global random source, no hash-ordered iteration
 * deciding anything (DESIGN.md, "Conventions"; the same rule as runtime's CorePurityTest).
 */
class SharingPurityTest {
    private static final Pattern FORBIDDEN = Pattern.compile(
            "import\\s+org\\.apache\\.pekko|ThreadLocalRandom|Math\\.random\\(|System\\.currentTimeMillis\\(|System\\.nanoTime\\("
                    + "|Instant\\.now\\(|UUID\\.randomUUID\\(|new\\s+Random\\(\\s*\\)|new\\s+HashMap|new\\s+HashSet");

    @Test
    void sharingCoresUseNeitherPekkoNorClockNorGlobalRandomness() throws IOException {
        Path dir = Path.of("src/main/java/org/loadlab/node/sharing");
        assertTrue(Files.isDirectory(dir), "package missing: " + dir.toAbsolutePath());
        List<String> offences = new ArrayList<>();
        int files = 0;
        try (Stream<Path> s = Files.walk(dir)) {
            for (Path f : s.filter(p -> p.toString().endsWith(".java")).toList()) {
                files++;
                List<String> lines = Files.readAllLines(f);
                for (int i = 0; i < lines.size(); i++) {
                    String line = lines.get(i).trim();
                    if (!line.startsWith("*") && !line.startsWith("//") && FORBIDDEN.matcher(line).find()) {
                        offences.add(f.getFileName() + ":" + (i + 1) + ": " + line);
                    }
                }
            }
        }
        assertTrue(files >= 15, "expected the sharing sources, found " + files);
        assertTrue(offences.isEmpty(), "pure cores only:\n" + String.join("\n", offences));
    }
}
