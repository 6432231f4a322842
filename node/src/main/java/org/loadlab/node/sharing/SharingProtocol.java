package org.loadlab.node.sharing;

import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * The peer-to-peer load-sharing protocols a {@link PeerNode} can run. In a scenario they are
 * named in {@code policies} next to (or instead of) balancer policies: a run whose policy is a
 * protocol has no balancer in front; arrivals go straight to the nodes, whose agents share
 * load among themselves by message.
 *
 * <p>Sources: the lecture slides (seed 002, "Load Balancing/Sharing/Scheduling Part II");
 * Eager, Lazowska, Zahorjan, "Adaptive load sharing in homogeneous distributed systems",
 * IEEE TSE 12(5), 1986 (sender-initiated random / threshold / shortest) and "A comparison of
 * receiver-initiated and sender-initiated adaptive load sharing", Performance Evaluation 6,
 * 1986; Krueger and Finkel, "An adaptive load balancing algorithm for a multicomputer",
 * TR 539, U. Wisconsin, 1984 (above-average); Shivaratri, Krueger and Singhal, "Load
 * distributing for locally distributed systems", IEEE Computer 25(12), 1992 (symmetric,
 * stable symmetric, stable sender-initiated). Message tables: docs/load-sharing.md.
 */
public enum SharingProtocol {
    /** No load sharing: every node is its own M/M/1 (M/M/c) queue. */
    NONE("none"),
    /** Sender-initiated, random location: a sender ships the new task to a random peer, no poll. */
    SENDER_RANDOM("sender-random"),
    /** Sender-initiated, threshold location: poll random peers one by one (at most Lp) for one with q &lt; T. */
    SENDER_THRESHOLD("sender-threshold"),
    /** Sender-initiated, shortest location: poll Lp random peers at once, ship to the shortest queue if it is &lt; T. */
    SENDER_SHORTEST("sender-shortest"),
    /** Receiver-initiated: on a departure leaving q &lt; T, poll peers for one with q &gt; T; retry after a period. */
    RECEIVER("receiver"),
    /** Symmetrically initiated: the sender-threshold and the receiver components together. */
    SYMMETRIC("symmetric"),
    /** Krueger–Finkel above-average: TooHigh / TooLow / Accept / ChangeAverage around an estimated average. */
    ABOVE_AVERAGE("above-average"),
    /** Stable symmetrically initiated: Senders / Receivers / OK lists learned from polls. */
    STABLE_SYMMETRIC("stable-symmetric"),
    /** Stable sender-initiated: the lists' sender component plus a state vector; receivers inform misinformed nodes. */
    STABLE_SENDER("stable-sender");

    private final String label;

    SharingProtocol(String label) {
        this.label = label;
    }

    /** The protocol's name as scenarios spell it, e.g. {@code sender-threshold}. */
    public String label() {
        return label;
    }

    /** True for the protocols that keep per-peer lists (memory grows with n² over the cluster). */
    public boolean keepsPeerLists() {
        return this == STABLE_SYMMETRIC || this == STABLE_SENDER;
    }

    /**
     * The protocol named {@code name}.
     *
     * @param name a scenario spelling such as {@code receiver}; null gives empty
     * @return the protocol, or empty if no protocol has that name
     */
    public static Optional<SharingProtocol> find(String name) {
        for (SharingProtocol p : values()) {
            if (p.label.equals(name)) {
                return Optional.of(p);
            }
        }
        return Optional.empty();
    }

    /**
     * The protocol named {@code name}.
     *
     * @throws IllegalArgumentException naming the value and the allowed names if unknown
     */
    public static SharingProtocol of(String name) {
        return find(name).orElseThrow(() -> new IllegalArgumentException(
                "load-sharing protocol '" + name + "' is not known; allowed: " + String.join(", ", names())));
    }

    /** True if {@code name} names a load-sharing protocol (a peer-mode policy). */
    public static boolean isProtocol(String name) {
        return find(name).isPresent();
    }

    /** Every protocol name, in declaration order. */
    public static List<String> names() {
        return Arrays.stream(values()).map(SharingProtocol::label).toList();
    }

    /** The scenario spelling, as {@link #label()}. */
    @Override
    public String toString() {
        return label;
    }
}
