package org.loadlab.app.cli;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * The member lines {@code local-cluster} counts instead of showing while it stops its members
 * (every normal stop printed seven such warnings after the results): exactly the two kinds
 * members stopping together always log, never another warning.
 */
class LocalClusterStopNoiseTest {
    @Test
    void theLinesOfMembersStoppingTogetherAreNoise() {
        // as a local-cluster --experiment run printed them after its results
        assertTrue(LocalCluster.isStopNoise("WARN  o.a.p.s.Materializer: [outbound connection to [pekko://loadlab@127.0.0.1:3553],"
                + " message stream] Upstream failed, cause: StreamTcpException: The connection has been aborted"));
        assertTrue(LocalCluster.isStopNoise("WARN  o.a.p.s.Materializer: [outbound connection to [pekko://loadlab@127.0.0.1:3552],"
                + " control stream] Upstream failed, cause: StreamTcpException: The connection has been aborted"));
        assertTrue(LocalCluster.isStopNoise("WARN  o.a.p.a.CoordinatedShutdown: Coordinated shutdown phase [cluster-exiting]"
                + " timed out after 3000 milliseconds"));
    }

    @Test
    void everyOtherLineIsShown() {
        assertFalse(LocalCluster.isStopNoise("loadlab: pekko://loadlab@127.0.0.1:3552 leaving: the JVM is exiting (SIGTERM or"
                + " Ctrl-C); leaving the cluster gracefully"));
        assertFalse(LocalCluster.isStopNoise("WARN  o.a.p.a.CoordinatedShutdown: Coordinated shutdown phase [before-actor-system"
                + "-terminate] timed out after 15000 milliseconds"));
        assertFalse(LocalCluster.isStopNoise("ERROR o.a.p.s.Materializer: [outbound connection to [pekko://loadlab@127.0.0.1:3553],"
                + " message stream] Upstream failed, cause: StreamTcpException: Tcp command [Connect(127.0.0.1:3553)] failed"));
        assertFalse(LocalCluster.isStopNoise("loadlab: gateway: could not write results/cluster/exp-1/results.csv"));
    }
}
