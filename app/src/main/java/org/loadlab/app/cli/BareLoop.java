package org.loadlab.app.cli;

import java.util.PriorityQueue;
import java.util.SplittableRandom;
import org.HdrHistogram.Histogram;

/**
 * The yardstick of {@code loadlab bench --baseline}: the bench workload (p2c with probes)
 * written as the plainest single-threaded Java discrete-event loop, with nothing of
 * LoadLab in it. It shows what the hardware and the JVM give for this workload, so the
 * bench can report LoadLab's speed as a ratio that the noise of a shared machine does not
 * move much (both run in the same process, one right after the other).
 *
 * <p>What it does, event by event (8 events per request, one
 * {@link java.util.PriorityQueue} of {@link Event} records ordered by (time, sequence)):
 * <ol>
 *   <li>{@code ARRIVAL} at the balancer, Poisson at rate λ = ρ·n (μ = 1, one server per
 *       node, demand D ~ exp(1)); it draws the next arrival and two distinct nodes
 *       uniformly at random and sends each a probe;</li>
 *   <li>{@code PROBE} ×2 at a node, one-way latency later: the node answers with its
 *       queue length q_j (waiting plus in service);</li>
 *   <li>{@code REPLY} ×2 at the balancer: when both are in, the request goes to the
 *       node with the smaller q_j (a tie is broken by a fair coin);</li>
 *   <li>{@code REQUEST} at the node: FCFS, service starts at once if the node is idle,
 *       else the request waits in the node's queue (an intrusive linked list);</li>
 *   <li>{@code DONE} at the node after D / μ seconds: the response is sent and the next
 *       waiting request starts;</li>
 *   <li>{@code RESPONSE} at the balancer: the response time now − arrival is added to
 *       its sum and recorded in an HdrHistogram (3 digits, nanoseconds), the least a
 *       simulator must keep to report the mean and p99.</li>
 * </ol>
 * It has no probe timeout (no node fails here), no separate client hop, one random
 * stream for everything and no other metric, so it does strictly less work than a LoadLab
 * run: a conservative baseline. The run ends when {@code requests} arrivals have been
 * generated and every response is in.
 */
final class BareLoop {
    private static final int ARRIVAL = 0;
    private static final int PROBE = 1;
    private static final int REPLY = 2;
    private static final int REQUEST = 3;
    private static final int DONE = 4;
    private static final int RESPONSE = 5;

    /** One pending event; {@code job} is the request it concerns (null for none). */
    private record Event(double time, long seq, int kind, int node, int value, Job job) implements Comparable<Event> {
        @Override
        public int compareTo(Event o) {
            int c = Double.compare(time, o.time);
            return c != 0 ? c : Long.compare(seq, o.seq);
        }
    }

    /** One request: its arrival, demand, the two probed nodes and their answers. */
    private static final class Job {
        final double arrival;
        final double demand;
        final int first;
        final int second;
        int firstQueue = -1;
        int secondQueue = -1;
        Job next; // the node's FCFS queue

        Job(double arrival, double demand, int first, int second) {
            this.arrival = arrival;
            this.demand = demand;
            this.first = first;
            this.second = second;
        }
    }

    /**
     * What one bare run did.
     *
     * @param requests requests generated (all answered)
     * @param events events processed
     * @param wallSeconds wall-clock time of the loop, seconds
     * @param meanResponse mean response time, seconds
     * @param p99Response 99th percentile of the response time, seconds
     */
    record Outcome(long requests, long events, double wallSeconds, double meanResponse, double p99Response) {
    }

    private final PriorityQueue<Event> queue = new PriorityQueue<>();
    private long seq;

    private BareLoop() {
    }

    /**
     * Runs the bare loop.
     *
     * @param nodes n, ≥ 2
     * @param requests requests to generate, ≥ 1
     * @param utilisation ρ in (0, 1)
     * @param latency one-way latency between balancer and nodes, seconds, ≥ 0
     * @param seed random seed
     * @return counts, wall time and the response-time figures (a cross-check against LoadLab's)
     */
    static Outcome run(int nodes, long requests, double utilisation, double latency, long seed) {
        return new BareLoop().loop(nodes, requests, utilisation, latency, seed);
    }

    private Outcome loop(int n, long requests, double utilisation, double latency, long seed) {
        long t0 = System.nanoTime();
        SplittableRandom rng = new SplittableRandom(seed);
        double lambda = utilisation * n;
        int[] queueLength = new int[n];
        Job[] inService = new Job[n];
        Job[] waitHead = new Job[n];
        Job[] waitTail = new Job[n];
        Histogram response = new Histogram(3);
        double responseSum = 0;
        long generated = 0;
        long answered = 0;
        long events = 0;
        push(exp(rng, lambda), ARRIVAL, 0, 0, null);
        while (answered < requests) {
            Event e = queue.poll();
            double now = e.time;
            events++;
            switch (e.kind) {
                case ARRIVAL -> {
                    generated++;
                    if (generated < requests) {
                        push(now + exp(rng, lambda), ARRIVAL, 0, 0, null);
                    }
                    int a = rng.nextInt(n);
                    int b = rng.nextInt(n - 1);
                    if (b >= a) {
                        b++;
                    }
                    Job job = new Job(now, exp(rng, 1.0), a, b);
                    push(now + latency, PROBE, a, 0, job);
                    push(now + latency, PROBE, b, 0, job);
                }
                case PROBE -> push(now + latency, REPLY, e.node, queueLength[e.node], e.job);
                case REPLY -> {
                    Job job = e.job;
                    if (e.node == job.first) {
                        job.firstQueue = e.value;
                    } else {
                        job.secondQueue = e.value;
                    }
                    if (job.firstQueue >= 0 && job.secondQueue >= 0) {
                        int target = job.firstQueue < job.secondQueue ? job.first
                                : job.secondQueue < job.firstQueue ? job.second
                                : rng.nextBoolean() ? job.first : job.second;
                        push(now + latency, REQUEST, target, 0, job);
                    }
                }
                case REQUEST -> {
                    int j = e.node;
                    queueLength[j]++;
                    if (inService[j] == null) {
                        inService[j] = e.job;
                        push(now + e.job.demand, DONE, j, 0, e.job);
                    } else if (waitTail[j] == null) {
                        waitHead[j] = e.job;
                        waitTail[j] = e.job;
                    } else {
                        waitTail[j].next = e.job;
                        waitTail[j] = e.job;
                    }
                }
                case DONE -> {
                    int j = e.node;
                    queueLength[j]--;
                    push(now + latency, RESPONSE, j, 0, e.job);
                    Job next = waitHead[j];
                    inService[j] = next;
                    if (next != null) {
                        waitHead[j] = next.next;
                        if (waitHead[j] == null) {
                            waitTail[j] = null;
                        }
                        next.next = null;
                        push(now + next.demand, DONE, j, 0, next);
                    }
                }
                case RESPONSE -> {
                    double r = now - e.job.arrival;
                    responseSum += r;
                    response.recordValue(Math.round(r * 1e9));
                    answered++;
                }
                default -> throw new IllegalStateException("unknown event kind " + e.kind);
            }
        }
        double wall = (System.nanoTime() - t0) / 1e9;
        return new Outcome(generated, events, wall, responseSum / answered, response.getValueAtPercentile(99) / 1e9);
    }

    private void push(double time, int kind, int node, int value, Job job) {
        queue.add(new Event(time, seq++, kind, node, value, job));
    }

    private static double exp(SplittableRandom rng, double rate) {
        return -Math.log(1.0 - rng.nextDouble()) / rate;
    }
}
