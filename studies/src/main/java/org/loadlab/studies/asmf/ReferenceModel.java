package org.loadlab.studies.asmf;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.random.RandomGenerator;
import org.hipparchus.random.RandomDataGenerator;
import org.loadlab.analysis.io.RunResult;
import org.loadlab.analysis.run.ResponseTimeHistogram;
import org.loadlab.analysis.run.RunMetrics;
import org.loadlab.analysis.run.SeriesPoint;
import org.loadlab.analysis.stats.JainFairness;
import org.loadlab.balancer.policy.AsmfSettings;
import org.loadlab.balancer.decision.Candidates;
import org.loadlab.balancer.pipeline.PipelinePolicy;
import org.loadlab.balancer.policy.PolicyCatalog;
import org.loadlab.balancer.policy.PolicyParameters;
import org.loadlab.node.backend.ResourceModel;
import org.loadlab.node.protocol.LoadSnapshot;
import org.loadlab.kernel.StreamSeeds;
import org.loadlab.experiment.run.RunSpec;
import org.loadlab.workload.demand.HipparchusRandomAdapter;
import org.loadlab.experiment.scenario.Scenario;

/**
 * The ASMF seed's own simulator (SPEC.md §4), offered as a node/time model so its
 * published numbers can be reproduced: time-stepped (dt = {@code reference.step}), queues
 * in work units, each node serving ⌊μ_j·dt⌋ units per step, resources regenerated every
 * step, the seed's feedback update with its unit mismatch, F frontends with allowed sets,
 * a fixed topology seed, and the seed's metric definitions. Its artefacts (work units,
 * one unit per step for μ &lt; 20, feedback units, failed nodes staying routable, gmsr
 * equal to least-queue) are kept on purpose; docs/asmf.md discusses them.
 *
 * <p>The selection rules are LoadLab's own policy classes (the same code as the
 * message-level model), fed with live snapshots — or, for the ASMF family, with each
 * node's snapshot cached at the last refresh of the stale interval, as in the seed.
 */
public final class ReferenceModel {
    private static final double BYTES_PER_UPDATE = 64;
    private static final double BYTES_PER_QUERY = 48;

    private ReferenceModel() {
    }

    /**
     * Runs {@code spec} (its scenario must have {@code model = reference}).
     *
     * @throws IllegalArgumentException if the scenario is not a reference-model scenario
     */
    public static RunResult run(RunSpec spec) {
        Scenario s = spec.scenario();
        if (!s.isReferenceModel()) {
            throw new IllegalArgumentException("scenario " + s.name() + " has model = " + s.model() + ", not reference");
        }
        return new Run(spec).execute();
    }

    /** One run's state; single-threaded. */
    private static final class Run {
        private final RunSpec spec;
        private final Scenario s;
        private final int n;
        private final double dt;
        private final double[] nominalMu;
        private final double[] mu;
        private final long[] q;
        private final double[] incoming;
        private final double[] correction;
        private final ResourceModel[] resources;
        private final LoadSnapshot[] cached;
        private final int[][] allowed;
        private final PipelinePolicy[] policies;
        private final Candidates candidates;
        private final int[] inFlight;
        private final boolean cachedView;
        private final boolean feedback;
        private final int fixedQueries;
        private final AsmfSettings asmf;
        private final Scenario.Asmf asmfSpec;
        private final RandomDataGenerator arrivals;
        private final RandomDataGenerator demand;
        private final RandomGenerator frontendRng;
        private final RandomGenerator policyRng;
        private final RandomGenerator noiseRng;
        private final double[] frontendCdf;
        private final boolean[] fired;

        private long jobs;
        private long accepted;
        private long rejected;
        private long completedUnits;
        private long decisions;
        private long queries;
        private long stateUpdates;
        private double bytes;
        private double waitArea;
        private double backlogArea;
        private double queueSum;
        private long maxClusterQueue;
        private final long[] nodeMax;
        private final long[] nodeJobs;
        private final double[] nodeBusy;
        private final List<Double> trace = new ArrayList<>();
        private final List<SeriesPoint> series = new ArrayList<>();

        Run(RunSpec spec) {
            this.spec = spec;
            this.s = spec.scenario();
            this.n = s.nodes().count();
            this.dt = s.reference().step();
            int f = s.balancers().count();
            RandomGenerator topo = StreamSeeds.stream(s.topologySeed(), StreamSeeds.TOPOLOGY, 100);
            nominalMu = new double[n];
            q = new long[n];
            for (int j = 0; j < n; j++) {
                nominalMu[j] = s.nodes().rateDistribution().equals("uniform")
                        ? s.nodes().rateMin() + (s.nodes().rateMax() - s.nodes().rateMin()) * topo.nextDouble()
                        : s.nodes().rateValue();
                q[j] = 1 + topo.nextInt(s.reference().initialQueueMax());
            }
            mu = nominalMu.clone();
            int size = s.balancers().allowedSize(n);
            allowed = new int[f][];
            for (int b = 0; b < f; b++) {
                allowed[b] = sample(topo, n, size);
            }
            incoming = new double[n];
            correction = new double[n];
            java.util.Arrays.fill(correction, 1.0);
            resources = new ResourceModel[n];
            noiseRng = StreamSeeds.stream(spec.seed(), StreamSeeds.NODE, 0);
            for (int j = 0; j < n; j++) {
                resources[j] = new ResourceModel(dt);
                resources[j].advance(0, (int) q[j], noiseRng);
            }
            cached = new LoadSnapshot[n];
            asmfSpec = s.policy().asmf();
            asmf = new AsmfSettings(asmfSpec.k(), asmfSpec.alpha(), asmfSpec.beta(), asmfSpec.gamma(), asmfSpec.delta(),
                    asmfSpec.tau(), true, true, true);
            String name = spec.policy();
            // In the seed, p2c samples the scenario's k (policy.k here), not always 2.
            String catalogName = name.equals("p2c") ? "power-of-k" : name;
            PolicyParameters params = new PolicyParameters(s.policy().k(), asmf);
            policies = new PipelinePolicy[f];
            for (int b = 0; b < f; b++) {
                policies[b] = PolicyCatalog.create(catalogName, params, nominalMu);
            }
            inFlight = new int[n];
            candidates = new Candidates(inFlight);
            cachedView = name.startsWith("asmf");
            feedback = PolicyCatalog.usesFeedback(name);
            // The seed counts one query for random and none is read by the other load-blind rules.
            fixedQueries = name.equals("random") ? 1 : 0;
            arrivals = RandomDataGenerator.of(new HipparchusRandomAdapter(StreamSeeds.stream(spec.seed(), StreamSeeds.ARRIVALS, 0)));
            demand = RandomDataGenerator.of(new HipparchusRandomAdapter(StreamSeeds.stream(spec.seed(), StreamSeeds.DEMAND, 0)));
            frontendRng = StreamSeeds.stream(spec.seed(), StreamSeeds.ARRIVALS, 1);
            policyRng = StreamSeeds.stream(spec.seed(), StreamSeeds.BALANCER, 0);
            frontendCdf = frontendCdf(f);
            fired = new boolean[s.events().size()];
            nodeMax = new long[n];
            nodeJobs = new long[n];
            nodeBusy = new double[n];
        }

        RunResult execute() {
            long steps = Math.round(s.duration() / dt);
            long staleSteps = Math.max(1, Math.round(s.information().reportPeriod() / dt));
            long traceSteps = Math.max(1, Math.round(1.0 / dt));
            double baseRate = s.arrivals().rate() * dt;
            long unitsAtLastPoint = 0;
            for (long step = 0; step < steps; step++) {
                double now = step * dt;
                fireEvents(now);
                if (step % staleSteps == 0) {
                    for (int j = 0; j < n; j++) {
                        cached[j] = snapshot(j, now);
                    }
                    stateUpdates += n;
                    bytes += BYTES_PER_UPDATE * n;
                }
                long queueAfterService = 0;
                for (int j = 0; j < n; j++) {
                    long capacity = (long) Math.floor(mu[j] * dt);
                    long served = Math.min(q[j], capacity);
                    q[j] -= served;
                    completedUnits += served;
                    nodeBusy[j] += capacity > 0 ? (double) served / capacity : 0;
                    resources[j].advance(now, (int) Math.min(Integer.MAX_VALUE, q[j]), noiseRng);
                    incoming[j] *= 0.5;
                    if (feedback) {
                        double delta = incoming[j] - served / dt;
                        correction[j] = Math.max(asmfSpec.cMin(), Math.min(asmfSpec.cMax(), correction[j] - asmfSpec.eta() * delta));
                    }
                    queueAfterService += q[j];
                }
                waitArea += queueAfterService * dt;
                long arriving = arrivals.nextPoisson(baseRate * rateFactor(now));
                for (long a = 0; a < arriving; a++) {
                    route(now);
                }
                long total = 0;
                for (int j = 0; j < n; j++) {
                    total += q[j];
                    nodeMax[j] = Math.max(nodeMax[j], q[j]);
                }
                backlogArea += total * dt;
                queueSum += total;
                maxClusterQueue = Math.max(maxClusterQueue, total);
                if ((step + 1) % traceSteps == 0) {
                    double meanQueue = (double) total / n;
                    trace.add(meanQueue);
                    long maxNode = 0;
                    for (long x : q) {
                        maxNode = Math.max(maxNode, x);
                    }
                    series.add(new SeriesPoint((step + 1) * dt, meanQueue, (int) Math.min(Integer.MAX_VALUE, maxNode),
                            (completedUnits - unitsAtLastPoint) / (traceSteps * dt)));
                    unitsAtLastPoint = completedUnits;
                }
            }
            return new RunResult(s.name(), spec.policy(), spec.seed(), metrics(steps * dt, steps));
        }

        private void route(double now) {
            jobs++;
            int b = pickFrontend();
            int[] nodes = allowed[b];
            PipelinePolicy policy = policies[b];
            int reads = policy.reads(nodes.length);
            int chosen;
            decisions++;
            if (reads == 0) {
                queries += fixedQueries;
                chosen = policy.choose(candidates.reset(nodes, null, null, nodes.length), policyRng);
                chosen = chosen < 0 ? -1 : nodes[chosen];
            } else {
                int[] sampled = reads == nodes.length ? nodes : sample(policyRng, nodes, reads);
                LoadSnapshot[] loads = new LoadSnapshot[reads];
                for (int i = 0; i < reads; i++) {
                    loads[i] = cachedView ? cached[sampled[i]] : snapshot(sampled[i], now);
                }
                queries += reads;
                int pos = policy.choose(candidates.reset(sampled, loads, null, reads), policyRng);
                chosen = pos < 0 ? -1 : sampled[pos];
            }
            bytes += BYTES_PER_QUERY * (reads == 0 ? fixedQueries : reads);
            if (chosen < 0) {
                rejected++;
                return;
            }
            double d = Math.max(0.1, demand.nextExponential(s.demand().mean()));
            q[chosen] += Math.max(1, (long) Math.ceil(d));
            incoming[chosen] += 1;
            accepted++;
            nodeJobs[chosen]++;
        }

        private LoadSnapshot snapshot(int j, double now) {
            ResourceModel r = resources[j];
            return new LoadSnapshot(j, (int) Math.min(Integer.MAX_VALUE, q[j]), 0, mu[j], r.cpu(), r.mem(), r.io(), r.net(),
                    correction[j], now, true);
        }

        private void fireEvents(double now) {
            List<Scenario.Event> events = s.events();
            for (int i = 0; i < events.size(); i++) {
                Scenario.Event e = events.get(i);
                if (fired[i] || e.at() > now + 1e-9 || e.type().equals("spike")) {
                    continue;
                }
                fired[i] = true;
                for (int j : e.nodes()) {
                    switch (e.type()) {
                        case "fail" -> mu[j] = 0; // the seed's failed nodes stay routable
                        case "recover" -> mu[j] = nominalMu[j];
                        case "degrade" -> mu[j] = nominalMu[j] * e.factor();
                        default -> { }
                    }
                }
            }
        }

        /** The seed's rate modulation: on-off square wave of the base rate, and spikes. */
        private double rateFactor(double now) {
            double factor = 1;
            if (s.arrivals().process().equals("on-off")) {
                Scenario.OnOff o = s.arrivals().onOff();
                double phase = now - Math.floor(now / o.period()) * o.period();
                factor = phase < o.duty() * o.period() - 1e-9 ? o.highFactor() : o.lowFactor();
            }
            for (Scenario.Event e : s.events()) {
                if (e.type().equals("spike") && now >= e.at() - 1e-9 && now < e.until() - 1e-9) {
                    factor *= e.factor();
                }
            }
            return factor;
        }

        private double[] frontendCdf(int f) {
            double[] w = new double[f];
            double sum = 0;
            for (int i = 0; i < f; i++) {
                w[i] = s.balancers().split().equals("zipf") ? 1.0 / Math.pow(i + 1, s.balancers().zipfExponent()) : 1.0;
                sum += w[i];
            }
            double acc = 0;
            for (int i = 0; i < f; i++) {
                acc += w[i] / sum;
                w[i] = acc;
            }
            w[f - 1] = 1.0;
            return w;
        }

        private int pickFrontend() {
            double u = frontendRng.nextDouble();
            for (int i = 0; i < frontendCdf.length; i++) {
                if (u < frontendCdf[i]) {
                    return i;
                }
            }
            return frontendCdf.length - 1;
        }

        private RunMetrics metrics(double duration, long steps) {
            TreeMap<String, Double> extras = new TreeMap<>();
            double throughput = jobs == 0 ? Double.NaN : (double) completedUnits / jobs;
            double avgWait = completedUnits == 0 ? Double.NaN : waitArea / completedUnits;
            extras.put("throughput", throughput);
            extras.put("avg_wait_time", avgWait);
            extras.put("backlog_area", backlogArea);
            extras.put("max_queue_observed", (double) maxClusterQueue);
            extras.put("queries_per_decision", decisions == 0 ? Double.NaN : (double) queries / decisions);
            extras.put("state_updates_sent", (double) stateUpdates);
            extras.put("bytes_transferred_est", bytes);
            TraceStatistics t = TraceStatistics.of(trace);
            extras.put("convergence_time_ms", t.convergenceMillis());
            extras.put("mean_queue_variance", t.variance());
            extras.put("oscillation_index", t.oscillation());
            List<Double> share = new ArrayList<>();
            List<Double> utilisation = new ArrayList<>();
            List<Integer> nodeMaxList = new ArrayList<>();
            double[] rho = new double[n];
            long maxNode = 0;
            for (int j = 0; j < n; j++) {
                share.add(accepted == 0 ? Double.NaN : (double) nodeJobs[j] / accepted);
                rho[j] = nodeBusy[j] / steps;
                utilisation.add(rho[j]);
                nodeMaxList.add((int) Math.min(Integer.MAX_VALUE, nodeMax[j]));
                maxNode = Math.max(maxNode, nodeMax[j]);
            }
            return new RunMetrics(jobs, accepted, rejected, 0, duration, completedUnits / duration,
                    Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN,
                    avgWait, backlogArea, queueSum / steps / n, (int) Math.min(Integer.MAX_VALUE, maxNode), maxClusterQueue,
                    decisions, decisions == 0 ? Double.NaN : (double) queries / decisions, new TreeMap<>(), 0, (long) bytes,
                    stateUpdates, share, utilisation, nodeMaxList, JainFairness.of(rho), Double.NaN, series,
                    ResponseTimeHistogram.empty().encode(), new TreeMap<>(Map.of("jobs_rejected", rejected)), extras);
        }

        /** k distinct indices of [0, n) (partial Fisher–Yates), sorted. */
        private static int[] sample(RandomGenerator rng, int n, int k) {
            int[] all = new int[n];
            for (int i = 0; i < n; i++) {
                all[i] = i;
            }
            return sample(rng, all, k);
        }

        private static int[] sample(RandomGenerator rng, int[] from, int k) {
            int[] a = from.clone();
            for (int i = 0; i < k; i++) {
                int j = i + rng.nextInt(a.length - i);
                int t = a[i];
                a[i] = a[j];
                a[j] = t;
            }
            int[] out = java.util.Arrays.copyOf(a, k);
            java.util.Arrays.sort(out);
            return out;
        }
    }
}
