package org.loadlab.balancer.policy;

import java.util.Arrays;
import org.loadlab.balancer.decision.Candidates;
import org.loadlab.balancer.decision.DecisionContext;
import org.loadlab.balancer.decision.RoutingPolicy;
import org.loadlab.balancer.decision.Step;
import org.loadlab.node.protocol.LoadSnapshot;

/**
 * {@code prequal} (Probing to Reduce Queuing and Latency): every request sends
 * {@code probes} asynchronous probes to random pool nodes, off the request's path; their
 * replies (requests in flight, RIF = q_j, and the node's latency estimate) enter a pool of at
 * most {@code poolSize} probes, the oldest leaving when it is full or a newer probe of the
 * same node arrives. A request is routed at once from the pool, by the hot-cold
 * lexicographic rule: a probe is <em>hot</em> when its RIF is above the
 * {@code hotQuantile}-quantile of the RIFs recently probed; if every usable probe is hot the
 * lowest RIF wins, else the cold probe with the lowest latency estimate wins (ties at random).
 * A probe older than {@code maxAge} seconds is dropped; a probe used {@code reuse} times is
 * dropped; a used probe's RIF counts the request just sent. With no usable probe the request
 * goes to a random pool node (counter {@code prequal_fallbacks}). Probes are counted as the
 * decision's queries. O(pool size) per decision.
 *
 * <p>Source: Wydrowski, Kleinberg, Rumble, Archer, "Load is not what you should balance:
 * Introducing Prequal" (NSDI 2024): asynchronous reusable probes, probe pool, HCL selection
 * on RIF and latency. LoadLab's defaults (3 probes per request, pool 16, 1 s age, 3 uses,
 * quantile 0.8) are its own choices within the ranges the paper describes.
 */
public final class PrequalPolicy implements RoutingPolicy {
    /** Counter: requests routed at random because no usable probe was in the pool. */
    public static final String FALLBACKS = "prequal_fallbacks";
    /** RIFs kept for the hot/cold quantile. */
    static final int RIF_HISTORY = 64;
    /** The quantile is recomputed after this many new RIFs. */
    static final int REQUANTILE_EVERY = 16;

    private final int probes;
    private final int capacity;
    private final double maxAge;
    private final int reuse;
    private final double hotQuantile;
    private final int[] node;
    private final int[] rif;
    private final double[] latency;
    private final double[] received;
    private final int[] uses;
    private int count;
    private final int[] history = new int[RIF_HISTORY];
    private int historyCount;
    private int historyNext;
    private int sinceQuantile;
    private double threshold = Double.POSITIVE_INFINITY;

    /**
     * @param probes probes per request, ≥ 0
     * @param poolSize probes kept, ≥ 1
     * @param maxAge seconds, &gt; 0
     * @param reuse uses per probe, ≥ 1
     * @param hotQuantile in [0, 1]
     * @throws IllegalArgumentException if a parameter is out of range
     */
    public PrequalPolicy(int probes, int poolSize, double maxAge, int reuse, double hotQuantile) {
        if (probes < 0 || poolSize < 1 || !(maxAge > 0) || reuse < 1 || !(hotQuantile >= 0 && hotQuantile <= 1)) {
            throw new IllegalArgumentException("prequal needs probes >= 0, pool-size >= 1, max-age > 0, reuse >= 1 and"
                    + " hot-quantile in [0, 1]");
        }
        this.probes = probes;
        this.capacity = poolSize;
        this.maxAge = maxAge;
        this.reuse = reuse;
        this.hotQuantile = hotQuantile;
        this.node = new int[poolSize];
        this.rif = new int[poolSize];
        this.latency = new double[poolSize];
        this.received = new double[poolSize];
        this.uses = new int[poolSize];
    }

    @Override
    public String name() {
        return "prequal";
    }

    @Override
    public Step start(DecisionContext c) {
        if (c.poolSize() == 0) {
            return Step.reject();
        }
        if (probes > 0) {
            Candidates targets = c.draw(probes);
            int[] to = new int[targets.count()];
            for (int i = 0; i < to.length; i++) {
                to[i] = targets.node(i);
            }
            c.probe(to);
        }
        double now = c.now();
        for (int i = count - 1; i >= 0; i--) {
            if (now - received[i] > maxAge) {
                remove(i);
            }
        }
        int chosen = hotCold(c);
        if (chosen < 0) {
            c.count(FALLBACKS, 1);
            int any = c.sampleAllowed();
            return any < 0 ? Step.reject() : Step.route(any);
        }
        int target = node[chosen];
        rif[chosen]++;
        if (++uses[chosen] >= reuse) {
            remove(chosen);
        }
        return Step.route(target);
    }

    /** The pool position HCL chooses among the probes of routable nodes, or −1 if none is usable. */
    private int hotCold(DecisionContext c) {
        int bestHot = -1;
        int bestCold = -1;
        int tiesHot = 0;
        int tiesCold = 0;
        for (int i = 0; i < count; i++) {
            if (!c.routable(node[i])) {
                continue;
            }
            if (rif[i] > threshold) {
                if (bestHot < 0 || rif[i] < rif[bestHot]) {
                    bestHot = i;
                    tiesHot = 1;
                } else if (rif[i] == rif[bestHot] && c.random().nextInt(++tiesHot) == 0) {
                    bestHot = i;
                }
            } else {
                if (bestCold < 0 || latency[i] < latency[bestCold]) {
                    bestCold = i;
                    tiesCold = 1;
                } else if (latency[i] == latency[bestCold] && c.random().nextInt(++tiesCold) == 0) {
                    bestCold = i;
                }
            }
        }
        return bestCold >= 0 ? bestCold : bestHot;
    }

    @Override
    public void onProbeReply(LoadSnapshot load, double now) {
        if (!load.available()) {
            return;
        }
        for (int i = 0; i < count; i++) {
            if (node[i] == load.node()) {
                remove(i); // the newer probe of the same node replaces the older
                break;
            }
        }
        if (count == capacity) {
            remove(oldest());
        }
        node[count] = load.node();
        rif[count] = load.queueLength();
        double est = load.latencyEstimate();
        latency[count] = Double.isNaN(est) ? Double.POSITIVE_INFINITY : est;
        received[count] = now;
        uses[count] = 0;
        count++;
        remember(load.queueLength());
    }

    /** Adds a probed RIF to the history; recomputes the hot threshold every few probes. */
    private void remember(int r) {
        history[historyNext] = r;
        historyNext = (historyNext + 1) % RIF_HISTORY;
        historyCount = Math.min(RIF_HISTORY, historyCount + 1);
        if (++sinceQuantile >= REQUANTILE_EVERY || historyCount < REQUANTILE_EVERY) {
            sinceQuantile = 0;
            int[] sorted = Arrays.copyOf(history, historyCount);
            Arrays.sort(sorted);
            threshold = sorted[(int) Math.floor(hotQuantile * (historyCount - 1))];
        }
    }

    private int oldest() {
        int o = 0;
        for (int i = 1; i < count; i++) {
            if (received[i] < received[o]) {
                o = i;
            }
        }
        return o;
    }

    private void remove(int i) {
        int last = --count;
        node[i] = node[last];
        rif[i] = rif[last];
        latency[i] = latency[last];
        received[i] = received[last];
        uses[i] = uses[last];
    }

    @Override
    public void onNodeGone(int gone) {
        for (int i = count - 1; i >= 0; i--) {
            if (node[i] == gone) {
                remove(i);
            }
        }
    }

    /** Probes in the pool now. */
    public int pooled() {
        return count;
    }

    /** The current hot threshold on RIF (+∞ before any probe). */
    public double hotThreshold() {
        return threshold;
    }

    @Override
    public boolean appliesWeights() {
        return true; // its probes go to nodes drawn by weight
    }

    @Override
    public double score(LoadSnapshot load, int inFlight) {
        return load == null ? Double.NaN : load.latencyEstimate();
    }

    @Override
    public String rule() {
        return "hot-cold lexicographic over a pool of asynchronous probes: lowest latency among nodes whose RIF is"
                + " at most the " + hotQuantile + "-quantile, else lowest RIF";
    }
}
