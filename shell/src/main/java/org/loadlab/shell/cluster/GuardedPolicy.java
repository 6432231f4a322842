package org.loadlab.shell.cluster;

import java.util.random.RandomGenerator;
import org.loadlab.balancer.policy.CandidateSet;
import org.loadlab.balancer.policy.SelectionPolicy;
import org.loadlab.node.protocol.LoadSnapshot;

/**
 * A selection policy with the cluster's guardrails around it (seed 003: action masking,
 * offline detection): candidates a {@link Guard} masks (node's member removed or
 * unreachable, node silent, failed, CPU above the threshold) are taken out before the
 * wrapped policy chooses; if every candidate is masked it chooses among all of them (fail
 * open). It also keeps the last decision's candidates for explanations, and its wrapped
 * policy can be replaced while the run goes on (PUT /policy).
 *
 * <p>One instance per balancer, called from its actor only.
 */
public final class GuardedPolicy implements SelectionPolicy {
    /** Decides whether a node is masked. */
    public interface Guard {
        /**
         * @param node node index
         * @param load what this decision knows of it (null if nothing)
         * @return why it is masked, or null if it is not
         */
        String maskReason(int node, LoadSnapshot load);

        /** True if {@code node} is gone (member removed or unreachable, node failed): never chosen while another is left. */
        boolean gone(int node);
    }

    /**
     * The candidates of the latest decision.
     *
     * @param nodes candidate node indices
     * @param loads their loads as the policy saw them (entries may be null)
     * @param inFlight requests in flight per candidate
     * @param maskReasons per candidate, null when not masked
     * @param chosen chosen position, or {@link SelectionPolicy#REJECT}
     * @param failOpen every candidate was masked, the policy chose among all
     * @param scores the policy's scores at that time
     */
    public record Draft(int[] nodes, LoadSnapshot[] loads, int[] inFlight, String[] maskReasons, int chosen,
                        boolean failOpen, PolicyScores scores) {
    }

    /** At most this many candidates are kept per decision for explanations. */
    static final int KEPT_CANDIDATES = 16;

    private final Guard guard;
    private final int[] inFlightScratch;
    private final CandidateSet filtered;
    private SelectionPolicy delegate;
    private PolicyScores scores;
    private int[] nodes = new int[8];
    private LoadSnapshot[] loads = new LoadSnapshot[8];
    private String[] reasons = new String[8];
    private int[] map = new int[8];
    private Draft draft;

    /**
     * @param delegate the policy that decides
     * @param guard the masks
     * @param nodeCount n, number of nodes of the run
     */
    public GuardedPolicy(SelectionPolicy delegate, Guard guard, int nodeCount) {
        this.delegate = delegate;
        this.scores = PolicyScores.of(delegate);
        this.guard = guard;
        this.inFlightScratch = new int[nodeCount];
        this.filtered = new CandidateSet(inFlightScratch);
    }

    /** Replaces the wrapped policy from the next decision on. */
    public void setDelegate(SelectionPolicy policy) {
        this.delegate = policy;
        this.scores = PolicyScores.of(policy);
    }

    /** The wrapped policy. */
    public SelectionPolicy delegate() {
        return delegate;
    }

    /** The wrapped policy's scores. */
    public PolicyScores scores() {
        return scores;
    }

    /** The latest decision's candidates without taking them (null if none). */
    public Draft peekDraft() {
        return draft;
    }

    /** The latest decision's candidates, once (null if none since the last call). */
    public Draft takeDraft() {
        Draft d = draft;
        draft = null;
        return d;
    }

    @Override
    public String name() {
        return delegate.name();
    }

    @Override
    public int sampleSize(int allowedCount) {
        return delegate.sampleSize(allowedCount);
    }

    @Override
    public int choose(CandidateSet c, RandomGenerator rng) {
        int count = c.count();
        if (nodes.length < count) {
            int m = Math.max(count, nodes.length * 2);
            nodes = new int[m];
            loads = new LoadSnapshot[m];
            reasons = new String[m];
            map = new int[m];
        }
        int masked = 0;
        int gone = 0;
        for (int i = 0; i < count; i++) {
            reasons[i] = guard.maskReason(c.node(i), c.load(i));
            if (reasons[i] != null) {
                masked++;
                if (guard.gone(c.node(i))) {
                    gone++;
                }
            }
        }
        // Masked candidates are left out; if that leaves none, the ones that are only masked
        // (CPU, silent, stale) are offered again (fail open), never the gone ones if any other is left.
        boolean failOpen = masked == count && gone < count;
        int chosen;
        if (masked == 0 || gone == count) {
            chosen = delegate.choose(c, rng);
        } else {
            int k = 0;
            boolean anyLoad = false;
            for (int i = 0; i < count; i++) {
                if (reasons[i] == null || failOpen && !guard.gone(c.node(i))) {
                    int node = c.node(i);
                    nodes[k] = node;
                    loads[k] = c.load(i);
                    anyLoad |= loads[k] != null;
                    inFlightScratch[node] = c.inFlight(i);
                    map[k++] = i;
                }
            }
            int p = delegate.choose(filtered.reset(nodes, anyLoad ? loads : null, k), rng);
            chosen = p == REJECT ? REJECT : map[p];
        }
        keep(c, chosen, failOpen || gone == count);
        return chosen;
    }

    private void keep(CandidateSet c, int chosen, boolean failOpen) {
        int count = c.count();
        int keep = Math.min(count, KEPT_CANDIDATES);
        int[] n = new int[keep];
        LoadSnapshot[] l = new LoadSnapshot[keep];
        int[] f = new int[keep];
        String[] r = new String[keep];
        int k = 0;
        int newChosen = REJECT;
        if (chosen >= 0) { // the chosen candidate is always kept, first
            n[0] = c.node(chosen);
            l[0] = c.load(chosen);
            f[0] = c.inFlight(chosen);
            r[0] = reasons[chosen];
            newChosen = 0;
            k = 1;
        }
        for (int i = 0; i < count && k < keep; i++) {
            if (i != chosen) {
                n[k] = c.node(i);
                l[k] = c.load(i);
                f[k] = c.inFlight(i);
                r[k++] = reasons[i];
            }
        }
        draft = new Draft(n, l, f, r, newChosen, failOpen, scores);
    }
}
