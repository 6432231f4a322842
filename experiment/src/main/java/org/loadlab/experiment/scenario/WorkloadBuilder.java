package org.loadlab.experiment.scenario;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.random.RandomGenerator;
import org.loadlab.kernel.StreamSeeds;
import org.loadlab.workload.arrival.ArrivalProcess;
import org.loadlab.workload.arrival.ConstantRate;
import org.loadlab.workload.arrival.DiurnalRate;
import org.loadlab.workload.arrival.LimitedArrivals;
import org.loadlab.workload.arrival.MmppArrivals;
import org.loadlab.workload.arrival.NonHomogeneousPoissonArrivals;
import org.loadlab.workload.arrival.PoissonArrivals;
import org.loadlab.workload.arrival.RateFunction;
import org.loadlab.workload.arrival.SpikeRate;
import org.loadlab.workload.arrival.SquareWaveRate;
import org.loadlab.workload.arrival.TraceArrivals;
import org.loadlab.workload.demand.DemandDistribution;
import org.loadlab.workload.demand.DeterministicDemand;
import org.loadlab.workload.demand.ExponentialDemand;
import org.loadlab.workload.demand.LogNormalDemand;
import org.loadlab.workload.demand.MixtureDemand;
import org.loadlab.workload.demand.ParetoDemand;
import org.loadlab.workload.demand.ScaledDemand;
import org.loadlab.workload.split.BalancerSplit;
import org.loadlab.workload.trace.TokenDemandModel;
import org.loadlab.workload.trace.Trace;
import org.loadlab.workload.trace.TraceReader;

/**
 * Turns a validated scenario into the workload of one run: the arrival process, the
 * demand distribution and the split of arrivals over balancers, each on its own random
 * stream derived from the run seed (arrivals, demand, split), so a policy change never
 * changes the workload.
 *
 * <p>The arrival rate is λ = ρ·C/E[D] for target utilisation ρ and cluster capacity
 * C = Σ c·μ_j (unless {@code arrivals.rate} sets λ). Modulated processes (on-off, mmpp,
 * diurnal) are normalised so their long-run mean is λ; a spike event multiplies λ on
 * top. A trace is replayed compressed in time so its mean rate is λ.
 */
public final class WorkloadBuilder {
    private static final Map<String, Trace> TRACE_CACHE = new ConcurrentHashMap<>();

    private WorkloadBuilder() {
    }

    /**
     * The workload of one run.
     *
     * @param arrivals arrival instants (ends with +∞)
     * @param demand demand of arrivals that carry none
     * @param split balancer chooser
     * @param arrivalRate λ, requests/s (long-run mean, before spikes)
     * @param offeredUtilisation ρ = λ·E[D]/C
     */
    public record Workload(ArrivalProcess arrivals, DemandDistribution demand, BalancerSplit split,
                           double arrivalRate, double offeredUtilisation) {
    }

    /**
     * Builds the workload of {@code scenario} for run seed {@code seed}.
     *
     * @param capacity cluster capacity C = Σ c·μ_j in work units/s (from the drawn topology)
     * @throws IllegalArgumentException if the combination cannot be built (e.g. a spike on a trace)
     */
    public static Workload build(Scenario scenario, double capacity, long seed) {
        RandomGenerator arrivalRng = StreamSeeds.stream(seed, StreamSeeds.ARRIVALS, 0);
        RandomGenerator demandRng = StreamSeeds.stream(seed, StreamSeeds.DEMAND, 0);
        RandomGenerator splitRng = StreamSeeds.stream(seed, StreamSeeds.ARRIVALS, 1);
        Scenario.Arrivals a = scenario.arrivals();
        Scenario.Demand d = scenario.demand();
        double meanDemand = d.mean();
        double lambda = a.rate() > 0 ? a.rate() : a.utilisation() * capacity / meanDemand;
        DemandDistribution demand = d.distribution().equals("trace") ? new DeterministicDemand(meanDemand) : demand(d, demandRng);

        ArrivalProcess process = switch (a.process()) {
            case "trace" -> trace(scenario, lambda);
            case "mmpp" -> mmpp(a.mmpp(), lambda, arrivalRng);
            default -> rateDriven(scenario, lambda, arrivalRng);
        };
        if (!a.process().equals("trace") || scenario.duration() > 0 || scenario.requests() > 0) {
            double end = scenario.duration() > 0 ? scenario.duration() : Double.POSITIVE_INFINITY;
            long max = scenario.requests() > 0 ? scenario.requests() : Long.MAX_VALUE;
            process = new LimitedArrivals(process, max, end);
        }
        int b = scenario.balancers().count();
        BalancerSplit split = scenario.balancers().split().equals("zipf")
                ? BalancerSplit.zipf(b, scenario.balancers().zipfExponent(), splitRng)
                : BalancerSplit.uniform(b, splitRng);
        return new Workload(process, demand, split, lambda, lambda * meanDemand / capacity);
    }

    private static ArrivalProcess rateDriven(Scenario scenario, double lambda, RandomGenerator rng) {
        Scenario.Arrivals a = scenario.arrivals();
        if (a.process().equals("periodic")) {
            return new org.loadlab.workload.arrival.PeriodicArrivals(lambda); // seed 003's load generator: evenly spaced
        }
        List<Scenario.Event> spikes = scenario.events().stream().filter(e -> e.type().equals("spike")).toList();
        if (spikes.isEmpty() && a.process().equals("poisson")) {
            return new PoissonArrivals(lambda, rng);
        }
        RateFunction rate = rate(scenario, lambda);
        for (Scenario.Event s : spikes) {
            rate = new SpikeRate(rate, s.at(), s.until(), s.factor());
        }
        return new NonHomogeneousPoissonArrivals(rate, rng);
    }

    /**
     * The rate function λ(t) of a rate-driven process before spikes: constant, the on-off
     * square wave or the diurnal rate (its period per {@link #diurnalPeriod}, its burst
     * windows evenly spaced or at {@code burst-starts}), normalised to mean {@code lambda}.
     *
     * @param scenario the scenario (a rate-driven process: poisson, on-off or diurnal)
     * @param lambda the run's mean arrival rate, requests/s
     * @return the rate function
     * @throws IllegalArgumentException if the diurnal period comes out 0 (period 0 without a duration)
     */
    public static RateFunction rate(Scenario scenario, double lambda) {
        Scenario.Arrivals a = scenario.arrivals();
        return switch (a.process()) {
            case "on-off" -> {
                Scenario.OnOff o = a.onOff();
                double norm = new SquareWaveRate(1, o.highFactor(), o.lowFactor(), o.period(), o.duty(), true).meanRate();
                yield new SquareWaveRate(lambda / norm, o.highFactor(), o.lowFactor(), o.period(), o.duty(), true);
            }
            case "diurnal" -> {
                Scenario.Diurnal dn = a.diurnal();
                double period = diurnalPeriod(scenario, lambda);
                if (!(period > 0)) {
                    throw new IllegalArgumentException("arrivals.diurnal.period = 0 needs a duration > 0 to stand in for it");
                }
                double[] windows = dn.burstStarts().isEmpty() ? DiurnalRate.evenWindows(dn.burstWindows(), dn.burstWidth())
                        : dn.burstStarts().stream().mapToDouble(Double::doubleValue).toArray();
                double norm = new DiurnalRate(1, dn.amplitude(), period, windows, dn.burstWidth(), dn.burstFactor()).meanRate();
                yield new DiurnalRate(lambda / norm, dn.amplitude(), period, windows, dn.burstWidth(), dn.burstFactor());
            }
            default -> new ConstantRate(lambda);
        };
    }

    /**
     * The diurnal period of a run, seconds: {@code arrivals.diurnal.period}, the duration when
     * it is 0, or with {@code period = horizon} the request horizon H = requests / λ̄ (SPEC.md
     * §5: the time the run's requests take at the mean rate, which follows the run's capacity).
     *
     * @param scenario the scenario
     * @param lambda the run's mean arrival rate λ̄, requests/s
     */
    public static double diurnalPeriod(Scenario scenario, double lambda) {
        Scenario.Diurnal dn = scenario.arrivals().diurnal();
        if (dn.periodIsHorizon()) {
            return scenario.requests() / lambda;
        }
        return dn.period() > 0 ? dn.period() : scenario.duration();
    }

    /**
     * Where the measurement window of a run starts, seconds: {@code warmup}, or with
     * {@code warmup-requests = N} the arrival instant of request N + 1 if that is later. The
     * instant is found by drawing the run's arrival stream ahead (it depends only on the run
     * seed), so the window is known before the run starts and every shell uses the same one.
     *
     * @param scenario the scenario
     * @param capacity cluster capacity C = Σ c·μ_j of the run, work units/s
     * @param seed the run seed
     * @return the warm-up end, seconds, ≥ 0
     * @throws IllegalArgumentException if fewer than N + 1 requests arrive in the run (naming both)
     */
    public static double warmupEnd(Scenario scenario, double capacity, long seed) {
        long n = scenario.warmupRequests();
        if (n == 0) {
            return scenario.warmup();
        }
        ArrivalProcess arrivals = build(scenario, capacity, seed).arrivals();
        double t = Double.NaN;
        for (long i = 0; i <= n; i++) {
            t = arrivals.next();
        }
        if (t == Double.POSITIVE_INFINITY) {
            throw new IllegalArgumentException("warmup-requests = " + n + ": the run's arrivals end before request " + (n + 1)
                    + "; use fewer warm-up requests or a longer duration");
        }
        return Math.max(scenario.warmup(), t);
    }

    private static ArrivalProcess mmpp(Scenario.Mmpp m, double lambda, RandomGenerator rng) {
        double pOn = m.meanOn() / (m.meanOn() + m.meanOff());
        double norm = m.highFactor() * pOn + m.lowFactor() * (1 - pOn);
        double base = lambda / norm;
        return new MmppArrivals(base * m.highFactor(), base * m.lowFactor(), m.meanOn(), m.meanOff(), true, rng);
    }

    private static ArrivalProcess trace(Scenario scenario, double lambda) {
        Trace trace = loadTrace(scenario.arrivals().trace().file());
        double compression = lambda / trace.meanRate();
        Scenario.Demand d = scenario.demand();
        if (d.distribution().equals("trace")) {
            TokenDemandModel model = new TokenDemandModel(d.prefillSecondsPerToken(), d.decodeSecondsPerToken(), d.mean());
            return new TraceArrivals(trace, compression, scenario.arrivals().trace().loop(), model);
        }
        return new TraceArrivals(trace, compression, scenario.arrivals().trace().loop());
    }

    /** Reads (once per JVM) the trace at a path or {@code classpath:} resource. */
    public static Trace loadTrace(String file) {
        return TRACE_CACHE.computeIfAbsent(file, f -> f.startsWith("classpath:")
                ? TraceReader.readResource(f.substring("classpath:".length()))
                : TraceReader.read(Path.of(f)));
    }

    /**
     * The demand distribution of a (non-trace) demand block, scaled to its mean. A mixture
     * scales each component to its own mean ({@code mixture-scaling = components}), or mixes
     * the components in their standard form and scales the mixture
     * ({@code mixture-scaling = mixture}, SPEC.md §5; for seed 001's components this is
     * exactly {@link org.loadlab.workload.demand.SizeMixes#seed001}, draw for draw).
     *
     * @param d a validated demand block other than {@code trace}
     * @param rng the run's demand stream
     * @return the distribution, mean {@code d.mean()}
     */
    public static DemandDistribution demand(Scenario.Demand d, RandomGenerator rng) {
        return switch (d.distribution()) {
            case "deterministic" -> new DeterministicDemand(d.mean());
            case "lognormal" -> new LogNormalDemand(d.mean(), d.sigma(), rng);
            case "pareto" -> new ParetoDemand(d.alpha(), d.mean(), rng);
            case "mixture" -> {
                double[] w = new double[d.components().size()];
                DemandDistribution[] parts = new DemandDistribution[w.length];
                for (int i = 0; i < w.length; i++) {
                    w[i] = d.components().get(i).weight();
                    Scenario.Demand c = d.components().get(i).demand();
                    parts[i] = demand(d.scalesMixture() ? standardForm(c) : c, rng);
                }
                yield ScaledDemand.toMean(new MixtureDemand(w, parts, rng), d.mean());
            }
            default -> new ExponentialDemand(d.mean(), rng);
        };
    }

    /**
     * A component in its standard form: exponential and deterministic with mean 1, log-normal
     * exp(N(0, σ²)) (mean e^{σ²/2}), Pareto with x_m = 1 (mean α/(α − 1)).
     */
    static Scenario.Demand standardForm(Scenario.Demand c) {
        double mean = switch (c.distribution()) {
            case "lognormal" -> org.loadlab.workload.demand.SizeMixes.standardLogNormalMean(c.sigma());
            case "pareto" -> org.loadlab.workload.demand.SizeMixes.standardParetoMean(c.alpha());
            default -> 1.0;
        };
        return new Scenario.Demand(c.distribution(), mean, c.sigma(), c.alpha(), c.components(),
                c.prefillSecondsPerToken(), c.decodeSecondsPerToken(), c.mixtureScaling());
    }
}
