package org.loadlab.kernel.observe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** Columns give back exactly the records they were made of, and refuse columns that do not fit their kinds. */
class ObservationColumnsTest {

    private static List<Observation> everyKind() {
        return List.of(new Observation.Arrived(0.5, 1), new Observation.Decided(0.5, 1, 2),
                new Observation.Routed(0.51, 1, 7, 0.5, 0.49), new Observation.Rejected(0.6, 0.4),
                new Observation.Completed(1.5, 0.25, 7), new Observation.ServiceStarted(0.52, 7, 0.01),
                new Observation.Lost(1.6, 3, 4), new Observation.QueueLength(1.5, 7, 4),
                new Observation.BusyServers(1.5, 7, 1, 2), new Observation.StateUpdate(1.7, 7, 3),
                new Observation.Counted(1.8, "redecisions", 1L << 40), new Observation.MessageSent(2.5, "Request", 48),
                new Observation.Counted(1.9, "redecisions", -2), new Observation.MessageSent(2.6, "Probe", 24));
    }

    @Test
    void everyKindComesBackAsItWent() {
        List<Observation> records = everyKind();
        ObservationColumns c = ObservationColumns.of(records);
        assertEquals(records.size(), c.size());
        assertEquals(records, c.toList());
        assertEquals(List.of("Request", "redecisions", "Probe").size(), c.names().size(), "each name once: " + c.names());
    }

    @Test
    void aLongRandomMixComesBackInOrder() {
        SplittableRandom rng = new SplittableRandom(7);
        List<Observation> kinds = everyKind();
        List<Observation> records = new ArrayList<>();
        for (int i = 0; i < 20_000; i++) {
            Observation o = kinds.get(rng.nextInt(kinds.size()));
            double t = rng.nextDouble() * 1e6;
            // the same kind at another time, so the columns' order is checked, not only the fields
            records.add(o instanceof Observation.QueueLength q ? new Observation.QueueLength(t, q.node(), rng.nextInt(1000))
                    : o instanceof Observation.Arrived a ? new Observation.Arrived(t, rng.nextInt(64)) : o);
        }
        assertEquals(records, ObservationColumns.of(records).toList());
        assertEquals(List.of(), ObservationColumns.of(List.of()).toList());
        assertEquals(ObservationColumns.EMPTY, ObservationColumns.of(List.of()));
    }

    @Test
    void columnsThatDoNotFitTheirKindsAreRefusedNamingTheColumn() {
        ObservationColumns c = ObservationColumns.of(everyKind());
        IllegalArgumentException shortInts = assertThrows(IllegalArgumentException.class, () -> new ObservationColumns(
                c.kinds(), c.times(), java.util.Arrays.copyOf(c.ints(), c.ints().length - 1), c.doubles(), c.longs(), c.names()));
        assertTrue(shortInts.getMessage().contains("observation column ints holds 21 values; the records' kinds need 22"),
                shortInts.getMessage());
        IllegalArgumentException code = assertThrows(IllegalArgumentException.class, () -> new ObservationColumns(
                new byte[] {12}, new double[1], new int[0], new double[0], new long[0], List.of()));
        assertTrue(code.getMessage().contains("observation kind code 12 is unknown; allowed: 0..11"), code.getMessage());
        IllegalArgumentException name = assertThrows(IllegalArgumentException.class, () -> new ObservationColumns(
                new byte[] {11}, new double[1], new int[] {5, 40}, new double[0], new long[0], List.of("Probe")));
        assertTrue(name.getMessage().contains("name index 5 is outside the batch's 1 names"), name.getMessage());
        IllegalArgumentException counter = assertThrows(IllegalArgumentException.class, () -> new ObservationColumns(
                new byte[] {0, 10}, new double[2], new int[] {0, -1}, new double[0], new long[] {1}, List.of("x")));
        assertTrue(counter.getMessage().contains("name index -1 is outside the batch's 1 names"), counter.getMessage());
    }
}
