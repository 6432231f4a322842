package org.loadlab.balancer.policy;

import java.util.Arrays;
import java.util.random.RandomGenerator;
import org.loadlab.balancer.decision.Candidates;
import org.loadlab.balancer.decision.DecisionContext;
import org.loadlab.balancer.decision.RoutingPolicy;
import org.loadlab.balancer.decision.Step;
import org.loadlab.node.protocol.LoadSnapshot;

/**
 * {@code least-request}, Envoy's least-request load balancer over what this balancer knows
 * (its requests in flight per node; it reads no load). While every node of the pool has the
 * same weight it draws {@code choices} distinct nodes and takes the one with the fewest
 * requests in flight, ties at random (P2C for 2 choices). When weights differ — nominal μ_j
 * that differ, or slow start ramping a node up — it runs Envoy's earliest-deadline-first
 * schedule over the pool: each node's deadline advances by 1 / w_j per pick, with the dynamic
 * weight w_j = μ_j × slow-start factor / (in flight + 1)^bias computed when the node is
 * scheduled again after a pick (the other nodes keep the weight of their last pick). A pick
 * costs O(log n).
 *
 * <p>Source: Envoy, "Supported load balancers: weighted least request" and
 * {@code LeastRequestLoadBalancer} ({@code choice_count} 2, {@code active_request_bias} 1.0).
 */
public final class LeastRequestPolicy implements RoutingPolicy {
    private final int choices;
    private final double bias;
    private final double[] staticWeight;
    private final boolean staticEqual;
    // The EDF schedule: a binary heap of nodes by (deadline, sequence).
    private double[] deadline = new double[0];
    private long[] sequence = new long[0];
    private int[] heap = new int[0];
    private int[] where = new int[0];
    private int size;
    private long nextSequence;
    private double current;
    private boolean dirty = true;

    /**
     * @param choices nodes drawn per decision with equal weights, ≥ 1
     * @param bias exponent of (in flight + 1) in the weighted schedule, ≥ 0
     * @param weights static weight per node index (nominal μ_j), &gt; 0 where used
     * @throws IllegalArgumentException if choices &lt; 1 or bias &lt; 0
     */
    public LeastRequestPolicy(int choices, double bias, double[] weights) {
        if (choices < 1 || !(bias >= 0)) {
            throw new IllegalArgumentException("least-request needs choices >= 1 and active-request-bias >= 0, were "
                    + choices + ", " + bias);
        }
        this.choices = choices;
        this.bias = bias;
        this.staticWeight = weights.clone();
        boolean equal = true;
        for (double w : staticWeight) {
            equal &= w == staticWeight[0];
        }
        this.staticEqual = equal;
    }

    @Override
    public String name() {
        return "least-request";
    }

    @Override
    public Step start(DecisionContext c) {
        if (c.poolSize() == 0) {
            return Step.reject();
        }
        if (staticEqual && !c.weightsUnequal()) {
            dirty = true; // the schedule is rebuilt when weights next differ
            return Step.route(fewestInFlight(c.draw(choices), c.random()));
        }
        int node = scheduled(c);
        return node >= 0 ? Step.route(node) : Step.route(fewestInFlight(c.draw(choices), c.random()));
    }

    /** The eligible candidate with the fewest requests in flight, ties uniformly at random. */
    private static int fewestInFlight(Candidates c, RandomGenerator rng) {
        int best = -1;
        int bestCount = Integer.MAX_VALUE;
        int ties = 0;
        for (int i = 0; i < c.count(); i++) {
            if (!c.eligible(i)) {
                continue;
            }
            int f = c.inFlight(i);
            if (f < bestCount) {
                best = i;
                bestCount = f;
                ties = 1;
            } else if (f == bestCount && rng.nextInt(++ties) == 0) {
                best = i;
            }
        }
        return c.node(best < 0 ? 0 : best);
    }

    /** The next node of the weighted EDF schedule that may be chosen, or −1 if none is. */
    private int scheduled(DecisionContext c) {
        if (dirty) {
            rebuild(c);
        }
        for (int tries = 0; tries < size; tries++) {
            int node = heap[0];
            current = deadline[node];
            pop();
            double w = weight(node, c);
            push(node, current + 1.0 / w);
            if (c.routable(node)) {
                return node;
            }
        }
        return -1;
    }

    /** μ_j × slow-start factor / (in flight + 1)^bias. */
    private double weight(int node, DecisionContext c) {
        double w = staticWeight[node] * c.weight(node);
        if (bias != 0) {
            w /= Math.pow(c.inFlight(node) + 1, bias);
        }
        return Math.max(w, 1e-12);
    }

    /** Schedules every pool node afresh, each at a random phase of its first period. */
    private void rebuild(DecisionContext c) {
        Candidates pool = c.pool();
        int n = 0;
        for (int i = 0; i < pool.count(); i++) {
            n = Math.max(n, pool.node(i) + 1);
        }
        if (deadline.length < n) {
            deadline = new double[n];
            sequence = new long[n];
            where = new int[n];
        }
        Arrays.fill(where, -1);
        heap = new int[pool.count()];
        size = 0;
        current = 0;
        for (int i = 0; i < pool.count(); i++) {
            int node = pool.node(i);
            push(node, (1.0 - c.random().nextDouble()) / weight(node, c));
        }
        dirty = false;
    }

    @Override
    public void onNodeGone(int node) {
        dirty = true;
    }

    @Override
    public void onNodeBack(int node, double now) {
        dirty = true;
    }

    @Override
    public boolean appliesWeights() {
        return true;
    }

    @Override
    public double score(LoadSnapshot load, int inFlight) {
        return inFlight;
    }

    @Override
    public String rule() {
        return "fewest requests in flight of " + choices + " random nodes; with unequal weights EDF on"
                + " weight/(in flight + 1)^" + bias;
    }

    // ---------------------------------------------------------------- binary heap by (deadline, sequence)

    private boolean before(int a, int b) {
        return deadline[a] < deadline[b] || deadline[a] == deadline[b] && sequence[a] < sequence[b];
    }

    private void push(int node, double due) {
        deadline[node] = due;
        sequence[node] = nextSequence++;
        heap[size] = node;
        where[node] = size;
        up(size++);
    }

    private void pop() {
        int top = heap[0];
        where[top] = -1;
        size--;
        if (size > 0) {
            heap[0] = heap[size];
            where[heap[0]] = 0;
            down(0);
        }
    }

    private void up(int i) {
        while (i > 0) {
            int parent = (i - 1) / 2;
            if (!before(heap[i], heap[parent])) {
                break;
            }
            swap(i, parent);
            i = parent;
        }
    }

    private void down(int i) {
        while (true) {
            int l = 2 * i + 1;
            int r = l + 1;
            int best = i;
            if (l < size && before(heap[l], heap[best])) {
                best = l;
            }
            if (r < size && before(heap[r], heap[best])) {
                best = r;
            }
            if (best == i) {
                return;
            }
            swap(i, best);
            i = best;
        }
    }

    private void swap(int i, int j) {
        int a = heap[i];
        heap[i] = heap[j];
        heap[j] = a;
        where[heap[i]] = i;
        where[heap[j]] = j;
    }
}
