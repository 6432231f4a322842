package org.loadlab.experiment.scenario;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Seed specifications at the edges of {@code long}: refused or expanded, never an endless
 * loop; a seed given twice is refused, as a policy listed twice is.
 */
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

    @Test
    void aSeedGivenTwiceIsRefusedNamingItAndWhere() {
        // "1,1" used to become one seed silently, while "--policies p2c,p2c" is an error.
        assertEquals("seeds = '1,1': seed 1 is given twice; give each seed once (blocks A:B must not overlap)", refused("1,1"));
        assertEquals("seeds = '1:5, 3': seed 3 is given twice (in 1:5 and as 3); give each seed once (blocks A:B must not overlap)",
                refused("1:5, 3"));
        assertEquals("seeds = '3,1:5': seed 3 is given twice (as 3 and in 1:5); give each seed once (blocks A:B must not overlap)",
                refused("3,1:5"));
        assertEquals("seeds = '101:110,105:120': seed 105 is given twice (in 101:110 and in 105:120); give each seed once"
                + " (blocks A:B must not overlap)", refused("101:110,105:120"));
        assertEquals("seeds = '1:3,1:3': seed 1 is given twice (block 1:3 is listed twice); give each seed once"
                + " (blocks A:B must not overlap)", refused("1:3,1:3"));
        // Blocks that touch without overlapping, and a block alone, are still fine.
        assertEquals(Seeds.parse("101:110").size(), 10);
        assertEquals(List.of(1L, 2L, 3L, 4L, 5L, 6L), Seeds.parse("1:3,4:5,6"));
        assertEquals(List.of(5L, 1L, 2L), Seeds.parse("5,1:2"));
    }

    private static String refused(String spec) {
        return assertThrows(IllegalArgumentException.class, () -> Seeds.parse(spec)).getMessage();
    }
}
