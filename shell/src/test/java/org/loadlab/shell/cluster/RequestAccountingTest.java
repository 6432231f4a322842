package org.loadlab.shell.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The books of a cluster run: every request accounted for, with a reason, or the check fails. */
class RequestAccountingTest {
    private static final Map<String, Long> NONE = Map.of();

    @Test
    void requestsHeldAtTheStopAreUnresolvedWithTheBalancersReasons() {
        RequestAccounting a = RequestAccounting.of(1000, 998, 950, 20, 3, List.of(
                new Protocol.BalancerHeld(0, 4, 1, 0, 10), new Protocol.BalancerHeld(1, 2, 0, 0, 8)), 0, Set.of(), 2, 0, 0, NONE);
        assertTrue(a.ok(), a.summary());
        assertEquals(25, a.unresolved());
        assertEquals(Map.of("deciding", 6L, "delayed", 1L, "in-flight", 18L), a.unresolvedByReason());
        assertEquals(2, a.notArrived());
        assertEquals(Map.of("in-transit", 2L), a.notArrivedByReason());
    }

    @Test
    void whatARemovedBalancerHeldIsBalancerGone() {
        RequestAccounting a = RequestAccounting.of(1000, 1000, 900, 0, 0, List.of(new Protocol.BalancerHeld(0, 0, 0, 0, 40)), 0,
                Set.of(1), 2, 0, 0, NONE);
        assertTrue(a.ok(), a.summary());
        assertEquals(Map.of("in-flight", 40L, "balancer-gone", 60L), a.unresolvedByReason());
    }

    @Test
    void aBalancerThatDidNotReportLeavesItsRequestsBalancerSilent() {
        RequestAccounting a = RequestAccounting.of(100, 100, 90, 0, 0, List.of(), 0, Set.of(), 1, 0, 0, NONE);
        assertTrue(a.ok(), a.summary());
        assertEquals(Map.of("balancer-silent", 10L), a.unresolvedByReason());
    }

    @Test
    void requestsNobodyExplainsFailTheCheck() {
        RequestAccounting a = RequestAccounting.of(100, 100, 90, 0, 0, List.of(new Protocol.BalancerHeld(0, 0, 0, 0, 4)), 0,
                Set.of(), 1, 0, 0, NONE);
        assertFalse(a.ok());
        assertEquals(6L, a.unresolvedByReason().get("unaccounted"));
        assertTrue(a.summary().startsWith("CONSERVATION CHECK FAILED: 6 request(s) unaccounted for"), a.summary());
    }

    @Test
    void moreResolvedThanTheCensusAllowsFailsTooAndADuplicateCensusCountsOnce() {
        RequestAccounting a = RequestAccounting.of(100, 100, 98, 0, 0, List.of(new Protocol.BalancerHeld(0, 0, 0, 0, 2),
                new Protocol.BalancerHeld(0, 0, 0, 0, 2)), 0, Set.of(), 1, 0, 0, NONE);
        assertTrue(a.ok(), a.summary());
        RequestAccounting b = RequestAccounting.of(100, 100, 99, 0, 0, List.of(new Protocol.BalancerHeld(0, 0, 0, 0, 2)), 0,
                Set.of(), 1, 0, 0, NONE);
        assertFalse(b.ok());
        assertEquals(-1L, b.unresolvedByReason().get("unaccounted"));
    }

    @Test
    void droppedObservationsFailTheCheckEvenWhenTheCountsBalance() {
        RequestAccounting a = RequestAccounting.of(100, 100, 100, 0, 0, List.of(new Protocol.BalancerHeld(0, 0, 0, 0, 0)), 0,
                Set.of(), 1, 0, 7, NONE);
        assertFalse(a.ok());
        assertTrue(a.problems().get(0).startsWith("7 observation record(s) dropped"), a.problems().toString());
    }

    @Test
    void requestsAFailedNodeCountedLostAreNotInFlightToo() {
        // 60 arrived: 59 completed, 1 lost when its node failed; the balancer still counts it in flight.
        RequestAccounting a = RequestAccounting.of(60, 60, 59, 0, 1, List.of(new Protocol.BalancerHeld(0, 0, 0, 0, 1)), 1,
                Set.of(), 1, 0, 0, NONE);
        assertTrue(a.ok(), a.summary());
        assertEquals(0, a.unresolved());
        assertEquals(Map.of(), a.unresolvedByReason());
    }

    @Test
    void undeliverableArrivalsAreNamed() {
        RequestAccounting a = RequestAccounting.of(100, 95, 95, 0, 0, List.of(new Protocol.BalancerHeld(0, 0, 0, 0, 0)), 0,
                Set.of(), 1, 3, 0, Map.of("undelivered_arrival", 3L));
        assertTrue(a.ok(), a.summary());
        assertEquals(Map.of("arrival-undeliverable", 3L, "in-transit", 2L), a.notArrivedByReason());
        assertEquals(3L, a.undeliveredMessages().get("undelivered_arrival"));
    }
}
