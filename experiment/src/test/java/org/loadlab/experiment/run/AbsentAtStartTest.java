package org.loadlab.experiment.run;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import org.junit.jupiter.api.Test;
import org.loadlab.experiment.scenario.Scenario;

/** {@link RunAssembly#absentAtStart}: join targets and the autoscaler's slots, ascending, each once. */
class AbsentAtStartTest {

    @Test
    void joinTargetsAndAutoscalerSlotsAscendingEachOnce() {
        Scenario s = TestScenarios.load("quickstart", "nodes.count = 10", "autoscaler.enabled = true",
                "autoscaler.min-nodes = 5", "autoscaler.max-nodes = 10",
                "events = [{type = join, at = 30, nodes = [7, 2]}, {type = crash, at = 20, nodes = [1]},"
                        + " {type = join, at = 40, nodes = [2]}]");
        assertArrayEquals(new int[] {2, 5, 6, 7, 8, 9}, RunAssembly.absentAtStart(s));
    }

    @Test
    void noJoinAndNoAutoscalerMeansEveryNodeIsThere() {
        Scenario s = TestScenarios.load("quickstart", "events = [{type = crash, at = 20, nodes = [0]}]");
        assertArrayEquals(new int[0], RunAssembly.absentAtStart(s));
    }
}
