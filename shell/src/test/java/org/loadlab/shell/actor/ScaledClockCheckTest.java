package org.loadlab.shell.actor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.loadlab.experiment.scenario.Scenario;
import org.loadlab.experiment.run.TestScenarios;

/**
 * The fall-behind rule live mode and cluster experiments share: quickstart's mean service time
 * is 1 s, so at time scale 100 the tolerance (10%) is 0.1 scenario s = 1 ms of real lateness.
 */
class ScaledClockCheckTest {
    private static final Scenario QUICKSTART = TestScenarios.load("quickstart");

    private static TimerLag.Window late(double millis) {
        return new TimerLag.Window(500, millis * 1e6, (long) (2 * millis * 1e6));
    }

    @Test
    void twoLateWindowsInARowAreBehindOneIsNot() {
        ScaledClockCheck check = new ScaledClockCheck(100, 0.1, QUICKSTART);
        assertFalse(check.look(late(1.5)), "one window too late");
        assertTrue(check.look(late(1.5)), "the second in a row");
    }

    @Test
    void aWindowWithinTheToleranceOrWithoutTimersBreaksTheRow() {
        ScaledClockCheck check = new ScaledClockCheck(100, 0.1, QUICKSTART);
        assertFalse(check.look(late(1.5)));
        assertFalse(check.look(late(0.9)), "0.09 scenario s: within 0.1");
        assertFalse(check.look(late(1.5)));
        assertFalse(check.look(new TimerLag.Window(0, 0, 0)), "no timers: nothing to judge");
        assertFalse(check.look(late(1.5)));
        assertTrue(check.look(late(1.5)));
    }

    @Test
    void overAWholeRunTheMeanDecides() {
        ScaledClockCheck check = new ScaledClockCheck(100, 0.1, QUICKSTART);
        assertTrue(check.behindOverRun(10, 1.2e6));
        assertFalse(check.behindOverRun(10, 0.8e6));
        assertFalse(check.behindOverRun(0, 0), "a run without timers");
        assertFalse(new ScaledClockCheck(100, Double.POSITIVE_INFINITY, QUICKSTART).behindOverRun(10, 1e12), "check off");
    }

    @Test
    void theMessageGivesTheLagInBothClocksAndTheSuggestionHalvesIt() {
        ScaledClockCheck check = new ScaledClockCheck(200, 0.1, QUICKSTART);
        assertEquals("its timers fired on average 1.33 ms (0.266 scenario s) late over the run, more than 10% of the mean"
                + " service time 1.00 s, so its response times would be wrong", check.lateness(1.33e6, "over the run"));
        // Half the tolerance, 0.05 s, at 1.33 ms of real lateness: 37.6, rounded down to one digit.
        assertEquals(30, check.suggestion(1.33e6));
        assertEquals("25", ScaledClockCheck.plain(25.0));
        assertEquals("0.5", ScaledClockCheck.plain(0.5));
    }

    @Test
    void aNonPositiveScaleOrToleranceIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> new ScaledClockCheck(0, 0.1, QUICKSTART));
        assertThrows(IllegalArgumentException.class, () -> new ScaledClockCheck(10, 0, QUICKSTART));
    }
}
