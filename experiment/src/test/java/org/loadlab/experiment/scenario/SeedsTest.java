package org.loadlab.experiment.scenario;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Seed specifications at the edges of {@code long}: refused or expanded, never an endless loop. */
class SeedsTest {
    @Test
    void blockEndingAtLongMaxHasOneSeed() {
        // s <= Long.MAX_VALUE never fails: the loop used to wrap and fill the heap (OutOfMemoryError).
        assertEquals(List.of(Long.MAX_VALUE), Seeds.parse(Long.MAX_VALUE + ":" + Long.MAX_VALUE));
        assertEquals(List.of(Long.MAX_VALUE - 1, Long.MAX_VALUE), Seeds.parse((Long.MAX_VALUE - 1) + ":" + Long.MAX_VALUE));
        assertEquals(List.of(Long.MIN_VALUE), Seeds.parse(Long.MIN_VALUE + ":" + Long.MIN_VALUE));
    }

    @Test
    void blockWiderThanALongIsTooLarge() {
        // b - a overflows to a negative span; that block is refused like any other of more than MAX_SEEDS seeds.
        String spec = Long.MIN_VALUE + ":" + Long.MAX_VALUE;
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Seeds.parse(spec));
        assertTrue(e.getMessage().contains("seeds = '" + spec + "': block " + spec + " has more than 100000 seeds"), e.getMessage());
        IllegalArgumentException half = assertThrows(IllegalArgumentException.class, () -> Seeds.parse("-2:" + Long.MAX_VALUE));
        assertTrue(half.getMessage().contains("has more than 100000 seeds"), half.getMessage());
    }

    @Test
    void ordinaryBlocksAndLists() {
        assertEquals(List.of(101L, 102L, 103L, 200L), Seeds.parse("101:103, 200"));
        assertEquals(List.of(-5L, -4L, -3L), Seeds.parse("-5:-3"));
        assertEquals(100_000, Seeds.parse("1:100000").size());
    }
}
