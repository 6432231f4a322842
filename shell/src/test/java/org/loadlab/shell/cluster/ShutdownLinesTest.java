package org.loadlab.shell.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.typesafe.config.ConfigFactory;
import java.nio.file.Path;
import java.time.Duration;
import org.apache.pekko.actor.CoordinatedShutdown;
import org.junit.jupiter.api.Test;

/**
 * What a gateway says on stderr about each experiment when its member shuts down, and the
 * bound CoordinatedShutdown gives that stop. The stops themselves run in GatewayCrashTest
 * (app: SIGTERM, a frozen node member, local-cluster's Ctrl-C).
 */
class ShutdownLinesTest {
    private static final Path DIR = Path.of("/r/exp-1");

    @Test
    void aStoppedExperimentNamesItsFilesAndItsJournalEntry() {
        assertEquals("experiment exp-1 stopped; its results so far are in " + DIR + "; journaled as stopped",
                ShutdownLines.stopped("exp-1", "stopped", null, DIR, "ready"));
        assertEquals("experiment exp-1 ended failed (CONSERVATION CHECK FAILED: x); its results so far are in " + DIR
                + "; journaled as failed", ShutdownLines.stopped("exp-1", "failed", "CONSERVATION CHECK FAILED: x", DIR, "ready"));
        assertEquals("experiment exp-1 stopped; it had not started, so nothing was measured and no result files were written;"
                + " journaled as stopped", ShutdownLines.stopped("exp-1", "stopped", null, null, "ready"));
        assertEquals("experiment exp-1 stopped; its results so far are in " + DIR + "; not journaled (journal off)",
                ShutdownLines.stopped("exp-1", null, null, DIR, "off"));
    }

    @Test
    void whatIsLeftUndoneIsNamedWithTheSettingAndTheWayBack() {
        String late = ShutdownLines.notStopped("exp-2", Duration.ofSeconds(15), Duration.ofSeconds(5));
        assertTrue(late.startsWith("experiment exp-2 could not be stopped within 15.0 s (loadlab.cluster.shutdown-timeout"), late);
        assertTrue(late.contains("left interrupted in the journal with its last checkpoint (taken every 5.0 s)"), late);
        assertTrue(late.contains("POST /experiments/exp-2/rerun"), late);
        String unconfirmed = ShutdownLines.notJournaled("exp-3", DIR, Duration.ofSeconds(15));
        assertTrue(unconfirmed.contains("written to " + DIR) && unconfirmed.contains("did not confirm its end"), unconfirmed);
        assertTrue(ShutdownLines.stoppedLate("exp-2", DIR).contains("stopped after all"));
    }

    @Test
    void theStopPhaseGetsTheShutdownTimeoutPlusItsMarginUnlessLongerAlready() {
        String key = "pekko.coordinated-shutdown.phases.before-service-unbind.timeout";
        assertEquals(Duration.ofSeconds(20), ClusterMember.withStopPhaseTimeout(ConfigFactory.parseString(key + " = 5s"),
                Duration.ofSeconds(15)).getDuration(key));
        assertEquals(Duration.ofSeconds(60), ClusterMember.withStopPhaseTimeout(ConfigFactory.parseString(key + " = 60s"),
                Duration.ofSeconds(15)).getDuration(key));
    }

    @Test
    void theEndReasonSaysWhyTheMemberStopped() {
        assertEquals("SIGTERM or Ctrl-C", ClusterMember.shutdownCause(CoordinatedShutdown.jvmExitReason(), null));
        assertTrue(ClusterMember.shutdownCause(CoordinatedShutdown.clusterDowningReason(), null).contains("split brain"));
        assertEquals("max-lifetime 60 s reached", ClusterMember.shutdownCause(CoordinatedShutdown.unknownReason(),
                "max-lifetime 60 s reached"));
    }
}
