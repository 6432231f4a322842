package org.loadlab.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

/** Node ids: value equality whether cached or not, and the cache that grows to a run's node count. */
class NodeIdTest {
    @Test
    void smallIndicesAreSharedAndEqualToNewIds() {
        assertSame(NodeId.of(7), NodeId.of(7));
        assertEquals(new NodeId(7), NodeId.of(7));
        assertEquals(new NodeId(7).hashCode(), NodeId.of(7).hashCode());
        assertEquals("node-7", NodeId.of(7).toString());
    }

    @Test
    void cacheUpToSharesEveryIndexBelowTheCountAndKeepsEquality() {
        int big = 200_000; // beyond anything another test of this JVM announces
        assertNotSame(NodeId.of(big + 5), NodeId.of(big + 5), "not cached yet: a new id each time");
        NodeId before = NodeId.of(10);
        NodeId.cacheUpTo(big + 10);
        assertSame(before, NodeId.of(10), "growing keeps the ids already handed out");
        assertSame(NodeId.of(big + 5), NodeId.of(big + 5));
        assertSame(NodeId.of(big + 9), NodeId.of(big + 9));
        assertEquals(new NodeId(big + 9), NodeId.of(big + 9));
        assertEquals(big + 9, NodeId.of(big + 9).index());
        NodeId.cacheUpTo(3); // smaller: nothing changes
        assertSame(NodeId.of(big + 9), NodeId.of(big + 9));
    }

    @Test
    void badIndicesAndCountsAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> NodeId.of(-1));
        assertThrows(IllegalArgumentException.class, () -> NodeId.cacheUpTo(-1));
    }
}
