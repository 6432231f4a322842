package org.loadlab.shell.campaign;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The progress lines' rate counts from the campaign's start, as the final summary does: runs
 * prefetched while the journal opened arrive in a burst, which a rate counted from the first
 * stored run shows as hundreds of runs/s and ETA 0 s.
 */
class CampaignProgressTest {
    @Test
    void theRateCountsFromTheCampaignsStartNotFromTheFirstStoredRun() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        long started = System.nanoTime() - 10_000_000_000L; // the campaign started 10 s ago
        try (CampaignProgress p = new CampaignProgress("c", 10, 0, started,
                new PrintStream(out, true, StandardCharsets.UTF_8), false)) {
            for (int i = 0; i < 5; i++) {
                p.step(); // five prefetched runs stored at once
            }
        }
        String text = out.toString(StandardCharsets.UTF_8);
        Matcher m = Pattern.compile("5/10 runs \\(50%\\), (\\d+\\.\\d) runs/s, ETA (\\d+) s").matcher(text);
        assertTrue(m.find(), text);
        double rate = Double.parseDouble(m.group(1));
        assertTrue(rate > 0.4 && rate <= 0.5, "5 runs in 10 s: " + text);
        int eta = Integer.parseInt(m.group(2));
        assertTrue(eta >= 9 && eta <= 11, "5 more runs at 0.5 runs/s: " + text);
    }

    @Test
    void resumedRunsDoNotCountTowardsTheRate() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (CampaignProgress p = new CampaignProgress("c", 10, 8, System.nanoTime() - 4_000_000_000L,
                new PrintStream(out, true, StandardCharsets.UTF_8), false)) {
            p.step();
            assertEquals(0.25, p.rate(System.nanoTime()), 0.02, "one run in 4 s; the 8 from the journal are not this run's");
        }
    }

    @Test
    void aFirstRunStoredSoonAfterTheStartPrintsNoLineWithAStartUpRate() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (CampaignProgress p = new CampaignProgress("c", 1000, 0, System.nanoTime() - 2_000_000_000L,
                new PrintStream(out, true, StandardCharsets.UTF_8), false)) {
            p.step(); // stored 2 s after the start: 0.5 runs/s, "ETA 2000 s", for a burst about to finish
            assertFalse(out.toString(StandardCharsets.UTF_8).contains("1/1000"), out.toString(StandardCharsets.UTF_8));
            for (int i = 1; i < 100; i++) {
                p.step();
            }
            assertTrue(out.toString(StandardCharsets.UTF_8).contains("100/1000 runs (10%)"), out.toString(StandardCharsets.UTF_8));
        }
    }
}
