package org.loadlab.experiment.run;

import java.util.Optional;
import java.util.ServiceLoader;
import org.loadlab.analysis.io.RunResult;

/**
 * A run model other than the message-level engine, chosen by a scenario's {@code model} key
 * (e.g. {@code reference}: the ASMF seed's time-stepped simulator, SPEC.md §4). Studies
 * provide them through {@link ServiceLoader} ({@code META-INF/services}), so this layer runs
 * them without depending on the studies.
 */
public interface ModelRunner {
    /** The {@code model} value this runner serves, e.g. {@code reference}. */
    String model();

    /**
     * Runs {@code spec}.
     *
     * @return the run's result
     * @throws IllegalArgumentException if the scenario does not fit this model
     */
    RunResult run(RunSpec spec);

    /**
     * Runs {@code spec} and adds each node's state at the end of the run to {@code nodes} (the
     * rows of {@code nodes.csv}); by default the model has none and adds nothing.
     *
     * @param nodes where the node states go, in node order
     * @return the run's result
     * @throws IllegalArgumentException if the scenario does not fit this model
     */
    default RunResult run(RunSpec spec, java.util.List<NodeInspection> nodes) {
        return run(spec);
    }

    /** Units of work one run of {@code spec} takes (time steps), for the events/s figure. */
    long work(RunSpec spec);

    /** The runner for {@code model}, if one is on the class path. */
    static Optional<ModelRunner> find(String model) {
        for (ModelRunner r : ServiceLoader.load(ModelRunner.class, ModelRunner.class.getClassLoader())) {
            if (r.model().equals(model)) {
                return Optional.of(r);
            }
        }
        return Optional.empty();
    }
}
