package org.loadlab.app.cli;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The progress line counts the job's runs in words a person reads: "1 run", "2 runs". */
class RunProgressTest {
    private static String line(int total, int finished) {
        PrintStream out = new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);
        try (RunProgress p = new RunProgress(total, 0, 3600, out)) { // no line printed by the ticker meanwhile
            for (int i = 0; i < finished; i++) {
                p.finished("run-" + i);
            }
            return p.line();
        }
    }

    @Test
    void theRunsAreCountedInTheRightNumber() {
        String one = line(1, 0);
        assertTrue(one.contains(" elapsed: 0 of 1 run done"), one);
        String two = line(2, 1);
        assertTrue(two.contains(" elapsed: 1 of 2 runs done"), two);
    }
}
