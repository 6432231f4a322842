package org.loadlab.balancer.pipeline;

import org.loadlab.node.protocol.ResponseStatus;

/**
 * Each node's recent error rate as one balancer sees it: a time-decayed share of its
 * attempts that did not succeed (errors, sheds, timeouts, resets). Both the failures and the
 * attempts decay by e^(−Δt/τ), so the rate is the failure share of roughly the last τ
 * seconds, however fast or slow the node answers; a node not heard from keeps its rate
 * until new outcomes replace it.
 *
 * <p>Source: issue 14 ("error-aware scoring: a penalty for recent errors"); the time-decayed
 * counters of Finagle's failure accrual and gRPC weighted round robin's error penalty.
 */
public final class ErrorTracker {
    /** Below this many (decayed) attempts a node's rate is taken as 0: too little to judge. */
    static final double MIN_WEIGHT = 1e-9;

    private final double decay;
    private double[] failures = new double[0];
    private double[] attempts = new double[0];
    private double[] stamp = new double[0];

    /** @param decay τ, seconds, &gt; 0 ({@code policy.error-decay}) */
    public ErrorTracker(double decay) {
        if (!(decay > 0)) {
            throw new IllegalArgumentException("policy.error-decay = " + decay + ": allowed > 0 s");
        }
        this.decay = decay;
    }

    /** Records an attempt at {@code node} that ended with {@code status} at {@code now}. */
    public void record(int node, ResponseStatus status, double now) {
        grow(node);
        age(node, now);
        attempts[node] += 1;
        if (!status.served()) {
            failures[node] += 1;
        }
    }

    /** The node's recent failure share, in [0, 1] (0 when nothing is known). */
    public double rate(int node) {
        if (node >= attempts.length || attempts[node] < MIN_WEIGHT) {
            return 0;
        }
        return failures[node] / attempts[node];
    }

    /** Forgets the node's history (a node that rejoined starts clean). */
    public void forget(int node) {
        if (node < attempts.length) {
            failures[node] = 0;
            attempts[node] = 0;
        }
    }

    private void age(int node, double now) {
        double dt = now - stamp[node];
        if (dt > 0) {
            double w = Math.exp(-dt / decay);
            failures[node] *= w;
            attempts[node] *= w;
        }
        stamp[node] = now;
    }

    private void grow(int node) {
        if (node >= attempts.length) {
            int n = Math.max(node + 1, attempts.length * 2);
            failures = java.util.Arrays.copyOf(failures, n);
            attempts = java.util.Arrays.copyOf(attempts, n);
            stamp = java.util.Arrays.copyOf(stamp, n);
        }
    }
}
