package org.loadlab.balancer.policy;

import java.util.Arrays;
import org.loadlab.balancer.decision.Candidates;
import org.loadlab.balancer.pipeline.OutcomeListener;
import org.loadlab.balancer.pipeline.Scorer;
import org.loadlab.node.protocol.LoadSnapshot;
import org.loadlab.node.protocol.ResponseStatus;

/**
 * {@code peak-ewma}'s cost of a node: a peak-sensitive exponentially weighted moving average
 * of the response latencies this balancer measured there, times (requests in flight + 1);
 * lowest wins. A new sample above the average replaces it at once (the peak); a lower one
 * is blended in with weight 1 − e^(−Δt/τ), Δt the time since the average was last touched;
 * reading the cost decays it toward 0 the same way (a node not heard from looks better and
 * better, so it is tried again). A node with no latency known but requests out costs a large
 * penalty plus its requests in flight (Finagle), so an unmeasured node takes one request at a
 * time until it answers. A node that joins starts at the prior.
 *
 * <p>Source: Finagle {@code PeakEwma} (load = cost × (outstanding + 1), decay 10 s),
 * Linkerd2-proxy / tower {@code PeakEwma} (default RTT for new endpoints).
 */
final class PeakEwmaScore implements Scorer, OutcomeListener {
    /** Cost of a node with no latency known and requests in flight, before adding them (Finagle's penalty). */
    static final double PENALTY = 1e12;

    private final double decay;
    private final double prior;
    private double[] cost = new double[0];
    private double[] stamp = new double[0];

    /**
     * @param decay τ, seconds, &gt; 0
     * @param prior latency of a node not measured yet, seconds, ≥ 0
     */
    PeakEwmaScore(double decay, double prior) {
        this.decay = decay;
        this.prior = prior;
    }

    /** The node's latency average decayed to {@code now} (and stored so). */
    double latency(int node, double now) {
        grow(node);
        double dt = now - stamp[node];
        if (dt > 0) {
            cost[node] *= Math.exp(-dt / decay);
            stamp[node] = now;
        }
        return cost[node];
    }

    /** A measured latency {@code rtt} of {@code node} at {@code now}. */
    void observe(int node, double rtt, double now) {
        grow(node);
        double dt = Math.max(0, now - stamp[node]);
        if (rtt > cost[node]) {
            cost[node] = rtt;
        } else {
            double w = Math.exp(-dt / decay);
            cost[node] = cost[node] * w + rtt * (1 - w);
        }
        stamp[node] = now;
    }

    /** The cost of {@code node} with {@code inFlight} requests out, at {@code now}. */
    double cost(int node, int inFlight, double now) {
        double rtt = latency(node, now);
        if (rtt == 0 && inFlight > 0) {
            return PENALTY + inFlight;
        }
        return rtt * (inFlight + 1);
    }

    @Override
    public double value(Candidates c, int position) {
        return cost(c.node(position), c.inFlight(position), c.now());
    }

    @Override
    public boolean higherIsBetter() {
        return false;
    }

    @Override
    public boolean needsLoad() {
        return false;
    }

    @Override
    public double score(LoadSnapshot load, int inFlight) {
        if (load == null || load.node() >= cost.length) {
            return Double.NaN;
        }
        double rtt = cost[load.node()];
        return rtt == 0 && inFlight > 0 ? PENALTY + inFlight : rtt * (inFlight + 1);
    }

    @Override
    public String rule() {
        return "peak EWMA of measured latency (decay " + decay + " s) x (requests in flight + 1), lowest wins";
    }

    @Override
    public void onOutcome(int node, ResponseStatus status, double latency, double now) {
        if (!Double.isNaN(latency)) {
            observe(node, latency, now);
        }
    }

    @Override
    public void onNodeBack(int node, double now) {
        grow(node);
        cost[node] = prior;
        stamp[node] = now;
    }

    @Override
    public boolean measuresLatency() {
        return true;
    }

    private void grow(int node) {
        if (node >= cost.length) {
            int old = cost.length;
            int n = Math.max(node + 1, old * 2);
            cost = Arrays.copyOf(cost, n);
            stamp = Arrays.copyOf(stamp, n);
            Arrays.fill(cost, old, n, prior);
        }
    }
}
