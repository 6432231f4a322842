package org.loadlab.balancer.policy;

import org.loadlab.node.protocol.LoadSnapshot;

/**
 * The nodes a policy chooses among for one request, with what the balancer knows about
 * them. Positions {@code 0..count-1} index {@link #nodes} and {@link #loads}; a policy
 * returns a position. The arrays are owned by the balancer and reused between decisions.
 *
 * <p>{@code loads[i]} is null when the policy reads no load information, or when node
 * {@code nodes[i]} did not answer its probe (it is then excluded). {@code inFlight} is
 * indexed by node index and counts the requests this balancer sent and has not yet seen
 * answered (least-connections).
 */
public final class CandidateSet {
    private int[] nodes;
    private LoadSnapshot[] loads;
    private int count;
    private final int[] inFlight;

    /** @param inFlight this balancer's outstanding requests per node index (shared, live) */
    public CandidateSet(int[] inFlight) {
        this.inFlight = inFlight;
    }

    /**
     * Points this set at {@code count} candidates.
     *
     * @param nodes node indices (positions 0..count-1 are used)
     * @param loads their load snapshots, or null when the policy reads none
     * @param count number of candidates, ≥ 1
     */
    public CandidateSet reset(int[] nodes, LoadSnapshot[] loads, int count) {
        this.nodes = nodes;
        this.loads = loads;
        this.count = count;
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

    /** Load snapshot of candidate {@code position}, or null if unknown. */
    public LoadSnapshot load(int position) {
        return loads == null ? null : loads[position];
    }

    /** True if the candidate's load is known and the node is available. */
    public boolean usable(int position) {
        LoadSnapshot s = load(position);
        return s != null && s.available();
    }

    /** Requests this balancer has in flight at candidate {@code position}'s node. */
    public int inFlight(int position) {
        return inFlight[nodes[position]];
    }
}
