package org.loadlab.shell.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A {@code loadlab.cluster} setting of the wrong type or out of range is refused naming its
 * full key, the value and what is allowed, before the member starts; a count of 0 or a zero
 * interval used to be taken (a gateway answering every POST /experiments with 429, experiments
 * failing at their start) and a type error named the key without its prefix or value.
 */
class ClusterSettingsTest {
    private static ClusterSettings with(String setting) {
        return ClusterSettings.from(new MemberOptions(null, null, null, null, null, null, null, List.of(setting)).config());
    }

    private static String refused(String setting) {
        return assertThrows(IllegalArgumentException.class, () -> with(setting), setting).getMessage();
    }

    @Test
    void theDefaultsAndZeroWhereItMeansNoneAreTaken() {
        ClusterSettings s = with("loadlab.cluster.jit-warmup = 0s");
        assertEquals(Duration.ZERO, s.jitWarmup());
        assertEquals(2, s.maxRunning());
        assertEquals(Duration.ZERO, with("loadlab.cluster.max-lifetime = 0s").maxLifetime());
        assertEquals(Duration.ZERO, with("loadlab.cluster.merge-lag = 0s").mergeLag());
    }

    @Test
    void outOfRangeOrMistypedSettingsNameTheKeyAndTheValue() {
        assertEquals("loadlab.cluster.max-running-experiments = 0: allowed a whole number of 1 or more",
                refused("loadlab.cluster.max-running-experiments = 0"));
        assertEquals("loadlab.cluster.max-nodes = -5: allowed a whole number of 1 or more", refused("loadlab.cluster.max-nodes = -5"));
        assertEquals("loadlab.cluster.max-nodes = \"abc\": allowed a whole number of 1 or more",
                refused("loadlab.cluster.max-nodes = abc"));
        assertEquals("loadlab.cluster.explain.decisions-kept = 0: allowed a whole number of 1 or more",
                refused("loadlab.cluster.explain.decisions-kept = 0"));
        assertEquals("loadlab.cluster.flush-interval = \"0s\": allowed a duration above 0, e.g. 100ms",
                refused("loadlab.cluster.flush-interval = 0s"));
        assertEquals("loadlab.cluster.checkpoint-interval = \"banana\": allowed a duration above 0, e.g. 5s",
                refused("loadlab.cluster.checkpoint-interval = banana"));
        assertEquals("loadlab.cluster.max-lifetime = \"-5s\": allowed a duration of 0 or more (0 = none), e.g. 5s",
                refused("loadlab.cluster.max-lifetime = -5s"));
        assertEquals("loadlab.cluster.stop-timeout = \"-1s\": allowed a duration above 0, e.g. 5s",
                refused("loadlab.cluster.stop-timeout = -1s"));
        assertEquals("loadlab.cluster.http.port = 70000: allowed a port 0..65535 (0: any free port)",
                refused("loadlab.cluster.http.port = 70000"));
        assertEquals("loadlab.cluster.http.port = \"x\": allowed a port 0..65535 (0: any free port)",
                refused("loadlab.cluster.http.port = x"));
        assertEquals(0, with("loadlab.cluster.http.port = 0").httpPort());
    }
}
