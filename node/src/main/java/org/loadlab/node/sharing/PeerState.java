package org.loadlab.node.sharing;

/**
 * What a node is under the threshold transfer policy with threshold T: a sender when its queue
 * length q &gt; T, a receiver when q &lt; T, OK when q = T. The stable protocols keep one list per
 * state (Shivaratri, Krueger and Singhal 1992; the slides, "A Stable Symmetrically Initiated
 * Algorithm").
 */
public enum PeerState {
    /** q &gt; T: has a task to give. */
    SENDER,
    /** q &lt; T: can take a task. */
    RECEIVER,
    /** q = T: neither. */
    OK;

    /**
     * The state of a node with queue length {@code q} under threshold {@code threshold}.
     *
     * @param q tasks waiting plus in service, ≥ 0
     * @param threshold T, ≥ 1
     */
    public static PeerState of(int q, int threshold) {
        return q > threshold ? SENDER : q < threshold ? RECEIVER : OK;
    }
}
