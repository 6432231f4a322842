package org.loadlab.shell.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Which {@code --seed-nodes} values a member (and {@code campaign run --cluster}) takes: a seed
 * it could never join is refused before anything starts, naming the value.
 */
class MemberOptionsSeedsTest {
    private static List<String> problems(String seed) {
        return new MemberOptions(null, null, null, List.of(seed), null, null, null, List.of()).problems();
    }

    @Test
    void seedsThatCanBeJoinedAreTaken() {
        for (String ok : List.of("127.0.0.1:2551", "cluster-host:2551", "node-1.example:65535",
                "pekko://loadlab@127.0.0.1:2551", "[::1]:2551", " 127.0.0.1:1 ")) {
            assertEquals(List.of(), problems(ok), ok);
        }
        assertEquals("pekko://loadlab@cluster-host:2551", MemberOptions.seedAddress("cluster-host:2551"));
    }

    /**
     * Port 0 and another actor system's address were taken (the member then tried to join them
     * until it gave up, 60 s later); a host with a space reached Pekko's parser and ended the
     * command with "something went wrong" and a stack trace.
     */
    @Test
    void seedsThatCanNeverBeJoinedAreRefusedNamingTheValue() {
        for (String bad : List.of("127.0.0.1:0", "pekko://loadlab@127.0.0.1:0", "pekko://other@127.0.0.1:2551",
                "bad host:2551", "pekko://loadlab@bad host:2551", "127.0.0.1:99999", "nohost", "h:p")) {
            List<String> p = problems(bad);
            assertEquals(1, p.size(), bad + ": " + p);
            assertTrue(p.get(0).startsWith("--seed-nodes = '" + bad + "': neither host:port nor pekko://loadlab@host:port"
                    + " (port 1..65535)"), p.get(0));
        }
    }
}
