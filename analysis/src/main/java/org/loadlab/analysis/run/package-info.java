/**
 * Streaming collection of one run's metrics: {@link org.loadlab.analysis.run.RunRecorder}
 * is fed by the simulation engine on its hot path and produces an immutable
 * {@link org.loadlab.analysis.run.RunMetrics}.
 *
 * <p>Terms: response (sojourn) time = completion time − arrival time at the balancer;
 * waiting time = time a request spent queued at a node before service started; queue
 * length q_j = requests at node j (queued plus in service, as reported by the engine);
 * utilisation ρ_j = busy server-time / available server-time; throughput = completions
 * per second. All times are in seconds.
 *
 * <p>Source: DESIGN.md (metrics leave the cores as Observe effects; the sim shell feeds an
 * in-memory collector with HdrHistogram).
 */
package org.loadlab.analysis.run;
