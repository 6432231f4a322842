package org.loadlab.studies.asmf;

import java.util.List;
import org.loadlab.experiment.scenario.Scenario;

/**
 * A reference-model scenario in the ASMF seed's own terms (SPEC.md §4): its clock in integer
 * milliseconds, the arrival intensity of each step, the frontend split, and every draw the
 * simulator generator makes — failure targets, resource noise, Poisson counts, frontends and
 * job sizes. None of these draws depends on the routing, so {@link #skipRun} can advance a
 * shared generator past a whole run of another policy without simulating it.
 */
final class SeedWorkload {
    /** 32-bit words of the noise draws per backend and step: U(−0.05, 0.05) for cpu, mem, io and net, two words each. */
    static final int NOISE_WORDS = 8;

    final int backends;
    final int frontends;
    final long stepMs;
    final long durationMs;
    final long staleMs;
    final long traceMs;
    /** Steps of a run: now = 0, stepMs, ... while now &lt; durationMs. */
    final int steps;
    /** dt in seconds, as the seed computes it: time_step_ms / 1000.0. */
    final double dtSeconds;
    /** 1 / mean of the job size, the rate the seed passes to expovariate. */
    final double sizeRate;
    final List<Scenario.Event> events;
    final long[] eventAtMs;
    private final double lambdaPerStep;
    private final boolean onOff;
    private final long onOffPeriodMs;
    private final long onOffOnMs;
    private final double highFactor;
    private final double lowFactor;
    private final long[] spikeFromMs;
    private final long[] spikeUntilMs;
    private final double[] spikeFactor;
    /** Running sums of the Zipf weights 1/(i+1)^α, in the seed's order; null for a uniform split. */
    private final double[] zipfCumulative;

    SeedWorkload(Scenario s) {
        backends = s.nodes().count();
        frontends = s.balancers().count();
        stepMs = Math.round(s.reference().step() * 1000);
        durationMs = Math.round(s.duration() * 1000);
        staleMs = Math.max(1, Math.round(s.information().reportPeriod() * 1000));
        traceMs = Math.max(Math.round(s.seriesInterval() * 1000), stepMs);
        steps = (int) ((durationMs + stepMs - 1) / stepMs);
        dtSeconds = stepMs / 1000.0;
        sizeRate = 1.0 / s.demand().mean();
        // λ per step as the exact product of a rate in jobs/s and a step in whole ms.
        lambdaPerStep = s.arrivals().rate() * stepMs / 1000.0;
        onOff = s.arrivals().process().equals("on-off");
        Scenario.OnOff o = s.arrivals().onOff();
        onOffPeriodMs = Math.max(1, Math.round(o.period() * 1000));
        onOffOnMs = Math.round(o.duty() * o.period() * 1000);
        highFactor = o.highFactor();
        lowFactor = o.lowFactor();
        events = s.events();
        eventAtMs = new long[events.size()];
        for (int i = 0; i < eventAtMs.length; i++) {
            eventAtMs[i] = Math.round(events.get(i).at() * 1000);
        }
        List<Scenario.Event> spikes = events.stream().filter(e -> e.type().equals("spike")).toList();
        spikeFromMs = spikes.stream().mapToLong(e -> Math.round(e.at() * 1000)).toArray();
        spikeUntilMs = spikes.stream().mapToLong(e -> Math.round(e.until() * 1000)).toArray();
        spikeFactor = spikes.stream().mapToDouble(Scenario.Event::factor).toArray();
        if (s.balancers().split().equals("zipf")) {
            zipfCumulative = new double[frontends];
            double alpha = Math.max(s.balancers().zipfExponent(), 0.1);
            double acc = 0.0;
            for (int i = 0; i < frontends; i++) {
                acc += 1.0 / Math.pow(i + 1, alpha);
                zipfCumulative[i] = acc;
            }
        } else {
            zipfCumulative = null;
        }
    }

    /** The seed's Poisson mean of the step at {@code nowMs}: λ × square-wave factor × spike factors. */
    double lambdaAt(long nowMs) {
        double lam = lambdaPerStep;
        if (onOff) {
            lam *= nowMs % onOffPeriodMs < onOffOnMs ? highFactor : lowFactor;
        }
        for (int i = 0; i < spikeFactor.length; i++) {
            if (spikeFromMs[i] <= nowMs && nowMs < spikeUntilMs[i]) {
                lam *= spikeFactor[i];
            }
        }
        return lam;
    }

    /** The seed's arrival count: Knuth's method, count + 1 uniforms multiplied until ≤ e^(−λ). */
    static int poisson(PythonRandom sim, double lam) {
        double l = Math.exp(-Math.max(lam, 0.0));
        int k = 0;
        double p = 1.0;
        while (p > l) {
            k++;
            p *= sim.nextDouble();
        }
        return k - 1;
    }

    /** A job's frontend: a uniform choice, or for Zipf the first cumulative weight ≥ U × total. */
    int frontend(PythonRandom sim) {
        if (zipfCumulative == null) {
            return sim.choiceIndex(frontends);
        }
        double r = sim.nextDouble() * zipfCumulative[frontends - 1];
        for (int i = 0; i < frontends; i++) {
            if (zipfCumulative[i] >= r) {
                return i;
            }
        }
        return frontends - 1;
    }

    /** A job's size: max(0.1, Exp(mean)), drawn for every job, rejected ones included. */
    double size(PythonRandom sim) {
        return Math.max(0.1, sim.expovariate(sizeRate));
    }

    /**
     * The seed's failure draw: ⌊live·fraction⌋ (at least 1) of the backends not yet failed,
     * listed in backend order, sampled without replacement by the simulator generator.
     *
     * @param failed backends already failed (not changed here)
     * @param out receives the targets
     * @return the number of targets
     */
    static int failureTargets(PythonRandom sim, double fraction, boolean[] failed, int[] out) {
        int[] live = new int[failed.length];
        int n = 0;
        for (int j = 0; j < failed.length; j++) {
            if (!failed[j]) {
                live[n++] = j;
            }
        }
        int k = Math.min(Math.max(1, (int) (n * fraction)), n);
        sim.sample(live, n, k, out, new int[n]);
        return k;
    }

    /**
     * Advances {@code sim} by exactly the draws one run makes, whatever its policy: what a
     * generator shared across the seed's policies has consumed after that run.
     */
    void skipRun(PythonRandom sim) {
        boolean[] fired = new boolean[events.size()];
        boolean[] failed = new boolean[backends];
        int[] targets = new int[backends];
        for (int step = 0; step < steps; step++) {
            long now = step * stepMs;
            for (int i = 0; i < fired.length; i++) {
                Scenario.Event e = events.get(i);
                if (!fired[i] && now >= eventAtMs[i] && !e.type().equals("spike")) {
                    fired[i] = true;
                    if (e.type().equals("fail") && e.fraction() > 0) {
                        int k = failureTargets(sim, e.fraction(), failed, targets);
                        for (int t = 0; t < k; t++) {
                            failed[targets[t]] = true;
                        }
                    } else if (e.type().equals("fail")) {
                        e.nodes().forEach(j -> failed[j] = true);
                    } else if (e.type().equals("recover")) {
                        e.nodes().forEach(j -> failed[j] = false);
                    }
                }
            }
            sim.skip((long) NOISE_WORDS * backends);
            int jobs = poisson(sim, lambdaAt(now));
            for (int a = 0; a < jobs; a++) {
                frontend(sim);
                sim.nextDouble(); // the job's size
            }
        }
    }
}
