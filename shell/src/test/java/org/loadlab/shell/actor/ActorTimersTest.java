package org.loadlab.shell.actor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.loadlab.kernel.Message;

/**
 * An actor's timers against a brute-force reference over random starts, replacements and
 * cancellations: every wake-up fires exactly the timers due, in (due, start) order; a
 * replaced or cancelled timer never fires; and the one Pekko timer is always armed no later
 * than the earliest active timer, so none fires late.
 */
class ActorTimersTest {
    /** A timer's message: which start it came from. */
    record Fired(int start) implements Message {
        @Override
        public int estimatedBytes() {
            return 0;
        }
    }

    /** The test's clock: real time moves only when the test says. */
    private static final class StepClock implements ShellClock {
        long nanos;

        @Override
        public double now() {
            return nanos / 1e9;
        }

        @Override
        public Duration realDuration(double scenarioSeconds) {
            return Duration.ofNanos(Math.round(scenarioSeconds * 1e9));
        }

        @Override
        public long realNanos() {
            return nanos;
        }
    }

    private record Expected(long due, int start) {
    }

    @Test
    void randomStartsAndCancelsFireExactlyAsThePekkoSemanticsSay() {
        for (int seed = 1; seed <= 50; seed++) {
            SplittableRandom rng = new SplittableRandom(seed);
            StepClock clock = new StepClock();
            long[] armedAt = {Long.MAX_VALUE}; // the absolute time the one Pekko timer fires at
            ActorTimers timers = new ActorTimers(clock, delay -> armedAt[0] = clock.nanos + delay.toNanos());
            Map<Integer, Expected> reference = new HashMap<>();
            int starts = 0;
            for (int step = 0; step < 3_000; step++) {
                int op = rng.nextInt(10);
                int key = rng.nextInt(12);
                if (op < 5) {
                    long delay = rng.nextInt(4) == 0 ? 0 : rng.nextLong(100);
                    timers.start(key, Duration.ofNanos(delay), new Fired(starts));
                    reference.put(key, new Expected(clock.nanos + delay, starts++));
                } else if (op < 7) {
                    timers.cancel(key);
                    reference.remove(key);
                } else {
                    clock.nanos += rng.nextLong(60);
                    if (clock.nanos >= armedAt[0]) { // the wake-up comes
                        armedAt[0] = Long.MAX_VALUE;
                        List<Integer> fired = new ArrayList<>();
                        for (ActorTimers.Timer t = timers.pollDue(); t != null; t = timers.pollDue()) {
                            fired.add(((Fired) t.message).start());
                        }
                        List<Expected> due = new ArrayList<>(reference.values().stream().filter(e -> e.due() <= clock.nanos)
                                .sorted(Comparator.comparingLong(Expected::due).thenComparingInt(Expected::start)).toList());
                        assertEquals(due.stream().map(Expected::start).toList(), fired, "seed " + seed + " step " + step);
                        reference.values().removeIf(e -> e.due() <= clock.nanos);
                    }
                }
                assertEquals(reference.size(), timers.active());
                long earliest = reference.values().stream().mapToLong(Expected::due).min().orElse(Long.MAX_VALUE);
                assertTrue(armedAt[0] <= Math.max(earliest, clock.nanos),
                        "seed " + seed + " step " + step + ": the wake-up (" + armedAt[0] + ") comes by the earliest due " + earliest);
            }
        }
    }
}
