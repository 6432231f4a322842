package org.loadlab.shell.actor;

import java.time.Duration;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import org.loadlab.kernel.Message;

/**
 * The timers of one {@link LogicActor}'s core, with Pekko's {@code TimerScheduler} semantics
 * (a timer started with an active key replaces it; a cancelled or replaced timer never
 * delivers), kept by the actor itself: a map key → timer and a binary heap by due time, with
 * one Pekko timer (the <em>wake-up</em>) armed for the earliest. When the wake-up comes the
 * actor fires every timer due, in due order, and arms it for the next.
 *
 * <p>Why not one Pekko timer per core timer: a balancer starts a probe timeout per request and
 * cancels it about a millisecond later when the replies are in, but Pekko's scheduler keeps a
 * cancelled task in its wheel until its due time (0.5 s in the cluster benchmark), so at
 * 35,000 requests/s about 17,000 cancelled tasks with their closures and timer messages were
 * alive at any time and every young collection of the gateway copied them (docs/cluster.md,
 * "The decision p99 at half the saturation rate"). Here a cancelled timer leaves the map and the
 * heap at once, and the wake-up is re-armed only when a new timer comes due before it (a
 * constant timeout never does), so the scheduler sees about one task per timeout period.
 *
 * <p>Times are the {@link ShellClock}'s real nanoseconds ({@link ShellClock#realNanos()}), the
 * clock Pekko's scheduler runs on, so with a test's manual time the timers follow it. Not
 * thread-safe: the actor owns it.
 */
final class ActorTimers {
    /** What the actor is asked to do about its wake-up. */
    interface WakeUp {
        /** Arms the actor's one Pekko timer to fire after {@code delay}, replacing any armed one. */
        void arm(Duration delay);
    }

    /** One core timer: its key, message, due time (real ns) and start order (ties fire in that order). */
    static final class Timer {
        final Object key;
        final Message message;
        final long dueNanos;
        final long seq;
        int index;

        Timer(Object key, Message message, long dueNanos, long seq) {
            this.key = key;
            this.message = message;
            this.dueNanos = dueNanos;
            this.seq = seq;
        }
    }

    private final ShellClock clock;
    private final WakeUp wakeUp;
    private final Map<Object, Timer> byKey = new HashMap<>();
    private Timer[] heap = new Timer[16];
    private int size;
    private long started;
    private long armedFor = Long.MAX_VALUE;

    /**
     * @param clock the run's clock (real nanoseconds for due times)
     * @param wakeUp arms the actor's Pekko timer
     */
    ActorTimers(ShellClock clock, WakeUp wakeUp) {
        this.clock = clock;
        this.wakeUp = wakeUp;
    }

    /** Starts a timer delivering {@code message} after {@code delay} (real time), replacing an active one with {@code key}. */
    void start(Object key, Duration delay, Message message) {
        Timer t = new Timer(key, message, clock.realNanos() + delay.toNanos(), started++);
        Timer replaced = byKey.put(key, t);
        if (replaced != null) {
            remove(replaced.index);
        }
        push(t);
        if (t.dueNanos < armedFor) {
            arm(t.dueNanos);
        }
    }

    /** Cancels the active timer with {@code key}, if any: its message is never delivered. */
    void cancel(Object key) {
        Timer t = byKey.remove(key);
        if (t != null) {
            remove(t.index);
        }
    }

    /** Active timers. */
    int active() {
        return size;
    }

    /**
     * The wake-up fired: takes the earliest timer if it is due (removed: a handler may start its
     * key again), or returns null and arms the wake-up for the earliest, if any. Call it until it
     * returns null.
     *
     * @return a due timer, or null when none is due now
     */
    Timer pollDue() {
        long now = clock.realNanos();
        if (size > 0 && heap[0].dueNanos <= now) {
            Timer t = heap[0];
            byKey.remove(t.key);
            remove(0);
            return t;
        }
        armedFor = Long.MAX_VALUE;
        if (size > 0) {
            arm(heap[0].dueNanos);
        }
        return null;
    }

    private void arm(long dueNanos) {
        armedFor = dueNanos;
        wakeUp.arm(Duration.ofNanos(Math.max(0L, dueNanos - clock.realNanos())));
    }

    // ------------------------------------------------------------------ the heap, ordered by (due, seq)

    private static boolean earlier(Timer a, Timer b) {
        return a.dueNanos < b.dueNanos || a.dueNanos == b.dueNanos && a.seq < b.seq;
    }

    private void push(Timer t) {
        if (size == heap.length) {
            heap = Arrays.copyOf(heap, 2 * size);
        }
        place(t, size++);
        siftUp(t.index);
    }

    private void remove(int i) {
        Timer last = heap[--size];
        heap[size] = null;
        if (i == size) {
            return;
        }
        place(last, i);
        siftDown(i);
        siftUp(last.index);
    }

    private void place(Timer t, int i) {
        heap[i] = t;
        t.index = i;
    }

    private void siftUp(int i) {
        Timer t = heap[i];
        while (i > 0) {
            int parent = (i - 1) >>> 1;
            if (!earlier(t, heap[parent])) {
                break;
            }
            place(heap[parent], i);
            i = parent;
        }
        place(t, i);
    }

    private void siftDown(int i) {
        Timer t = heap[i];
        while (true) {
            int child = 2 * i + 1;
            if (child >= size) {
                break;
            }
            if (child + 1 < size && earlier(heap[child + 1], heap[child])) {
                child++;
            }
            if (!earlier(heap[child], t)) {
                break;
            }
            place(heap[child], i);
            i = child;
        }
        place(t, i);
    }
}
