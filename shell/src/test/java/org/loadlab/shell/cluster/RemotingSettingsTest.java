package org.loadlab.shell.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.typesafe.config.Config;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A cluster member and the messaging baseline run Artery with the same dispatchers and header
 * compression, both from {@code loadlab-remoting.conf}: the baseline's "ideal" is bare Pekko
 * configured as the cluster is (docs/cluster.md, "The messages on the wire").
 */
class RemotingSettingsTest {
    private static final List<String> SHARED = List.of(
            "pekko.actor.default-dispatcher.fork-join-executor.parallelism-min",
            "pekko.io.tcp.worker-dispatcher",
            "pekko.remote.artery.advanced.use-dispatcher",
            "pekko.remote.artery.advanced.compression.actor-refs.advertisement-interval",
            "pekko.remote.artery.advanced.compression.manifests.advertisement-interval");

    @Test
    void aMemberAndTheBaselineShareTheirRemotingSettings() {
        Config member = new MemberOptions(null, null, null, null, null, null, null, List.of()).config();
        Config baseline = MessagingBaseline.config(25999);
        for (String key : SHARED) {
            assertEquals(member.getValue(key).unwrapped(), baseline.getValue(key).unwrapped(), key);
        }
        assertEquals("pekko.actor.default-dispatcher", member.getString("pekko.io.tcp.worker-dispatcher"));
        assertEquals(2, member.getInt("pekko.actor.default-dispatcher.fork-join-executor.parallelism-min"));
        assertEquals(java.time.Duration.ofSeconds(2),
                member.getDuration("pekko.remote.artery.advanced.compression.actor-refs.advertisement-interval"));
    }
}
