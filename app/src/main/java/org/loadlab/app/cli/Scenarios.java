package org.loadlab.app.cli;

import java.util.ArrayList;
import java.util.List;
import org.loadlab.balancer.policy.PolicyCatalog;
import org.loadlab.experiment.scenario.Scenario;
import org.loadlab.experiment.scenario.ScenarioException;
import org.loadlab.experiment.scenario.ScenarioLoader;

/** Loads scenarios for the CLI with the balancer catalog's policy names. */
final class Scenarios {
    private Scenarios() {
    }

    static ScenarioLoader loader() {
        return new ScenarioLoader(name -> PolicyCatalog.find(name).isPresent(), PolicyCatalog.names());
    }

    /**
     * Loads {@code nameOrFile} with overrides; {@code policies} and {@code seeds}, when
     * given, replace the scenario's lists and are validated like any other key.
     */
    static Scenario load(String nameOrFile, List<String> sets, String policies, String seeds) {
        return load(nameOrFile, sets, null, policies, seeds);
    }

    /**
     * Loads {@code nameOrFile} as {@link #load(String, List, String, String)} does, with the
     * policies given by the flag {@code policiesFlag}: a problem the loader finds with them
     * ({@code policies[0]: 'lin-ts' is not one of the reference model's policies}) names that
     * flag and its value as typed instead of the scenario key they became.
     *
     * @param policiesFlag the flag {@code policies} came from (e.g. {@code --policies}), or null
     * @throws ScenarioException listing every problem
     */
    static Scenario load(String nameOrFile, List<String> sets, String policiesFlag, String policies, String seeds) {
        try {
            return loadAs(nameOrFile, sets, policies, seeds);
        } catch (ScenarioException e) {
            if (policiesFlag == null || policies == null) {
                throw e;
            }
            List<String> problems = new ArrayList<>();
            for (String problem : e.problems()) {
                String key = ScenarioException.keyOf(problem);
                boolean aboutPolicies = key != null && key.matches("policies(\\[\\d+])?") && problem.startsWith(key + ": ");
                problems.add(aboutPolicies ? policiesFlag + " = '" + policies + "': " + problem.substring(key.length() + 2)
                        : problem);
            }
            throw new ScenarioException(nameOrFile, problems);
        }
    }

    private static Scenario loadAs(String nameOrFile, List<String> sets, String policies, String seeds) {
        List<String> overrides = new ArrayList<>(sets);
        if (policies != null) {
            overrides.add("policies = \"" + policies.replace("\"", "") + "\"");
        }
        if (seeds != null) {
            overrides.add("seeds = \"" + seeds.replace("\"", "") + "\"");
        }
        warnIfEmpty(nameOrFile);
        return loader().load(nameOrFile, overrides);
    }

    /**
     * Checks a policy list given on the command line ({@code simulate --policies a,b}) before
     * the scenario is loaded: the loader would name the scenario key it becomes
     * ({@code policies[0]}), not the flag the user typed. Names are split at commas and
     * trimmed, as the loader splits them.
     *
     * @param flag the flag, e.g. {@code --policies}
     * @param value its value as typed
     * @throws BadInputException naming the flag, the value, what is wrong (no name, an unknown
     *     name, a name listed twice) and the allowed names
     */
    static void checkPolicies(String flag, String value) {
        List<String> names = new ArrayList<>();
        for (String part : value.split(",")) {
            if (!part.isBlank()) {
                names.add(part.trim());
            }
        }
        ScenarioLoader loader = loader();
        String given = flag + " = '" + value + "': ";
        if (names.isEmpty()) {
            throw new BadInputException(given + "names no policy; allowed: " + loader.allowedPolicies());
        }
        List<String> unknown = names.stream().filter(n -> !loader.knownPolicy(n)).distinct().toList();
        if (!unknown.isEmpty()) {
            throw new BadInputException(given + (unknown.size() == 1 ? "'" + unknown.get(0) + "' is not a known policy"
                    : "'" + String.join("', '", unknown) + "' are not known policies") + "; allowed: " + loader.allowedPolicies());
        }
        for (int i = 0; i < names.size(); i++) {
            if (names.indexOf(names.get(i)) < i) {
                throw new BadInputException(given + "'" + names.get(i) + "' is listed twice; name each policy once");
            }
        }
    }

    /**
     * Checks a one-policy flag ({@code local-cluster --policy NAME}) before the scenario is
     * loaded, for the same reason as {@link #checkPolicies}.
     *
     * @param flag the flag, e.g. {@code --policy}
     * @param value its value as typed
     * @throws BadInputException naming the flag, the value and the allowed names
     */
    static void checkPolicy(String flag, String value) {
        ScenarioLoader loader = loader();
        if (value.contains(",")) {
            throw new BadInputException(flag + " = '" + value + "': takes one policy; allowed: " + loader.allowedPolicies());
        }
        if (!loader.knownPolicy(value.trim())) {
            throw new BadInputException(flag + " = '" + value + "': '" + value.trim() + "' is not a known policy; allowed: "
                    + loader.allowedPolicies());
        }
    }

    /**
     * Checks a seed list given on the command line ({@code --seeds 101:105}) before the
     * scenario is loaded, so that the message names the flag rather than the {@code seeds} key.
     *
     * @param flag the flag, e.g. {@code --seeds}
     * @param value its value as typed
     * @throws BadInputException naming the flag, the value and the allowed forms
     */
    static void checkSeeds(String flag, String value) {
        try {
            org.loadlab.experiment.scenario.Seeds.parse(value);
        } catch (IllegalArgumentException e) {
            // The parser's message starts "seeds = '<value>': ..."; the flag replaces the key.
            String m = e.getMessage();
            throw new BadInputException(flag + (m.startsWith("seeds") ? m.substring("seeds".length()) : ": " + m));
        }
    }

    /**
     * Warns on stderr when a scenario file holds no key at all (an empty or comment-only
     * file): it would run every default silently, which is rarely what its author meant.
     */
    static void warnIfEmpty(String nameOrFile) {
        java.nio.file.Path file = java.nio.file.Path.of(nameOrFile);
        if (org.loadlab.experiment.scenario.BuiltIns.SCENARIOS.containsKey(nameOrFile) || !java.nio.file.Files.isRegularFile(file)) {
            return;
        }
        try {
            if (org.loadlab.experiment.scenario.StrictIncludes.parseFile(file).isEmpty()) {
                System.err.println("warning: scenario file " + nameOrFile + " is empty (no keys): running the defaults of every"
                        + " key (20 nodes, Poisson arrivals at utilisation 0.7, 300 s; docs/scenarios.md)");
            }
        } catch (com.typesafe.config.ConfigException e) {
            // the loader reports the parse error with the file and line
        }
    }
}
