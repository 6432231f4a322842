package org.loadlab.shell.cluster;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The books of one cluster run: every request the driver generated is accounted for.
 * <pre>
 *   generated = arrived + notArrived
 *   arrived   = completed + rejected + lost + unresolved
 * </pre>
 * A request that was not resolved has a reason, taken from the census each balancer answers
 * as its last act before stopping ({@link Protocol.BalancerHeld}): {@code deciding} (waiting
 * for probe replies), {@code delayed} (held back in delay mode), {@code backoff} (a retry
 * waiting for its backoff timer), {@code in-flight} (routed to
 * a node, no response yet, or ended by the balancer's request timeout with its copy still at the node; less those
 * a failed node counted as lost). What the censuses do not explain is {@code balancer-gone} when a
 * balancer's member was removed (it took its requests with it), {@code balancer-silent} when
 * a balancer did not answer in time, and otherwise {@code unaccounted}: then, or when any
 * observation was dropped, the books do not balance and the check fails ({@link #ok()} false,
 * every problem in {@link #problems()}). A request generated but not arrived is
 * {@code arrival-undeliverable} (no balancer was bound to its address) or
 * {@code in-transit} (on its way when the run stopped, or sent to a balancer that was gone).
 *
 * @param generated requests the workload driver generated
 * @param arrived requests that arrived at a balancer
 * @param completed completed
 * @param rejected rejected (by the policy, the admission bound, or a node)
 * @param lost lost (in flight at a node whose member was removed)
 * @param unresolved arrived, not completed, rejected or lost
 * @param unresolvedByReason unresolved requests by reason (deciding, delayed, in-flight,
 *     backoff, balancer-gone, balancer-silent, unaccounted; for load sharing queued, in-transit, node-gone), only
 *     reasons with a count
 * @param notArrived generated but never arrived at a balancer
 * @param notArrivedByReason by reason (arrival-undeliverable, in-transit)
 * @param droppedObservations observation records refused anywhere (by the gateway's recorder, or by a member after
 *     its actors stopped)
 * @param undeliveredMessages messages the shells could not deliver, by counter ({@code undelivered_<kind>})
 * @param ok true if the books balance and nothing was dropped
 * @param problems what does not balance, in words (empty when ok)
 */
public record RequestAccounting(long generated, long arrived, long completed, long rejected, long lost, long unresolved,
                                Map<String, Long> unresolvedByReason, long notArrived, Map<String, Long> notArrivedByReason,
                                long droppedObservations, Map<String, Long> undeliveredMessages, boolean ok,
                                List<String> problems) {
    /** Copies the maps and list. */
    public RequestAccounting {
        unresolvedByReason = Map.copyOf(unresolvedByReason);
        notArrivedByReason = Map.copyOf(notArrivedByReason);
        undeliveredMessages = Map.copyOf(undeliveredMessages);
        problems = List.copyOf(problems);
    }

    /**
     * Draws up the books.
     *
     * @param generated requests the driver generated
     * @param arrived requests counted arriving at a balancer (the gateway's ledger)
     * @param completed completed (ledger)
     * @param rejected rejected (ledger)
     * @param lost lost (ledger)
     * @param censuses what each balancer that stopped normally still held
     * @param lostByNodes of {@code lost}, the requests a failed node counted (its queue when it failed, and what
     *     reached it since): its balancers never hear of them and still count them in flight
     * @param goneBalancers balancers whose member was removed during the run
     * @param balancerCount balancers of the run
     * @param undeliveredArrivals arrivals the driver's shell could not deliver
     * @param droppedObservations observation records refused anywhere
     * @param undelivered every undelivered-message counter, by name
     */
    public static RequestAccounting of(long generated, long arrived, long completed, long rejected, long lost,
                                       Collection<Protocol.BalancerHeld> censuses, long lostByNodes, Set<Integer> goneBalancers,
                                       int balancerCount, long undeliveredArrivals, long droppedObservations,
                                       Map<String, Long> undelivered) {
        long deciding = 0;
        long delayed = 0;
        long backoff = 0;
        long inFlight = 0;
        java.util.Set<Integer> reported = new java.util.HashSet<>();
        for (Protocol.BalancerHeld h : censuses) {
            if (!reported.add(h.balancer())) {
                continue; // a balancer answers once; a duplicate would count its requests twice
            }
            deciding += h.deciding();
            delayed += h.delayed();
            backoff += h.inBackoff();
            inFlight += h.inFlight();
        }
        inFlight -= Math.min(inFlight, lostByNodes); // counted lost already
        Map<String, Long> held = new LinkedHashMap<>();
        put(held, "deciding", deciding);
        put(held, "delayed", delayed);
        put(held, "backoff", backoff);
        put(held, "in-flight", inFlight);
        return books(generated, arrived, completed, rejected, lost, held, missing(reported, goneBalancers, balancerCount),
                "balancer", undeliveredArrivals, droppedObservations, undelivered);
    }

    /**
     * Draws up the books of a load-sharing run: there the peer nodes hold the unresolved tasks
     * — {@code queued} at a node, or {@code in-transit} between peers (sent, not yet received)
     * — and a peer whose member was removed took its tasks with it ({@code node-gone}).
     *
     * @param generated tasks the driver generated
     * @param arrived tasks that arrived at a node from the driver
     * @param completed completed
     * @param rejected rejected
     * @param lost lost (at a failed node)
     * @param censuses what each peer that stopped normally held
     * @param goneNodes peers whose member was removed during the run
     * @param nodeCount peers of the run
     * @param undeliveredArrivals arrivals the driver's shell could not deliver
     * @param droppedObservations observation records refused anywhere
     * @param undelivered every undelivered-message counter, by name
     */
    public static RequestAccounting ofPeers(long generated, long arrived, long completed, long rejected, long lost,
                                            Collection<Protocol.PeerHeld> censuses, Set<Integer> goneNodes, int nodeCount,
                                            long undeliveredArrivals, long droppedObservations, Map<String, Long> undelivered) {
        long queued = 0;
        long out = 0;
        long in = 0;
        java.util.Set<Integer> reported = new java.util.HashSet<>();
        for (Protocol.PeerHeld h : censuses) {
            if (reported.add(h.node())) {
                queued += h.queued();
                out += h.transfersOut();
                in += h.transfersIn();
            }
        }
        Map<String, Long> held = new LinkedHashMap<>();
        put(held, "queued", queued);
        put(held, "in-transit", out - in);
        return books(generated, arrived, completed, rejected, lost, held, missing(reported, goneNodes, nodeCount), "node",
                undeliveredArrivals, droppedObservations, undelivered);
    }

    /** {gone holders not reporting, silent holders}. */
    private static int[] missing(Set<Integer> reported, Set<Integer> gone, int count) {
        int goneMissing = 0;
        int silent = 0;
        for (int i = 0; i < count; i++) {
            if (!reported.contains(i)) {
                if (gone.contains(i)) {
                    goneMissing++;
                } else {
                    silent++;
                }
            }
        }
        return new int[] {goneMissing, silent};
    }

    private static RequestAccounting books(long generated, long arrived, long completed, long rejected, long lost,
                                           Map<String, Long> held, int[] missing, String holder, long undeliveredArrivals,
                                           long droppedObservations, Map<String, Long> undelivered) {
        List<String> problems = new ArrayList<>();
        long unresolved = arrived - completed - rejected - lost;
        Map<String, Long> byReason = new LinkedHashMap<>(held);
        long explained = 0;
        for (long v : held.values()) {
            explained += v;
        }
        long rest = unresolved - explained;
        if (rest > 0 && (missing[0] > 0 || missing[1] > 0)) {
            put(byReason, holder + (missing[0] > 0 ? "-gone" : "-silent"), rest);
        } else if (rest != 0) {
            put(byReason, "unaccounted", rest);
            problems.add(rest + " request(s) unaccounted for: " + arrived + " arrived = " + completed + " completed + "
                    + rejected + " rejected + " + lost + " lost + " + explained + " held by the " + holder
                    + "s at the stop " + held + ", off by " + rest);
        }
        if (held.getOrDefault("in-transit", 0L) < 0) {
            problems.add("more tasks received than sent between peers: " + held.get("in-transit"));
        }
        long notArrived = generated - arrived;
        Map<String, Long> notArrivedByReason = new LinkedHashMap<>();
        if (notArrived < 0) {
            problems.add(arrived + " requests arrived but the driver generated " + generated);
        } else {
            long undeliverable = Math.min(notArrived, undeliveredArrivals);
            put(notArrivedByReason, "arrival-undeliverable", undeliverable);
            put(notArrivedByReason, "in-transit", notArrived - undeliverable);
        }
        if (droppedObservations > 0) {
            problems.add(droppedObservations + " observation record(s) dropped: the counts and metrics miss them");
        }
        return new RequestAccounting(generated, arrived, completed, rejected, lost, unresolved, byReason, notArrived,
                notArrivedByReason, droppedObservations, undelivered, problems.isEmpty(), problems);
    }

    private static void put(Map<String, Long> m, String reason, long count) {
        if (count != 0) {
            m.put(reason, count);
        }
    }

    /** One line for logs and the CLI: the books, or what does not balance. */
    public String summary() {
        String books = generated + " generated = " + arrived + " arrived (" + completed + " completed, " + rejected
                + " rejected, " + lost + " lost, " + unresolved + " unresolved " + unresolvedByReason + ") + " + notArrived
                + " not arrived " + notArrivedByReason;
        return ok ? books : "CONSERVATION CHECK FAILED: " + String.join("; ", problems) + " [" + books + "]";
    }
}
