package org.loadlab.balancer.policy;

import com.carrotsearch.hppc.LongIntHashMap;
import org.loadlab.balancer.decision.Candidates;
import org.loadlab.balancer.decision.DecisionContext;
import org.loadlab.balancer.decision.RoutingPolicy;
import org.loadlab.balancer.decision.Step;

/**
 * {@code ring-hash} and {@code maglev}: consistent hashing of the request's affinity key over
 * the nodes of the pool, so the same key goes to the same node while the pool stays the same
 * ({@link HashRing}, {@link MaglevTable}). The structure is rebuilt from the pool when a node
 * leaves or comes back (membership, guardrail or outlier ejection), at the next decision. A
 * retry walks on to the next node of the ring or table that it has not tried. A request
 * without a key goes to a uniformly random pool node (counter {@code affinity_no_key}).
 * Keys are remembered with the node they last went to: a first attempt that now maps
 * elsewhere counts {@code affinity_moved}, one whose key was seen before {@code affinity_repeat},
 * so affinity_moved / affinity_repeat is the share of returning keys that pool changes remapped. Slow start does not apply: weights would move keys
 * (Envoy supports slow start only for round robin and least request).
 *
 * <p>Source: Envoy ring hash and maglev load balancers; Karger et al. (STOC 1997);
 * Eisenbud et al. (NSDI 2016).
 */
public final class AffinityPolicy implements RoutingPolicy {
    /** Counter: first attempts whose key now maps to another node than last time. */
    public static final String MOVED = "affinity_moved";
    /** Counter: first attempts whose key was seen before (the base of the moved share). */
    public static final String REPEAT = "affinity_repeat";
    /** Counter: requests without a key (routed at random). */
    public static final String NO_KEY = "affinity_no_key";

    /** The two hashing structures. */
    public enum Kind {
        /** Envoy's ring hash. */
        RING_HASH,
        /** Google's maglev. */
        MAGLEV
    }

    private final Kind kind;
    private final int size;
    private HashRing ring;
    private MaglevTable table;
    private boolean dirty = true;
    private final LongIntHashMap last = new LongIntHashMap();

    /**
     * @param kind ring hash or maglev
     * @param size ring hash: the smallest ring; maglev: the table size (a prime)
     */
    public AffinityPolicy(Kind kind, int size) {
        this.kind = kind;
        this.size = size;
    }

    @Override
    public String name() {
        return kind == Kind.RING_HASH ? "ring-hash" : "maglev";
    }

    @Override
    public Step start(DecisionContext c) {
        if (c.poolSize() == 0) {
            return Step.reject();
        }
        if (c.key() < 0) {
            c.count(NO_KEY, 1);
            int node = c.sampleAllowed();
            return node < 0 ? Step.reject() : Step.route(node);
        }
        if (dirty) {
            rebuild(c.pool(), c.allowedCount());
        }
        long h = KeyHash.ofKey(c.key());
        int node = c.attempt() == 0 ? lookup(h) : lookup(h, c);
        if (node < 0 || !c.routable(node)) {
            node = lookup(h, c);
        }
        if (node < 0) {
            return Step.reject();
        }
        if (c.attempt() == 0) {
            int before = last.put(c.key(), node + 1) - 1;
            if (before >= 0) {
                c.count(REPEAT, 1);
                if (before != node) {
                    c.count(MOVED, 1);
                }
            }
        }
        return Step.route(node);
    }

    private int lookup(long h) {
        return kind == Kind.RING_HASH ? ring.node(h) : table.node(h);
    }

    private int lookup(long h, DecisionContext c) {
        return kind == Kind.RING_HASH ? ring.node(h, c::routable) : table.node(h, c::routable);
    }

    private void rebuild(Candidates pool, int allowed) {
        int[] nodes = new int[pool.count()];
        for (int i = 0; i < nodes.length; i++) {
            nodes[i] = pool.node(i);
        }
        if (kind == Kind.RING_HASH) {
            ring = new HashRing(nodes, size, allowed);
        } else {
            table = new MaglevTable(nodes, size);
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
        return true; // affinity wins: no thinning by slow start
    }

    @Override
    public String rule() {
        return (kind == Kind.RING_HASH ? "ring hash" : "maglev") + " of the request key over the pool";
    }
}
