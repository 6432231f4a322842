package org.loadlab.shell.cluster;

import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import org.apache.pekko.actor.CoordinatedShutdown;
import org.junit.jupiter.api.Test;

/**
 * What a member says when it stops on its own: a member downed by the split brain resolver
 * (SIGSTOP'd past stable-after, say) used to exit with code 255 among Pekko's warnings and
 * no line of LoadLab's; a SIGTERM'd one vanished without a word.
 */
class ClusterMemberLeavingTest {
    private static final String SELF = "pekko://loadlab@127.0.0.1:2552";

    @Test
    void aDownedMemberSaysWhyItExitsWithWhichCodeAndHowToRejoin() {
        String line = ClusterMember.leavingLine(SELF, CoordinatedShutdown.clusterDowningReason(), Duration.ofSeconds(20));
        assertTrue(line.startsWith("loadlab: " + SELF + " was downed by the cluster's split brain resolver"), line);
        assertTrue(line.contains("stable-after 20.0 s"), line);
        assertTrue(line.contains("code 255"), line);
        assertTrue(line.contains("Start it again to rejoin"), line);
    }

    @Test
    void aMemberThatFoundNoSeedSaysSoAndWhatToCheck() {
        String line = ClusterMember.leavingLine(SELF, CoordinatedShutdown.clusterJoinUnsuccessfulReason(), Duration.ofSeconds(20));
        assertTrue(line.contains("could not join any seed node") && line.contains("code 255") && line.contains("--seed-nodes"), line);
    }

    @Test
    void sigtermAndLeavingSayTheyAreGracefulAndLeaveSaysItsOwnReason() {
        assertTrue(ClusterMember.leavingLine(SELF, CoordinatedShutdown.jvmExitReason(), Duration.ofSeconds(20))
                .contains("SIGTERM or Ctrl-C"));
        assertTrue(ClusterMember.leavingLine(SELF, CoordinatedShutdown.clusterLeavingReason(), Duration.ofSeconds(20))
                .contains("left the cluster"));
        assertNull(ClusterMember.leavingLine(SELF, CoordinatedShutdown.unknownReason(), Duration.ofSeconds(20)),
                "leave(why) prints its own reason");
        assertNull(ClusterMember.leavingLine(SELF, null, Duration.ofSeconds(20)));
    }
}
