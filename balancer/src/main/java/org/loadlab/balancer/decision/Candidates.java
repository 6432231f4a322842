package org.loadlab.balancer.decision;

import org.loadlab.node.protocol.LoadSnapshot;

/**
 * The nodes a policy chooses among for one request, with what the balancer knows of them:
 * positions {@code 0..count-1} give the node index, its load as read (null when not read,
 * not answered, or not reported yet), the requests this balancer has in flight there, and
 * the guardrail's mask (null when the node may be chosen). A policy returns a node, or a
 * position through {@link #node}. The object and its arrays are owned by the balancer and
 * reused: they are valid during the continuation (or picker) call they are passed to; a
 * policy that needs what it read in a later round copies it.
 *
 * <p>Source: DESIGN.md ("filters → scorers → picker"), SPEC.md §2.
 */
public final class Candidates {
    private final int[] inFlight;
    private final NodeWeights weights;
    private final java.util.function.DoubleSupplier clock;
    private int[] nodes;
    private LoadSnapshot[] loads;
    private String[] masks;
    private int count;
    private int masked;

    /** @param inFlight this balancer's outstanding requests per node index (shared, live) */
    public Candidates(int[] inFlight) {
        this(inFlight, NodeWeights.NONE, () -> Double.NaN);
    }

    /**
     * @param inFlight this balancer's outstanding requests per node index (shared, live)
     * @param weights the balancer's dynamic node weights (slow start)
     * @param clock the balancer's clock, seconds (for scorers whose values decay with time)
     */
    public Candidates(int[] inFlight, NodeWeights weights, java.util.function.DoubleSupplier clock) {
        this.inFlight = inFlight;
        this.weights = weights;
        this.clock = clock;
    }

    /**
     * Points this set at {@code count} candidates.
     *
     * @param nodes node indices (positions 0..count-1 are used)
     * @param loads their loads, or null when none was read
     * @param masks per position the reason a guardrail excludes it, or null (the array may be null: none masked)
     * @param count number of candidates, ≥ 0
     * @return this
     */
    public Candidates reset(int[] nodes, LoadSnapshot[] loads, String[] masks, int count) {
        this.nodes = nodes;
        this.loads = loads;
        this.masks = masks;
        this.count = count;
        int m = 0;
        if (masks != null) {
            for (int i = 0; i < count; i++) {
                if (masks[i] != null) {
                    m++;
                }
            }
        }
        this.masked = m;
        return this;
    }

    /** Number of candidates. */
    public int count() {
        return count;
    }

    /** Node index of candidate {@code position}. */
    public int node(int position) {
        return nodes[position];
    }

    /** Load of candidate {@code position} as read, or null if unknown. */
    public LoadSnapshot load(int position) {
        return loads == null ? null : loads[position];
    }

    /** Why a guardrail excludes candidate {@code position}, or null if it may be chosen. */
    public String mask(int position) {
        return masked == 0 ? null : masks[position];
    }

    /** Number of masked candidates. */
    public int maskedCount() {
        return masked;
    }

    /** True if candidate {@code position} may be chosen by a policy that reads no load (not masked). */
    public boolean eligible(int position) {
        return masked == 0 || masks[position] == null;
    }

    /** True if candidate {@code position}'s load is known, its node is up, and it is not masked. */
    public boolean usable(int position) {
        LoadSnapshot s = load(position);
        return s != null && s.available() && eligible(position);
    }

    /**
     * True if nothing is known of candidate {@code position} (not read, not answered, not
     * reported) and no guardrail masks it: in the cached model such a node may be chosen blindly.
     */
    public boolean unknown(int position) {
        return load(position) == null && eligible(position);
    }

    /** True if no candidate's load is known. */
    public boolean noneKnown() {
        if (loads == null) {
            return true;
        }
        for (int i = 0; i < count; i++) {
            if (loads[i] != null) {
                return false;
            }
        }
        return true;
    }

    /** The dynamic weight of candidate {@code position}'s node, in (0, 1] (below 1 in slow start). */
    public double weight(int position) {
        return weights.weight(nodes[position]);
    }

    /** The balancer's time now, seconds (NaN for candidates built outside a balancer). */
    public double now() {
        return clock.getAsDouble();
    }

    /** Requests this balancer has in flight at candidate {@code position}'s node. */
    public int inFlight(int position) {
        return inFlight[nodes[position]];
    }

    /** Position of {@code node} among the candidates, or −1. */
    public int positionOf(int node) {
        for (int i = 0; i < count; i++) {
            if (nodes[i] == node) {
                return i;
            }
        }
        return -1;
    }
}
