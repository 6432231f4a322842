package org.loadlab.kernel;


import java.util.random.RandomGenerator;

/**
 * What a logic core may see and do. The simulation shell implements it on a virtual
 * clock with one seeded random stream per entity; the Pekko shells implement it on
 * {@code System.nanoTime} (optionally scaled), {@code tell} and {@code TimerScheduler}.
 *
 * <p>Timer semantics follow Pekko's {@code TimerScheduler}: starting a timer with a key
 * that is already active cancels the old one; a cancelled timer never delivers.
 *
 * <p>Source: DESIGN.md, "Architecture: pure cores, two shells".
 */
public interface Env {
    /** Current time in seconds (virtual in simulation, scaled wall time when live). */
    double now();

    /** This participant's own address. */
    Address self();

    /** This participant's private random stream, derived from (master seed, entity id). */
    RandomGenerator random();

    /**
     * Sends {@code message} to {@code to}. Delivery is FIFO per (sender, receiver) pair
     * and subject to the shell's network-latency model.
     */
    void send(Address to, Message message);

    /**
     * Delivers {@code message} to this participant after {@code delaySeconds} (≥ 0),
     * replacing any active timer with an equal {@code key}.
     */
    void startTimer(Object key, double delaySeconds, Message message);

    /** Cancels the active timer with {@code key}, if any; its message is not delivered. */
    void cancelTimer(Object key);

    /** Where observations (metrics) go; never null. */
    MetricsSink metrics();

}
