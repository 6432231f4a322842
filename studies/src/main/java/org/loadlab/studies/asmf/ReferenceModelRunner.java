package org.loadlab.studies.asmf;

import java.util.List;
import org.loadlab.analysis.io.RunResult;
import org.loadlab.experiment.run.ModelRunner;
import org.loadlab.experiment.run.NodeInspection;
import org.loadlab.experiment.run.RunSpec;
import org.loadlab.experiment.scenario.Scenario;

/**
 * Registers the ASMF seed's time-stepped simulator ({@link ReferenceModel}, SPEC.md §4) as
 * the runner of scenarios with {@code model = reference}.
 */
public final class ReferenceModelRunner implements ModelRunner {
    @Override
    public String model() {
        return "reference";
    }

    @Override
    public RunResult run(RunSpec spec) {
        return ReferenceModel.run(spec);
    }

    @Override
    public RunResult run(RunSpec spec, List<NodeInspection> nodes) {
        return ReferenceModel.run(spec, nodes);
    }

    @Override
    public long work(RunSpec spec) {
        Scenario s = spec.scenario();
        return Math.round(s.duration() / s.reference().step());
    }
}
