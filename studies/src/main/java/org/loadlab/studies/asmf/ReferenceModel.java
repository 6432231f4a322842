package org.loadlab.studies.asmf;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.loadlab.analysis.io.RunResult;
import org.loadlab.analysis.run.ResponseTimeHistogram;
import org.loadlab.analysis.run.RunMetrics;
import org.loadlab.analysis.run.SeriesPoint;
import org.loadlab.analysis.stats.JainFairness;
import org.loadlab.experiment.run.NodeInspection;
import org.loadlab.experiment.run.RunSpec;
import org.loadlab.node.protocol.LoadSnapshot;
import org.loadlab.experiment.scenario.Scenario;

/**
 * The ASMF seed's own simulator ({@code LoadBalancingSimulator} and {@code ASMFEngine} in
 * the seed's {@code simulator.py} and {@code engine.py}; SPEC.md §4), offered as a node/time
 * model so that its published numbers reproduce bit for bit: the same topology
 * ({@link SeedTopology}), the same random numbers ({@link PythonRandom}, one simulator and
 * one engine generator seeded with the run seed), the same draw order, step order,
 * selection rules ({@link SeedPolicy}), floating-point expressions and summation order.
 *
 * <p>Each step of dt (integer ms): scripted events; every stale interval the score cache
 * S·C of every backend (state updates += B, bytes += 64·B); service of ⌊μ·dt⌋ units per
 * backend, its resources redrawn from pressure min(1, q/80) plus U(−0.05, 0.05) noise, its
 * incoming count halved and (ASMF policies) its correction updated,
 * C ← clip(C − η·(incoming − served/dt)); the step's Poisson count of jobs, each with a
 * frontend and a size, routed or rejected; then the bookkeeping and, every trace interval,
 * a trace point of the mean queue. The seed's artefacts (work units, one unit per step for
 * μ &lt; 20, the feedback's unit mismatch, failed backends that stay routable, gmsr equal to
 * least-queue) are kept on purpose; docs/asmf.md discusses them.
 *
 * <p>Generator lifetime ({@code reference.simulator-generator}): {@code fresh} seeds a new
 * simulator generator for every run; {@code shared} first advances it past the runs of the
 * policies before this one in the seed's order ({@link SeedWorkload#skipRun}), which gives
 * the numbers of the seed's {@code run_rigorous_testing}.
 *
 * <p>A run allocates its arrays once; the step loop works on primitives and allocates
 * nothing.
 */
public final class ReferenceModel {
    private static final long BYTES_PER_UPDATE = 64;
    private static final long BYTES_PER_QUERY = 48;
    /** Queue length at which the seed's resource pressure saturates, work units. */
    private static final double PRESSURE_QUEUE = 80.0;
    /** The seed's floor of a score's denominator. */
    private static final double MIN_DENOMINATOR = 1e-8;

    private ReferenceModel() {
    }

    /**
     * Runs {@code spec} (its scenario must have {@code model = reference}).
     *
     * @throws IllegalArgumentException if the scenario is not a reference-model scenario or
     *     the policy is not one of the seed's ({@link Scenario.Reference#POLICIES})
     */
    public static RunResult run(RunSpec spec) {
        return run(spec, new ArrayList<>());
    }

    /**
     * Runs {@code spec} and adds each backend's state at the end of the run to {@code nodes}:
     * μ_j, q_j (work units), C_j; CPU/MEM/IO/NET and the cached score S'_j only for the
     * policies that read the score cache (the others never update them: NaN).
     *
     * @param nodes where the backends' states go, in backend order
     * @throws IllegalArgumentException as {@link #run(RunSpec)}
     */
    public static RunResult run(RunSpec spec, List<NodeInspection> nodes) {
        Scenario s = spec.scenario();
        if (!s.isReferenceModel()) {
            throw new IllegalArgumentException("scenario " + s.name() + " has model = " + s.model() + ", not reference");
        }
        SeedPolicy policy = SeedPolicy.of(spec.policy());
        SeedWorkload workload = new SeedWorkload(s);
        PythonRandom simulator = new PythonRandom(spec.seed());
        if (s.reference().sharedGenerator()) {
            for (int before = 0; before < policy.ordinal(); before++) {
                workload.skipRun(simulator);
            }
        }
        Run run = new Run(spec, policy, workload, SeedTopology.draw(s), simulator);
        RunResult result = run.execute();
        run.inspect(nodes);
        return result;
    }

    /** One run's state; single-threaded. */
    private static final class Run {
        private final RunSpec spec;
        private final SeedPolicy policy;
        private final SeedWorkload w;
        private final SeedTopology topology;
        private final PythonRandom sim;
        private final PythonRandom engine;
        private final int n;
        private final double dt;
        // Per backend.
        private final long[] q;
        private final double[] mu;
        private final long[] capacity;
        private final double[] cpu;
        private final double[] mem;
        private final double[] io;
        private final double[] net;
        private final double[] incoming;
        private final double[] correction;
        private final double[] cache;
        private final boolean[] failed;
        // ASMF parameters.
        private final int sampleK;
        private final int p2cK;
        private final double alpha;
        private final double beta;
        private final double gamma;
        private final double delta;
        private final double tau;
        private final double eta;
        private final double cMin;
        private final double cMax;
        // Scratch of the engine's draws.
        private final int[] candidates;
        private final int[] pool;
        // The seed's metrics.
        private long jobs;
        private long rejected;
        private long completedUnits;
        private long queries;
        private long stateUpdates;
        private long bytes;
        private double waitTotal;
        private double backlogArea;
        private long maxClusterQueue;
        private final double[] trace;
        private final long[] traceTimeMs;
        private int tracePoints;
        // LoadLab's per-node and series views of the same run.
        private long queueSum;
        private final long[] nodeMax;
        private final long[] nodeJobs;
        private final double[] nodeBusy;
        private final int[] traceMaxNode;
        private final long[] traceUnits;

        Run(RunSpec spec, SeedPolicy policy, SeedWorkload workload, SeedTopology topology, PythonRandom simulator) {
            this.spec = spec;
            this.policy = policy;
            this.w = workload;
            this.topology = topology;
            this.sim = simulator;
            this.engine = new PythonRandom(spec.seed());
            Scenario s = spec.scenario();
            n = w.backends;
            dt = w.dtSeconds;
            q = topology.initialQueue().clone();
            mu = topology.mu().clone();
            capacity = new long[n];
            updateCapacities();
            cpu = topology.cpu().clone();
            mem = topology.mem().clone();
            io = topology.io().clone();
            net = topology.net().clone();
            incoming = new double[n];
            correction = new double[n];
            java.util.Arrays.fill(correction, 1.0);
            cache = new double[n];
            failed = new boolean[n];
            Scenario.Asmf a = s.policy().asmf();
            sampleK = a.k();
            p2cK = s.policy().k();
            alpha = a.alpha();
            beta = a.beta();
            gamma = a.gamma();
            delta = a.delta();
            tau = a.tau();
            eta = a.eta();
            cMin = a.cMin();
            cMax = a.cMax();
            int allowedSize = topology.allowed().length == 0 ? 0 : topology.allowed()[0].length;
            candidates = new int[Math.max(Math.max(sampleK, p2cK), 1)];
            pool = new int[Math.max(allowedSize, 1)];
            int points = (int) ((w.steps - 1) * w.stepMs / w.traceMs + 1);
            trace = new double[points];
            traceTimeMs = new long[points];
            traceMaxNode = new int[points];
            traceUnits = new long[points];
            nodeMax = new long[n];
            nodeJobs = new long[n];
            nodeBusy = new double[n];
        }

        RunResult execute() {
            boolean[] fired = new boolean[w.events.size()];
            for (int step = 0; step < w.steps; step++) {
                long now = step * w.stepMs;
                fireEvents(now, fired);
                if (now % w.staleMs == 0) {
                    if (policy.readsCache()) {
                        refreshCache();
                    }
                    stateUpdates += n;
                    bytes += BYTES_PER_UPDATE * n;
                }
                long queued = serve(step, now) + arrive(now);
                backlogArea += queued * dt;
                maxClusterQueue = Math.max(maxClusterQueue, queued);
                queueSum += queued;
                if (now % w.traceMs == 0) {
                    addTracePoint(now, queued);
                }
            }
            for (int j = 0; j < n; j++) {
                nodeMax[j] = Math.max(nodeMax[j], q[j]);
            }
            return new RunResult(spec.scenario().name(), spec.policy(), spec.seed(), metrics());
        }

        /** Each backend's state after the last step, for nodes.csv. */
        void inspect(List<NodeInspection> nodes) {
            boolean reads = policy.readsCache();
            double end = w.steps * dt;
            for (int j = 0; j < n; j++) {
                LoadSnapshot snapshot = new LoadSnapshot(j, (int) Math.min(Integer.MAX_VALUE, q[j]), 0, mu[j],
                        reads ? cpu[j] : Double.NaN, reads ? mem[j] : Double.NaN, reads ? io[j] : Double.NaN,
                        reads ? net[j] : Double.NaN, correction[j], end, !failed[j]);
                nodes.add(new NodeInspection(j, snapshot, reads ? cache[j] : Double.NaN));
            }
        }

        /**
         * Service, resources, incoming and feedback of every backend, in backend order.
         *
         * @return the cluster's queue after service, work units
         */
        private long serve(int step, long now) {
            // The resources are read only by the next step's cache refresh; on other steps their
            // noise draws are skipped, which leaves the generator where the seed's draws leave it.
            boolean resourcesRead = policy.readsCache() && (now + w.stepMs) % w.staleMs == 0;
            boolean feedback = policy.feedback();
            long queued = 0;
            for (int j = 0; j < n; j++) {
                if (step > 0) {
                    nodeMax[j] = Math.max(nodeMax[j], q[j]); // the queue at the end of the last step
                }
                long served = Math.min(q[j], capacity[j]);
                q[j] -= served;
                completedUnits += served;
                waitTotal += q[j] * dt;
                nodeBusy[j] += capacity[j] > 0 ? (double) served / capacity[j] : 0;
                if (resourcesRead) {
                    double pressure = Math.min(1.0, q[j] / PRESSURE_QUEUE);
                    cpu[j] = Math.min(1.0, 0.35 + 0.55 * pressure + sim.uniform(-0.05, 0.05));
                    mem[j] = Math.min(1.0, 0.30 + 0.45 * pressure + sim.uniform(-0.05, 0.05));
                    io[j] = Math.min(1.0, 0.25 + 0.40 * pressure + sim.uniform(-0.05, 0.05));
                    net[j] = Math.min(1.0, 0.20 + 0.50 * pressure + sim.uniform(-0.05, 0.05));
                }
                incoming[j] = Math.max(0.0, incoming[j] * 0.5);
                if (feedback) {
                    // The seed's service rate is served / dt: units per second against a count of jobs.
                    double next = correction[j] - eta * (incoming[j] - served / dt);
                    correction[j] = Math.min(Math.max(next, cMin), cMax);
                }
                queued += q[j];
            }
            if (!resourcesRead) {
                sim.skip((long) SeedWorkload.NOISE_WORDS * n);
            }
            return queued;
        }

        /**
         * The step's jobs: each one's frontend and size, then its route or rejection.
         *
         * @return work units added to the queues
         */
        private long arrive(long now) {
            long added = 0;
            int arriving = SeedWorkload.poisson(sim, w.lambdaAt(now));
            for (int a = 0; a < arriving; a++) {
                int frontend = w.frontend(sim);
                double size = w.size(sim);
                jobs++;
                int chosen = route(topology.allowed()[frontend]);
                if (chosen < 0) {
                    rejected++;
                } else {
                    long units = Math.max(1, (long) Math.ceil(size));
                    q[chosen] += units;
                    added += units;
                    incoming[chosen] += 1.0;
                    nodeJobs[chosen]++;
                }
            }
            return added;
        }

        /** Fires each scripted event at its step (validation makes every event time a multiple of dt, SPEC §4). */
        private void fireEvents(long now, boolean[] fired) {
            for (int i = 0; i < fired.length; i++) {
                Scenario.Event e = w.events.get(i);
                if (fired[i] || now < w.eventAtMs[i] || e.type().equals("spike")) {
                    continue;
                }
                fired[i] = true;
                switch (e.type()) {
                    case "fail" -> {
                        if (e.fraction() > 0) {
                            int[] targets = new int[n];
                            int k = SeedWorkload.failureTargets(sim, e.fraction(), failed, targets);
                            for (int t = 0; t < k; t++) {
                                fail(targets[t]);
                            }
                        } else {
                            e.nodes().forEach(this::fail);
                        }
                    }
                    case "degrade" -> {
                        double factor = Math.max(Math.min(e.factor(), 1.0), 0.05);
                        e.nodes().forEach(j -> mu[j] *= factor);
                    }
                    case "recover" -> e.nodes().forEach(j -> {
                        failed[j] = false;
                        mu[j] = topology.mu()[j];
                    });
                    default -> throw new IllegalStateException("unknown event type " + e.type());
                }
                updateCapacities();
            }
        }

        /** The seed's failure: μ = 0; the backend keeps its queue and stays routable. */
        private void fail(int j) {
            failed[j] = true;
            mu[j] = 0.0;
        }

        private void updateCapacities() {
            for (int j = 0; j < n; j++) {
                capacity[j] = (long) Math.floor(mu[j] * dt);
            }
        }

        /** The seed's {@code update_cache}: max(S·C, 0) with S = μ/((1+q)(1+L)), L = w·(cpu, mem, io, net). */
        private void refreshCache() {
            for (int j = 0; j < n; j++) {
                double load = alpha * cpu[j] + beta * mem[j] + gamma * io[j] + delta * net[j];
                double base = mu[j] / Math.max((1.0 + q[j]) * (1.0 + load), MIN_DENOMINATOR);
                cache[j] = Math.max(base * correction[j], 0.0);
            }
        }

        /** One decision of the seed's engine for a job at a frontend with {@code allowed}; −1 rejects. */
        private int route(int[] allowed) {
            int size = allowed.length;
            switch (policy) {
                case ASMF, ASMF_NO_FEEDBACK -> {
                    int k = sample(allowed, sampleK);
                    return bestCached(candidates, k);
                }
                case ASMF_NO_SAMPLING -> {
                    count(size);
                    return bestCached(allowed, size);
                }
                case ASMF_NO_MULTIRESOURCE -> {
                    int k = sample(allowed, sampleK);
                    int best = -1;
                    double bestScore = -1.0;
                    for (int i = 0; i < k; i++) {
                        int b = candidates[i];
                        double score = mu[b] / Math.max(1.0 + q[b], MIN_DENOMINATOR);
                        if (score > bestScore) {
                            bestScore = score;
                            best = b;
                        }
                    }
                    return bestScore < tau ? -1 : best;
                }
                case P2C -> {
                    int k = sample(allowed, p2cK);
                    return shortest(candidates, k);
                }
                case GMSR, LEAST_QUEUE -> {
                    count(size);
                    return shortest(allowed, size);
                }
                case RANDOM -> {
                    count(1);
                    return allowed[engine.choiceIndex(size)];
                }
                default -> throw new IllegalStateException("unknown policy " + policy);
            }
        }

        /** Samples min(k, |allowed|) candidates with the engine generator and counts the queries. */
        private int sample(int[] allowed, int k) {
            int m = Math.min(k, allowed.length);
            engine.sample(allowed, allowed.length, m, candidates, pool);
            count(Math.max(m, 1));
            return m;
        }

        private void count(int reads) {
            queries += reads;
            bytes += BYTES_PER_QUERY * reads;
        }

        /** The highest cached score, the first of equals; −1 (reject) when it is below τ. */
        private int bestCached(int[] from, int m) {
            int best = -1;
            double bestScore = -1.0;
            for (int i = 0; i < m; i++) {
                double score = cache[from[i]];
                if (score > bestScore) {
                    bestScore = score;
                    best = from[i];
                }
            }
            return bestScore < tau ? -1 : best;
        }

        /** The smallest live queue, the first of equals (Python's {@code min}). */
        private int shortest(int[] from, int m) {
            int best = from[0];
            long bestQ = q[best];
            for (int i = 1; i < m; i++) {
                if (q[from[i]] < bestQ) {
                    best = from[i];
                    bestQ = q[best];
                }
            }
            return best;
        }

        private void addTracePoint(long now, long queued) {
            long maxNode = 0;
            for (int j = 0; j < n; j++) {
                maxNode = Math.max(maxNode, q[j]);
            }
            trace[tracePoints] = (double) queued / n;
            traceTimeMs[tracePoints] = now;
            traceMaxNode[tracePoints] = (int) Math.min(Integer.MAX_VALUE, maxNode);
            traceUnits[tracePoints] = completedUnits;
            tracePoints++;
        }

        private RunMetrics metrics() {
            double duration = w.steps * dt;
            long accepted = jobs - rejected;
            TreeMap<String, Double> extras = new TreeMap<>();
            double avgWait = waitTotal / Math.max(completedUnits, 1);
            double queriesPerDecision = (double) queries / Math.max(jobs, 1);
            extras.put("throughput", (double) completedUnits / Math.max(jobs, 1));
            extras.put("avg_wait_time", avgWait);
            extras.put("backlog_area", backlogArea);
            extras.put("max_queue_observed", (double) maxClusterQueue);
            extras.put("queries_per_decision", queriesPerDecision);
            extras.put("state_updates_sent", (double) stateUpdates);
            extras.put("bytes_transferred_est", (double) bytes);
            TraceStatistics t = TraceStatistics.of(trace, traceTimeMs, tracePoints, w.durationMs);
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
                rho[j] = nodeBusy[j] / w.steps;
                utilisation.add(rho[j]);
                nodeMaxList.add((int) Math.min(Integer.MAX_VALUE, nodeMax[j]));
                maxNode = Math.max(maxNode, nodeMax[j]);
            }
            List<SeriesPoint> series = new ArrayList<>(tracePoints);
            for (int i = 0; i < tracePoints; i++) {
                long fromMs = i == 0 ? -w.stepMs : traceTimeMs[i - 1];
                long units = traceUnits[i] - (i == 0 ? 0 : traceUnits[i - 1]);
                series.add(new SeriesPoint(traceTimeMs[i] / 1000.0, trace[i], traceMaxNode[i],
                        units / ((traceTimeMs[i] - fromMs) / 1000.0)));
            }
            return new RunMetrics(jobs, accepted, rejected, 0, duration, completedUnits / duration,
                    Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN,
                    avgWait, backlogArea, (double) queueSum / w.steps / n, (int) Math.min(Integer.MAX_VALUE, maxNode),
                    maxClusterQueue, jobs, queriesPerDecision, new TreeMap<>(), 0, bytes, stateUpdates, share,
                    utilisation, nodeMaxList, JainFairness.of(rho), Double.NaN, series, ResponseTimeHistogram.empty().encode(),
                    new TreeMap<>(Map.of("jobs_rejected", rejected)), extras);
        }
    }
}
