package org.loadlab.studies.production;

import java.util.ArrayList;
import java.util.List;
import org.loadlab.analysis.run.RunMetrics;
import org.loadlab.balancer.policy.PolicyCatalog;
import org.loadlab.experiment.run.RunSpec;
import org.loadlab.experiment.run.SimulationRunner;
import org.loadlab.experiment.scenario.Scenario;
import org.loadlab.experiment.scenario.ScenarioLoader;

/**
 * Runs one variant of a study: a built-in scenario with overrides, one policy, one seed, in
 * the simulation, with {@link SecondCounts} watching.
 */
public final class StudyRuns {
    private StudyRuns() {
    }

    /**
     * A variant: a label for tables, the policy and the scenario overrides.
     *
     * @param label how tables and plots name it
     * @param policy a catalog policy
     * @param overrides {@code key=value} scenario overrides
     */
    public record Variant(String label, String policy, List<String> overrides) {
        /** A variant without overrides. */
        public static Variant of(String policy) {
            return new Variant(policy, policy, List.of());
        }

        /** This variant with one more override, and a label suffix. */
        public Variant with(String suffix, String override) {
            List<String> o = new ArrayList<>(overrides);
            o.add(override);
            return new Variant(label + suffix, policy, List.copyOf(o));
        }
    }

    /**
     * One run's outcome.
     *
     * @param variant what ran
     * @param seed the seed
     * @param scenario the scenario as run
     * @param metrics its results
     * @param trace its second-by-second routing and counters
     */
    public record Run(Variant variant, long seed, Scenario scenario, RunMetrics metrics, SecondCounts trace) {
    }

    private static final ScenarioLoader LOADER = new ScenarioLoader(n -> PolicyCatalog.find(n).isPresent(), PolicyCatalog.names());

    /**
     * Loads built-in scenario {@code scenario} with the variant's overrides.
     *
     * @throws org.loadlab.experiment.scenario.ScenarioException if an override is invalid
     */
    public static Scenario scenario(String scenario, Variant v, List<String> extra) {
        List<String> o = new ArrayList<>(v.overrides());
        o.addAll(extra);
        o.add("policies = [" + v.policy() + "]");
        return LOADER.load(scenario, o);
    }

    /**
     * Runs the variant for each seed.
     *
     * @param scenario a built-in scenario name
     * @param v the variant
     * @param seeds the seeds
     * @param extra further overrides (e.g. a shorter duration for a test)
     */
    public static List<Run> run(String scenario, Variant v, List<Long> seeds, List<String> extra) {
        Scenario s = scenario(scenario, v, extra);
        List<Run> out = new ArrayList<>();
        for (long seed : seeds) {
            SecondCounts trace = new SecondCounts(s.nodes().count());
            SimulationRunner.Outcome o = SimulationRunner.runTapped(new RunSpec(s, v.policy(), seed), trace);
            out.add(new Run(v, seed, s, o.result().metrics(), trace));
        }
        return out;
    }

    /** Mean of {@code values} (NaN for none). */
    static double mean(List<Double> values) {
        return values.stream().mapToDouble(Double::doubleValue).average().orElse(Double.NaN);
    }

    /** Sample standard deviation of {@code values} (0 for one value). */
    static double sd(List<Double> values) {
        if (values.size() < 2) {
            return 0;
        }
        double m = mean(values);
        double ss = values.stream().mapToDouble(x -> (x - m) * (x - m)).sum();
        return Math.sqrt(ss / (values.size() - 1));
    }
}
