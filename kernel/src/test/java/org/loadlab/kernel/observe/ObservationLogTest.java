package org.loadlab.kernel.observe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The log's columns hold exactly the calls made, in order, however they are drained in chunks. */
class ObservationLogTest {

    /** A random record of every kind, with names that first appear late (the chunks' name tables grow). */
    static Observation randomRecord(SplittableRandom rng, double t) {
        return switch (rng.nextInt(12)) {
            case 0 -> new Observation.Arrived(t, rng.nextInt(4));
            case 1 -> new Observation.Decided(t, rng.nextInt(4), rng.nextInt(5));
            case 2 -> new Observation.Routed(t, rng.nextInt(4), rng.nextInt(100), t - rng.nextDouble(), t - 2 * rng.nextDouble());
            case 3 -> new Observation.Rejected(t, t - rng.nextDouble());
            case 4 -> new Observation.Completed(t, t - rng.nextDouble(), rng.nextInt(100));
            case 5 -> new Observation.ServiceStarted(t, rng.nextInt(100), rng.nextDouble());
            case 6 -> new Observation.Lost(t, rng.nextInt(100), 1 + rng.nextInt(3));
            case 7 -> new Observation.QueueLength(t, rng.nextInt(100), rng.nextInt(50));
            case 8 -> new Observation.BusyServers(t, rng.nextInt(100), rng.nextInt(3), 3);
            case 9 -> new Observation.StateUpdate(t, rng.nextInt(100), rng.nextInt(4));
            case 10 -> new Observation.Counted(t, "counter-" + rng.nextInt(6), rng.nextLong());
            default -> new Observation.MessageSent(t, "Kind" + rng.nextInt(9), rng.nextInt(200));
        };
    }

    @Test
    void chunksOfAnySizeGiveBackEveryCallInOrder() {
        SplittableRandom rng = new SplittableRandom(11);
        ObservationLog log = new ObservationLog();
        List<Observation> made = new ArrayList<>();
        List<Observation> drained = new ArrayList<>();
        for (int round = 0; round < 200; round++) {
            int calls = rng.nextInt(3000);
            for (int i = 0; i < calls; i++) {
                Observation o = randomRecord(rng, rng.nextDouble() * 100);
                o.applyTo(log);
                made.add(o);
            }
            int max = 1 + rng.nextInt(1500);
            ObservationColumns chunk = log.drain(max);
            assertEquals(Math.min(max, log.size() + chunk.size()), chunk.size(), "a chunk holds up to max records");
            drained.addAll(chunk.toList());
        }
        while (log.size() > 0) {
            drained.addAll(log.drain(700).toList());
        }
        assertEquals(made, drained);
        assertEquals(made.size(), log.recorded());
        assertEquals(0, log.drain(5).size());
    }

    @Test
    void aClosedLogCountsWhatItRefuses() {
        ObservationLog log = new ObservationLog();
        log.arrived(1.0, 0);
        log.close();
        log.count(2.0, "x", 1);
        log.messageSent(2.0, "Probe", 24);
        assertEquals(2, log.droppedAfterClose());
        assertEquals(List.of(new Observation.Arrived(1.0, 0)), log.drain(10).toList());
    }

    @Test
    void aChunkOfNothingIsRefused() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new ObservationLog().drain(0));
        assertEquals("max must be >= 1, got 0", e.getMessage());
    }
}
