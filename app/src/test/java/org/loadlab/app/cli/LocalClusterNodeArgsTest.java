package org.loadlab.app.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * local-cluster's node members give up an unconvergeable cluster leave after 3 s (they stop
 * together at the end, and one used to wait Pekko's 10 s for another already gone), unless the
 * user's own {@code --set} says otherwise: the user's arguments come after local-cluster's.
 */
class LocalClusterNodeArgsTest {
    private static final String KEY = "pekko.coordinated-shutdown.phases.cluster-exiting.timeout";

    private static Duration nodeMemberTimeout(List<String> userArgs) {
        List<String> args = new ArrayList<>(LocalCluster.NODE_MEMBER_ARGS);
        args.addAll(userArgs);
        return LocalCluster.memberConfig(args).getDuration(KEY);
    }

    @Test
    void nodeMembersLeaveWithinThreeSecondsUnlessTheUserSetsIt() {
        assertEquals(Duration.ofSeconds(3), nodeMemberTimeout(List.of()));
        assertEquals(Duration.ofSeconds(7), nodeMemberTimeout(List.of("--set", KEY + " = 7s")));
        assertEquals(Duration.ofSeconds(10), LocalCluster.memberConfig(List.of()).getDuration(KEY), "Pekko's default elsewhere");
    }
}
