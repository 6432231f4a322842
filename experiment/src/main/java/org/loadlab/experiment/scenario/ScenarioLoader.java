package org.loadlab.experiment.scenario;

import org.loadlab.balancer.guardrail.Guardrails;
import org.loadlab.node.protocol.ChaosFaults;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigException;
import com.typesafe.config.ConfigFactory;
import com.typesafe.config.ConfigParseOptions;
import com.typesafe.config.ConfigRenderOptions;
import com.typesafe.config.ConfigSyntax;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.function.Predicate;
import org.loadlab.node.sharing.SharingProtocol;
import org.loadlab.node.sharing.SharingSettings;

/**
 * Loads a scenario by built-in name or HOCON file, applies {@code --set key=value}
 * overrides, merges the defaults ({@code scenario-defaults.conf}) and validates every key
 * before anything runs. All problems are reported together in a
 * {@link ScenarioException}.
 */
public final class ScenarioLoader {
    private static final List<String> PROCESSES = List.of("poisson", "on-off", "mmpp", "diurnal", "trace", "periodic");
    private static final List<String> DEMANDS = List.of("exponential", "deterministic", "lognormal", "pareto", "mixture", "trace");
    private static final List<String> COMPONENT_DEMANDS = List.of("exponential", "deterministic", "lognormal", "pareto");
    /** Values of {@code information.model}: how a balancer learns the nodes' load (SPEC §2). */
    public static final List<String> INFORMATION_MODELS = List.of("probe", "cached", "oracle");
    /** Largest {@code nodes.count} a scenario may have. */
    public static final int MAX_NODES = 1_000_000;
    /** Values of the top-level {@code model} key. */
    private static final List<String> MODEL_NAMES = List.of("message", "reference", Scenario.MODEL_BALLS_INTO_BINS);
    /** The {@code arrivals.diurnal.period} word for the request horizon requests / λ̄. */
    static final String HORIZON = "horizon";
    private static final List<String> EVENTS = List.of("fail", "recover", "degrade", "spike", "crash", "partition",
            "heartbeat-loss", "rejoin", "chaos", "join", "leave");
    /** Events the ASMF seed's time-stepped model knows. */
    private static final List<String> REFERENCE_EVENTS = List.of("fail", "recover", "degrade", "spike");
    /** Events that act on the balancers' membership (and so need balancers). */
    private static final Set<String> MEMBERSHIP_EVENTS = Set.of("crash", "partition", "heartbeat-loss", "rejoin", "join", "leave");
    private static final List<String> KEY_DISTRIBUTIONS = List.of("none", "zipf", "uniform");
    private static final List<String> RETRY_ON = List.of("error", "overloaded", "timeout", "reset");
    /** Events that last from {@code at} to {@code until}. */
    private static final Set<String> WINDOWS = Set.of("spike", "partition", "heartbeat-loss");
    private static final String SIMULATOR_GENERATOR = "reference.simulator-generator";
    private static final Set<String> SAMPLING_ASMF = Set.of("asmf", "asmf-no-feedback", "asmf-no-multiresource");

    /** Largest expected number of requests of one run (about a day of simulation). */
    static final double MAX_EXPECTED_REQUESTS = 1e11;
    /** Largest number of time-series points of one run. */
    static final double MAX_SERIES_POINTS = 1e7;

    private final Predicate<String> policyExists;
    private final String policyNames;

    /**
     * @param policyExists tells whether a policy name is known (the balancer catalog)
     * @param policyNames the known names, for error messages
     */
    public ScenarioLoader(Predicate<String> policyExists, String policyNames) {
        this.policyExists = policyExists;
        this.policyNames = policyNames;
    }

    /**
     * Whether {@code name} is a policy a scenario may list: a balancer policy of the catalog or
     * a load-sharing protocol.
     */
    public boolean knownPolicy(String name) {
        return policyExists.test(name) || Scenario.isLoadSharing(name);
    }

    /**
     * The names a scenario's {@code policies} may list, for error messages.
     *
     * @return e.g. {@code "random, round-robin, ...; load-sharing protocols (no balancer): none, ..."}
     */
    public String allowedPolicies() {
        return policyNames + "; load-sharing protocols (no balancer): " + String.join(", ", SharingProtocol.names());
    }

    /**
     * Loads a built-in scenario by name, or a HOCON / JSON file by path.
     *
     * @param nameOrFile built-in name (see {@link BuiltIns#SCENARIOS}) or a file path
     * @param overrides {@code key=value} strings applied on top (HOCON values)
     * @throws ScenarioException if the file is missing or unreadable, or any key is invalid
     */
    public Scenario load(String nameOrFile, List<String> overrides) {
        Config raw;
        Path baseDir;
        String resource = BuiltIns.SCENARIOS.get(nameOrFile);
        if (resource != null) {
            raw = ConfigFactory.parseResources(ScenarioLoader.class.getClassLoader(), resource,
                    StrictIncludes.options());
            baseDir = Path.of(".");
        } else {
            Path file = Path.of(nameOrFile);
            String missing = missing("--scenario", nameOrFile);
            if (missing != null) {
                throw new ScenarioException(nameOrFile, List.of(missing));
            }
            try {
                raw = StrictIncludes.parseFile(file);
            } catch (ConfigException e) {
                throw new ScenarioException(nameOrFile, List.of(parseProblem(file, e)));
            }
            // A results.json of an earlier run carries its scenario: run it again as it was.
            if (raw.hasPath("scenario") && raw.getValue("scenario").valueType() == com.typesafe.config.ConfigValueType.OBJECT
                    && raw.hasPath("runs")) {
                raw = raw.getConfig("scenario");
            }
            baseDir = file.toAbsolutePath().getParent();
        }
        return parse(applyOverrides(raw, overrides, nameOrFile), nameOrFile, baseDir);
    }

    /**
     * The problem line for a HOCON file that does not parse: {@code cannot parse F: line 3:
     * Expecting a value ...}. Typesafe Config's message starts with its origin, {@code F: 3:},
     * so prefixing the file named it twice ({@code cannot parse F: F: 3: ...}); the origin is
     * replaced by its line when it is {@code file} itself, and kept when it is another file
     * (one the file includes).
     *
     * @param file the file that was parsed
     * @param e the parse error
     * @return the problem, naming {@code file} once and the line when known
     */
    public static String parseProblem(Path file, ConfigException e) {
        String message = e.getMessage();
        com.typesafe.config.ConfigOrigin origin = e.origin();
        if (origin != null && origin.filename() != null && message.startsWith(origin.description() + ": ")
                && Path.of(origin.filename()).toAbsolutePath().normalize().equals(file.toAbsolutePath().normalize())) {
            String rest = message.substring(origin.description().length() + 2);
            return "cannot parse " + file + ": " + (origin.lineNumber() >= 0 ? "line " + origin.lineNumber() + ": " : "") + rest;
        }
        return "cannot parse " + file + ": " + message;
    }

    /**
     * The problem with a scenario reference that is neither a built-in name nor an existing
     * file, worded for the place the user wrote it.
     *
     * @param field where the name was written, e.g. {@code --scenario} or a campaign file's
     *     {@code scenarios[0].scenario}
     * @param nameOrFile the built-in name or file path given there
     * @return e.g. {@code --scenario = 'x': no such built-in scenario or file; built-in: ...}
     *     (or {@code ... is a directory, not a scenario file ...} for a directory, {@code ... empty ...}
     *     for an empty or blank name), or null if
     *     {@code nameOrFile} is a built-in scenario or a regular file
     */
    public static String missing(String field, String nameOrFile) {
        return missing(field, nameOrFile, "scenario file");
    }

    /**
     * {@link #missing(String, String)} for a field that takes other files too, e.g.
     * {@code validate FILE} (a scenario or a campaign file): {@code kind} names them.
     *
     * @param field the flag or argument the name was given as, e.g. {@code FILE}
     * @param nameOrFile the built-in name or file path given there
     * @param kind what the field takes, e.g. {@code scenario or campaign file}
     * @return the problem, or null if {@code nameOrFile} is a built-in scenario or a regular file
     */
    public static String missing(String field, String nameOrFile, String kind) {
        if (BuiltIns.SCENARIOS.containsKey(nameOrFile) || Files.isRegularFile(Path.of(nameOrFile))) {
            return null;
        }
        // An empty name is the path of the current directory: say it is empty, not "a directory".
        if (nameOrFile.isBlank()) {
            return field + " = '" + nameOrFile + "': empty; give a " + kind + " (HOCON) or a built-in name; built-in: "
                    + String.join(", ", BuiltIns.SCENARIOS.keySet());
        }
        // A directory exists, so "no such file" would send the user looking for the wrong mistake.
        String what = Files.isDirectory(Path.of(nameOrFile))
                ? "is a directory, not a " + kind + "; give a " + kind + " (HOCON) or a built-in name"
                : "no such built-in scenario or file";
        return field + " = '" + nameOrFile + "': " + what + "; built-in: " + String.join(", ", BuiltIns.SCENARIOS.keySet());
    }

    /**
     * Applies {@code key=value} overrides to {@code base}.
     *
     * @throws ScenarioException naming the malformed override
     */
    public static Config applyOverrides(Config base, List<String> overrides, String source) {
        if (overrides.isEmpty()) {
            return base;
        }
        List<String> problems = new ArrayList<>();
        // Each override is checked on its own (so a problem names it), then all go into one
        // document, later lines overriding earlier ones as successive fallbacks would: one parse
        // and one merge, linear in the number of overrides (merging them one by one is quadratic).
        StringBuilder doc = new StringBuilder();
        for (String o : overrides) {
            int eq = o.indexOf('=');
            if (eq <= 0) {
                problems.add("--set '" + o + "': expected key=value, e.g. --set arrivals.utilisation=0.9");
                continue;
            }
            String line = o.substring(0, eq).trim() + " = " + o.substring(eq + 1).trim();
            try {
                ConfigFactory.parseString(line, ConfigParseOptions.defaults().setSyntax(ConfigSyntax.CONF));
                doc.append(line).append('\n');
            } catch (ConfigException e) {
                problems.add("--set '" + o + "': not a valid HOCON key=value (" + e.getMessage() + ")"
                        + listHint(o.substring(0, eq).trim(), o.substring(eq + 1)));
            }
        }
        if (!problems.isEmpty()) {
            throw new ScenarioException(source, problems);
        }
        try {
            return ConfigFactory.parseString(doc.toString(), ConfigParseOptions.defaults().setSyntax(ConfigSyntax.CONF))
                    .withFallback(base);
        } catch (ConfigException e) {
            throw new ScenarioException(source, List.of("the overrides together are not valid HOCON: " + e.getMessage()));
        }
    }

    /**
     * The hint added to an override that does not parse when its value holds a comma outside
     * brackets, braces and quotes ({@code arrivals.utilisation=0.8,0.9}): the user meant several
     * values, which one {@code --set} cannot take. A campaign sweeps a key over values; a key
     * that takes a list ({@code policies}, {@code seeds}, ...) takes it in brackets.
     *
     * @param key the override's key
     * @param value the override's value as given
     * @return the hint, starting with "; ", or "" when the value has no such comma
     */
    static String listHint(String key, String value) {
        if (!hasBareComma(value)) {
            return "";
        }
        String list = "'" + key + "=[" + value.trim() + "]'";
        if (key.equals("policies") || key.equals("seeds")) {
            return "; a list goes in brackets: --set " + list;
        }
        return "; one --set takes one value: to run several values of " + key + ", sweep it in a campaign (sweep { \""
                + key + "\" = [" + value.trim() + "] }, docs/campaigns.md); if the key takes a list, write it in brackets: "
                + list;
    }

    /** Whether {@code value} holds a comma outside [...], {...} and "..." (a backslash escapes a quote). */
    private static boolean hasBareComma(String value) {
        int depth = 0;
        boolean quoted = false;
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (quoted) {
                if (c == '\\') {
                    i++;
                } else if (c == '"') {
                    quoted = false;
                }
            } else if (c == '"') {
                quoted = true;
            } else if (c == '[' || c == '{') {
                depth++;
            } else if (c == ']' || c == '}') {
                depth = Math.max(0, depth - 1);
            } else if (c == ',' && depth == 0) {
                return true;
            }
        }
        return false;
    }

    /**
     * Validates a scenario tree (without defaults) and builds the record.
     *
     * @param raw the user's tree
     * @param source name for messages
     * @param baseDir directory relative trace paths are resolved against
     * @throws ScenarioException listing every problem
     */
    public Scenario parse(Config raw, String source, Path baseDir) {
        Config defaults = ConfigFactory.parseResources(ScenarioLoader.class.getClassLoader(), "scenario-defaults.conf");
        Config merged;
        try {
            merged = raw.withFallback(defaults).resolve();
        } catch (ConfigException e) {
            // Worded so that the line does not start like "key: ..." (its origin, e.g. "String: 1:").
            throw new ScenarioException(source, List.of("cannot resolve the scenario's substitutions: " + e.getMessage()));
        }
        List<String> blocks = new ArrayList<>();
        merged = ConfigReader.blocksGivenValues(merged, defaults, blocks);
        ConfigReader r = new ConfigReader(merged);
        r.problems().addAll(blocks);
        r.sibling(raw).rejectUnknownKeys(defaults, Set.of("events", "demand.components", SIMULATOR_GENERATOR));
        // A misspelt key is ignored by everything below (its default is read), so it does not stop
        // the checks across keys; a bad value does (a check would read a value that is not the user's).
        int unknownKeys = r.problems().size();

        String name = r.string("name");
        if (!name.matches("[A-Za-z0-9._-]+") || name.startsWith(".")) {
            r.badValue("name", "'" + name + "'", "use letters, digits, '.', '_' or '-' (it names the output directory)");
        }
        String description = r.string("description");
        List<Long> seeds = List.of(101L);
        try {
            seeds = Seeds.parse(seedSpec(merged.getValue("seeds")));
        } catch (IllegalArgumentException e) {
            // The message is already "seeds = '...': ..." (key, value, what is allowed).
            r.problems().add(e.getMessage());
        }
        long topologySeed = r.integer("topology-seed", Long.MIN_VALUE, Long.MAX_VALUE);
        List<String> policies = r.strings("policies");
        if (policies.isEmpty()) {
            r.problem("policies", "empty; name at least one of: " + policyNames);
        }
        for (int i = 0; i < policies.size(); i++) {
            if (policies.indexOf(policies.get(i)) < i) {
                r.problem("policies[" + i + "]", "'" + policies.get(i) + "' is listed twice; name each policy once");
            }
            if (!knownPolicy(policies.get(i))) {
                r.problem("policies[" + i + "]", "'" + policies.get(i) + "' is not a known policy; allowed: " + allowedPolicies());
            }
        }
        double duration = r.nonNegative("duration", "seconds");
        long requests = r.integer("requests", 0, Long.MAX_VALUE);
        double warmup = r.nonNegative("warmup", "seconds");
        long warmupRequests = r.integer("warmup-requests", 0, Long.MAX_VALUE);
        double drainTimeout = r.nonNegative("drain-timeout", "seconds");
        double seriesInterval = r.positive("series-interval", "seconds");

        Scenario.Nodes nodes = nodes(r.at("nodes"), topologySeed);
        Scenario.Balancers balancers = balancers(r.at("balancers"));
        Scenario.Arrivals arrivals = arrivals(r.at("arrivals"), baseDir);
        Scenario.Demand demand = demand(r.at("demand"), true);
        Scenario.Information information = information(r.at("information"));
        Scenario.Network network = new Scenario.Network(
                r.nonNegative("network.latency", "seconds"), r.nonNegative("network.jitter", "seconds"));
        Scenario.Policy policy = policy(r.at("policy"));
        List<Scenario.Event> events = events(r, merged, nodes.count(), topologySeed);
        String model = r.oneOf("model", MODEL_NAMES);
        double step = r.positive("reference.step", "seconds");
        if (Math.abs(step * 1000 - Math.rint(step * 1000)) > 1e-9 * step * 1000) {
            r.badValue("reference.step", step, "must be a whole number of milliseconds (the seed's clock counts integer ms)");
        }
        // Not in scenario-defaults.conf, so that the resolved scenario (results.json) of every
        // other model stays as it was; docs/scenarios.md documents it with the reference keys.
        String generator = r.has(SIMULATOR_GENERATOR)
                ? r.oneOf(SIMULATOR_GENERATOR, Scenario.Reference.GENERATOR_LIFETIMES) : "fresh";
        Scenario.Reference reference = new Scenario.Reference(step,
                (int) r.integer("reference.initial-queue-max", 1, 1_000_000), generator);
        SharingSettings loadSharing = loadSharing(r.at("load-sharing"));
        Guardrails guardrails = guardrails(r.at("guardrails"));
        Scenario.Membership membership = membership(r.at("membership"));
        Scenario.Keys keys = keys(r.at("keys"));
        org.loadlab.balancer.guardrail.SlowStart slowStart = slowStart(r.at("slow-start"));
        org.loadlab.balancer.guardrail.OutlierDetection outlier = outlierDetection(r.at("outlier-detection"));
        org.loadlab.balancer.retry.RetrySettings retry = retry(r.at("retry"));
        Autonomy autonomy = AutonomyKeys.read(r, nodes.count());

        if (r.problems().size() == unknownKeys) {
            // Checks across keys only make sense once every value read is valid on its own.
            crossChecks(r, policies, duration, requests, warmup, warmupRequests, seriesInterval, nodes, balancers, arrivals,
                    demand, information, policy, events, model);
            loadSharingChecks(r, policies, nodes, network, loadSharing, model);
            if (model.equals("reference")) {
                referenceChecks(r, policies, arrivals, demand, policy);
                if (balancers.maxDecisionsInFlight() > 0) {
                    r.badValue("balancers.max-decisions-in-flight", balancers.maxDecisionsInFlight(), "the time-stepped"
                            + " model = reference decides at once (no decision is ever in flight); use 0 or model = message");
                }
                if (balancers.requestTimeout() > 0) {
                    r.badValue("balancers.request-timeout", balancers.requestTimeout(), "the time-stepped model ="
                            + " reference has no messages to time out (a job is served or queued within its step);"
                            + " use 0 or model = message");
                }
                if (nodes.speedsPerSeed()) {
                    r.badValue("nodes.speeds-per-seed", true, "model = reference draws the seed's topology from"
                            + " topology-seed, as the ASMF seed does; use false, or model = message");
                }
                if (warmupRequests > 0) {
                    r.badValue("warmup-requests", warmupRequests, "model = reference measures from time 0 as the ASMF"
                            + " seed does; use 0, or model = message");
                }
            }
            for (int i = 0; i < events.size(); i++) {
                Scenario.Event e = events.get(i);
                boolean membershipEvent = MEMBERSHIP_EVENTS.contains(e.type());
                if (model.equals("reference") && !REFERENCE_EVENTS.contains(e.type())) {
                    r.problem("events", "'" + e.type() + "' is not an event of the time-stepped model = reference (it has "
                            + String.join(", ", REFERENCE_EVENTS) + "); use model = message");
                    break;
                }
                if (model.equals("reference") && !e.type().equals("spike") && !onStep(e.at(), step)) {
                    // SPEC §4: the seed fires an event only when its clock equals the event's time exactly, so an
                    // event between two steps would never fire there; refused rather than fired a step late.
                    r.badValue("events[" + i + "].at", e.at(), "model = reference fires an event only at a step, when"
                            + " its clock equals the event's time; use a multiple of reference.step = " + step + " s");
                }
                if (membershipEvent && policies.stream().anyMatch(Scenario::isLoadSharing)) {
                    r.problem("events", "'" + e.type() + "' acts on the balancers' membership; the load-sharing protocols"
                            + " have no balancer (use fail and recover)");
                    break;
                }
            }
            if (balancers.requestTimeout() > 0 && policies.stream().anyMatch(Scenario::isLoadSharing)) {
                r.badValue("balancers.request-timeout", balancers.requestTimeout(), "the load-sharing protocols have no"
                        + " balancer to time requests out; use 0");
            }
            productionChecks(r, policies, model, nodes, keys, policy, slowStart, outlier, retry, events);
            AutonomyKeys.crossCheck(r, autonomy, policies, model, nodes.count(),
                    policies.stream().allMatch(Scenario::isLoadSharing));
            if (arrivals.process().equals("periodic") && events.stream().anyMatch(e -> e.type().equals("spike"))) {
                r.problem("events", "a spike scales a random arrival rate; arrivals.process = periodic spaces arrivals"
                        + " evenly (use poisson)");
            }
        }
        if (!r.problems().isEmpty()) {
            throw new ScenarioException(source, r.problems());
        }
        // A key added after results were recorded is left out of results.json at its default, so
        // earlier results stay byte-identical (a rerun from the file reads the default again).
        Config written = balancers.requestTimeout() == 0 ? merged.withoutPath("balancers.request-timeout") : merged;
        String json = written.root().render(ConfigRenderOptions.concise().setJson(true));
        return new Scenario(name, description, seeds, topologySeed, policies, duration, requests, warmup, warmupRequests,
                drainTimeout, seriesInterval, nodes, balancers, arrivals, demand, information, network, policy,
                events, json, model, reference, loadSharing, guardrails, membership, keys, slowStart, outlier, retry,
                autonomy);
    }

    /** Checks of the production mechanisms across keys (issue 14). */
    private void productionChecks(ConfigReader r, List<String> policies, String model, Scenario.Nodes nodes, Scenario.Keys keys,
                                  Scenario.Policy policy, org.loadlab.balancer.guardrail.SlowStart slowStart,
                                  org.loadlab.balancer.guardrail.OutlierDetection outlier,
                                  org.loadlab.balancer.retry.RetrySettings retry, List<Scenario.Event> events) {
        for (String p : policies) {
            if (model.equals("reference") && org.loadlab.balancer.policy.PolicyCatalog.messageOnly(p)
                    && !p.equals("sticky-lazy") && !p.equals("strict-po2c")) {
                r.problem("policies", "'" + p + "' needs the message-level model (it measures latency, hashes keys or"
                        + " probes asynchronously); use model = message");
            }
            if (org.loadlab.balancer.policy.PolicyCatalog.hashesKeys(p) && !keys.present()) {
                r.badValue("keys.distribution", "'none'", "policy '" + p + "' hashes the request key; set zipf or uniform");
            }
            if (policy.production().errorPenalty() > 0 && !Scenario.isLoadSharing(p)
                    && !org.loadlab.balancer.policy.PolicyCatalog.scored(p)) {
                r.badValue("policy.error-penalty", policy.production().errorPenalty(), "'" + p + "' does not rank nodes by a"
                        + " score; error-aware scoring applies to " + String.join(", ", org.loadlab.balancer.policy.PolicyCatalog
                        .entries().stream().map(e -> e.name()).filter(org.loadlab.balancer.policy.PolicyCatalog::scored).toList())
                        + " (drop '" + p + "' from policies or set error-penalty = 0)");
            }
        }
        if (retry.ownPolicy()) {
            String rp = retry.policy();
            if (!policyExists.test(rp)) {
                r.badValue("retry.policy", "'" + rp + "'", "'same' or a policy: " + policyNames);
            } else if (org.loadlab.balancer.policy.PolicyCatalog.hashesKeys(rp) && !keys.present()) {
                r.badValue("keys.distribution", "'none'", "retry.policy '" + rp + "' hashes the request key; set zipf or uniform");
            }
        }
        boolean anyBalancer = policies.stream().anyMatch(p -> !Scenario.isLoadSharing(p));
        boolean production = slowStart.enabled() || outlier.enabled() || retry.tracksRequests() || nodes.errors().rate() > 0;
        if (model.equals("reference") && production) {
            r.problem("model", "'reference' (the ASMF seed's time-stepped model) has no slow start, outlier ejection, retries"
                    + " or node errors; use model = message");
        }
        if (!anyBalancer && (slowStart.enabled() || outlier.enabled() || retry.tracksRequests())) {
            r.problem("policies", "slow-start, outlier-detection and retry act in the balancers; the load-sharing protocols"
                    + " have none");
        }
        checkLossesCountedOnce(events, r);
        if (retry.tracksRequests()) {
            for (Scenario.Event e : events) {
                boolean nodeCounts = e.type().equals("fail") || e.type().equals("chaos") && e.fault().equals("crash");
                if (nodeCounts) {
                    r.problem("events", "'" + (e.type().equals("fail") ? "fail" : "chaos crash") + "' makes the node count the"
                            + " requests it loses, and with retry (max-retries > 0 or per-try-timeout > 0) a lost attempt may"
                            + " also be retried and served: it would be counted twice; use a crash event (the balancer counts"
                            + " what it loses, as on a cluster)");
                    break;
                }
            }
        }
    }

    /**
     * A node that counts the requests it loses ({@code fail}, chaos {@code crash}) must not also
     * be removed ({@code crash}, {@code partition}): at the removal the balancers count their
     * requests in flight there as lost, which include those the node already counted, so the
     * run's books would count them twice (its conservation check then stops it). Events that
     * pick their nodes by {@code fraction} have them resolved by now, so the sets compare exactly.
     */
    private static void checkLossesCountedOnce(List<Scenario.Event> events, ConfigReader r) {
        for (Scenario.Event f : events) {
            boolean nodeCounts = f.type().equals("fail") || f.type().equals("chaos") && f.fault().equals("crash");
            if (!nodeCounts) {
                continue;
            }
            for (Scenario.Event c : events) {
                if (!c.type().equals("crash") && !c.type().equals("partition")) {
                    continue;
                }
                List<Integer> both = f.nodes().stream().filter(c.nodes()::contains).toList();
                if (!both.isEmpty()) {
                    String what = f.type().equals("fail") ? "fail" : "chaos crash";
                    r.problem("events", "'" + what + "' at " + f.at() + " s and '" + c.type() + "' at " + c.at() + " s hit the"
                            + " same node" + (both.size() > 1 ? "s " : " ") + both + ": a " + what + "ed node counts"
                            + " the requests it loses, and its removal makes the balancers count their requests in flight"
                            + " there as lost too, so they would be counted twice; give them different nodes, or use crash"
                            + " and rejoin for a failure the balancers hear of");
                    return;
                }
            }
        }
    }

    /** The smallest prime ≥ {@code n}. */
    private static long nextPrime(long n) {
        long p = n;
        while (!org.loadlab.balancer.policy.ProductionParameters.isPrime(p)) {
            p++;
        }
        return p;
    }

    /** The {@code keys} block: affinity keys of the requests. */
    private static Scenario.Keys keys(ConfigReader r) {
        String dist = r.oneOf("distribution", KEY_DISTRIBUTIONS);
        int count = (int) r.integer("count", 1, 100_000_000);
        double s = r.nonNegative("zipf-exponent", "");
        return new Scenario.Keys(dist, count, s);
    }

    /** The {@code slow-start} block (Envoy's slow start). */
    private static org.loadlab.balancer.guardrail.SlowStart slowStart(ConfigReader r) {
        double window = r.nonNegative("window", "seconds (0: off)");
        double aggression = r.positive("aggression", "");
        double min = r.number("min-weight");
        if (!(min > 0 && min <= 1)) {
            r.badValue("min-weight", min, "a share in (0, 1] (Envoy: 0.1)");
            return org.loadlab.balancer.guardrail.SlowStart.OFF;
        }
        try {
            return new org.loadlab.balancer.guardrail.SlowStart(window, aggression, min);
        } catch (IllegalArgumentException e) {
            return org.loadlab.balancer.guardrail.SlowStart.OFF; // the problem is recorded above
        }
    }

    /** The {@code outlier-detection} block (Envoy's passive outlier detection). */
    private static org.loadlab.balancer.guardrail.OutlierDetection outlierDetection(ConfigReader r) {
        boolean enabled = r.bool("enabled");
        int consecutive = (int) r.integer("consecutive-errors", 0, 1_000_000);
        double interval = r.positive("interval", "seconds");
        double base = r.positive("base-ejection-time", "seconds");
        double max = r.positive("max-ejection-time", "seconds");
        if (max < base) {
            r.badValue("max-ejection-time", max, "must be >= base-ejection-time = " + base + " s");
        }
        boolean sr = r.bool("success-rate.enabled");
        int hosts = (int) r.integer("success-rate.minimum-hosts", 1, 1_000_000);
        int volume = (int) r.integer("success-rate.request-volume", 1, 1_000_000_000);
        double factor = r.nonNegative("success-rate.stdev-factor", "standard deviations");
        try {
            return new org.loadlab.balancer.guardrail.OutlierDetection(enabled, consecutive, interval, base, max, sr, hosts,
                    volume, factor);
        } catch (IllegalArgumentException e) {
            return org.loadlab.balancer.guardrail.OutlierDetection.OFF; // the problem is recorded above
        }
    }

    /** The {@code retry} block (Envoy's retry policy and retry budget). */
    private static org.loadlab.balancer.retry.RetrySettings retry(ConfigReader r) {
        int max = (int) r.integer("max-retries", 0, 100);
        java.util.Set<org.loadlab.node.protocol.ResponseStatus> on = java.util.EnumSet.noneOf(
                org.loadlab.node.protocol.ResponseStatus.class);
        for (String c : r.strings("retry-on")) {
            switch (c) {
                case "error" -> on.add(org.loadlab.node.protocol.ResponseStatus.ERROR);
                case "overloaded" -> on.add(org.loadlab.node.protocol.ResponseStatus.OVERLOADED);
                case "timeout" -> on.add(org.loadlab.node.protocol.ResponseStatus.TIMEOUT);
                case "reset" -> on.add(org.loadlab.node.protocol.ResponseStatus.RESET);
                default -> r.badValue("retry-on", "'" + c + "'", "a list of " + String.join(", ", RETRY_ON));
            }
        }
        double timeout = r.nonNegative("per-try-timeout", "seconds (0: none)");
        double base = r.nonNegative("backoff.base", "seconds");
        double bmax = r.nonNegative("backoff.max", "seconds");
        if (bmax < base) {
            r.badValue("backoff.max", bmax, "must be >= backoff.base = " + base + " s (the cap of the jittered wait)");
        }
        boolean budget = r.bool("budget.enabled");
        double percent = r.between("budget.percent", 0, 100, "percent of active requests");
        int min = (int) r.integer("budget.min-concurrency", 0, 1_000_000);
        String policy = r.string("policy");
        if (max > 0 && on.isEmpty()) {
            r.badValue("retry-on", "[]", "name what is retried (error, overloaded, timeout, reset) or set max-retries = 0");
        }
        try {
            return new org.loadlab.balancer.retry.RetrySettings(max, on, timeout, base, bmax, budget, percent, min, policy);
        } catch (IllegalArgumentException e) {
            return org.loadlab.balancer.retry.RetrySettings.OFF; // the problem is recorded above
        }
    }

    /**
     * What the balls-into-bins model needs: a number of balls, and balancer policies (the
     * load-sharing protocols move tasks between serving nodes, which bins do not do).
     */
    private static void ballsIntoBinsChecks(ConfigReader r, List<String> policies, long requests) {
        if (requests == 0) {
            r.badValue("requests", 0, "model = balls-into-bins drops `requests` balls into nodes.count bins; set the"
                    + " number of balls, e.g. requests = 10000");
        }
        for (int i = 0; i < policies.size(); i++) {
            if (Scenario.isLoadSharing(policies.get(i))) {
                r.problem("policies[" + i + "]", "'" + policies.get(i) + "' is a load-sharing protocol; bins never serve,"
                        + " so there is nothing to share: model = balls-into-bins takes balancer policies");
            }
        }
    }

    /** The diurnal period's horizon form and the burst windows' start fractions. */
    private static void diurnalChecks(ConfigReader r, Scenario.Diurnal d, boolean used, long requests) {
        if (used && d.periodIsHorizon() && requests == 0) {
            r.badValue("arrivals.diurnal.period", HORIZON, "the horizon is requests / the mean arrival rate, but requests"
                    + " = 0; set requests (e.g. 30000) or give the period in seconds");
        }
        List<Double> starts = d.burstStarts();
        if (!used) {
            return;
        }
        if (starts.isEmpty()) {
            if (d.burstWindows() * d.burstWidth() > 1) {
                r.badValue("arrivals.diurnal.burst-width", d.burstWidth(), d.burstWindows() + " windows of this width"
                        + " do not fit in one period; allowed: at most 1/burst-windows = " + 1.0 / d.burstWindows());
            }
            return;
        }
        if (starts.size() != d.burstWindows()) {
            r.badValue("arrivals.diurnal.burst-starts", starts, "lists " + starts.size() + " window(s) but burst-windows = "
                    + d.burstWindows() + "; set burst-windows = " + starts.size() + " (or [] for evenly spaced windows)");
            return;
        }
        double previousEnd = 0;
        for (int i = 0; i < starts.size(); i++) {
            double s = starts.get(i);
            if (s < previousEnd - 1e-12) {
                r.badValue("arrivals.diurnal.burst-starts[" + i + "]", s, "starts before window " + (i - 1) + " ends at "
                        + previousEnd + " (start + burst-width " + d.burstWidth() + "); list the starts in increasing"
                        + " order, windows not overlapping");
                return;
            }
            previousEnd = s + d.burstWidth();
            if (previousEnd > 1 + 1e-12) {
                r.badValue("arrivals.diurnal.burst-starts[" + i + "]", s, "the window would end at " + previousEnd
                        + " of the period (start + burst-width " + d.burstWidth() + "); a window must end within the"
                        + " period (at most 1)");
                return;
            }
        }
    }

    /** The {@code guardrails} block (seed 003, Envoy's panic threshold and ejection cap). */
    private static Guardrails guardrails(ConfigReader r) {
        boolean enabled = r.bool("enabled");
        double cpu = r.number("cpu-mask-above");
        if (!(cpu >= 0 && cpu <= 1)) {
            r.badValue("cpu-mask-above", cpu, "a CPU share in [0, 1] (1 never masks)");
        }
        int missed = (int) r.integer("offline-after-missed-probes", 0, 1_000_000);
        double offline = r.nonNegative("offline-after", "seconds (0: off)");
        double stale = r.nonNegative("stale-after", "seconds (0: off)");
        double panic = r.number("panic-threshold");
        if (!(panic >= 0 && panic <= 1)) {
            r.badValue("panic-threshold", panic, "a share in [0, 1]");
        }
        double eject = r.number("max-ejection-share");
        if (!(eject >= 0 && eject <= 1)) {
            r.badValue("max-ejection-share", eject, "a share in [0, 1]");
        }
        int redecide = (int) r.integer("redecide-attempts", 0, 1000);
        try {
            return new Guardrails(enabled, cpu, missed, offline, stale, panic, eject, redecide);
        } catch (IllegalArgumentException e) {
            return Guardrails.OFF; // the problem is recorded above
        }
    }

    /** The {@code membership} block: delays of simulated membership news. */
    private static Scenario.Membership membership(ConfigReader r) {
        double unreachable = r.nonNegative("unreachable-after", "seconds");
        double removed = r.nonNegative("removed-after", "seconds");
        if (removed < unreachable) {
            r.badValue("removed-after", removed, "must be >= unreachable-after = " + unreachable
                    + " s (a member is unreachable before it is downed)");
        }
        return new Scenario.Membership(unreachable, removed);
    }

    /**
     * What the time-stepped reference model (the ASMF seed's simulator, SPEC.md §4) can run:
     * the seed's eight policies, its Poisson counts per step (optionally × a square wave),
     * exponential job sizes, and rejection below τ.
     */
    private static void referenceChecks(ConfigReader r, List<String> policies, Scenario.Arrivals arrivals,
                                        Scenario.Demand demand, Scenario.Policy policy) {
        for (int i = 0; i < policies.size(); i++) {
            // Load-sharing protocols get their own message (loadSharingChecks).
            if (!Scenario.Reference.POLICIES.contains(policies.get(i)) && !Scenario.isLoadSharing(policies.get(i))) {
                r.problem("policies[" + i + "]", "'" + policies.get(i) + "' is not one of the reference model's policies"
                        + " (the ASMF seed's own): " + String.join(", ", Scenario.Reference.POLICIES)
                        + "; other policies need model = message");
            }
        }
        if (!arrivals.process().equals("poisson") && !arrivals.process().equals("on-off")) {
            r.badValue("arrivals.process", "'" + arrivals.process() + "'", "model = reference draws the seed's Poisson"
                    + " count per step, optionally times a square wave; allowed: poisson, on-off");
        }
        if (!(arrivals.rate() > 0)) {
            r.badValue("arrivals.rate", arrivals.rate(), "model = reference needs the arrival rate in jobs/s"
                    + " (the seed's jobs per step / reference.step), not a utilisation");
        }
        if (!demand.distribution().equals("exponential")) {
            r.badValue("demand.distribution", "'" + demand.distribution() + "'", "model = reference draws the seed's"
                    + " exponential job sizes; allowed: exponential");
        }
        if (policy.rejection().mode().equals("delay")) {
            r.badValue("policy.rejection.mode", "'delay'", "the time-stepped model = reference rejects as the ASMF seed"
                    + " does; delay mode needs model = message");
        }
    }

    /** The {@code load-sharing} block; SPEC §7 defaults where a key is invalid (the problem is recorded). */
    private static SharingSettings loadSharing(ConfigReader r) {
        int before = r.problems().size();
        int threshold = (int) r.integer("threshold", 1, 1_000_000);
        int pollLimit = (int) r.integer("poll-limit", 1, 1_000_000);
        double pollLatency = r.nonNegative("poll-latency", "seconds");
        double pollTimeout = r.positive("poll-timeout", "seconds");
        double transferDelay = r.nonNegative("transfer-delay", "seconds");
        double transferCost = r.nonNegative("transfer-cost", "work units");
        double pollCost = r.nonNegative("poll-cost", "work units");
        int maxTransfers = (int) r.integer("max-transfers", 1, 1_000);
        double retryPeriod = r.positive("retry-period", "seconds");
        double range = r.positive("above-average.acceptable-range", "tasks");
        double initial = r.nonNegative("above-average.initial-average", "tasks");
        double step = r.positive("above-average.average-step", "tasks");
        double tooHigh = r.positive("above-average.too-high-timeout", "seconds");
        double tooLow = r.positive("above-average.too-low-timeout", "seconds");
        double awaiting = r.positive("above-average.awaiting-task-timeout", "seconds");
        if (r.problems().size() > before) {
            return SharingSettings.defaults();
        }
        return new SharingSettings(threshold, pollLimit, pollLatency, pollTimeout, transferDelay, transferCost, pollCost,
                maxTransfers, retryPeriod, new SharingSettings.AboveAverage(range, initial, step, tooHigh, tooLow, awaiting));
    }

    /** Largest cluster for the stable protocols, whose lists hold every peer at every node (n² entries). */
    static final int MAX_STABLE_NODES = 4096;

    /** Checks that only matter when a policy is a load-sharing protocol (SPEC §7). */
    private static void loadSharingChecks(ConfigReader r, List<String> policies, Scenario.Nodes nodes, Scenario.Network network,
                                          SharingSettings ls, String model) {
        List<String> protocols = policies.stream().filter(Scenario::isLoadSharing).toList();
        if (protocols.isEmpty()) {
            return;
        }
        String which = "the load-sharing protocol(s) " + String.join(", ", protocols);
        if (!model.equals("message")) {
            r.badValue("model", "'" + model + "'", which + " exchange messages; use model = message");
        }
        if (nodes.queueCapacity() > 0) {
            r.badValue("nodes.queue-capacity", nodes.queueCapacity(), which + " keep every task (no rejection); use 0");
        }
        if (nodes.count() < 2 && protocols.stream().anyMatch(p -> !p.equals("none"))) {
            r.badValue("nodes.count", nodes.count(), which + " share load between peers; use at least 2 nodes");
        }
        List<String> stable = protocols.stream().filter(p -> SharingProtocol.of(p).keepsPeerLists()).toList();
        if (!stable.isEmpty() && nodes.count() > MAX_STABLE_NODES) {
            r.badValue("nodes.count", nodes.count(), String.join(", ", stable) + " keep a list entry for every peer at every node"
                    + " (n² in all); allowed: at most " + MAX_STABLE_NODES);
        }
        double oneWay = network.latency() + ls.pollLatency();
        if (ls.pollTimeout() <= 2 * oneWay) {
            r.badValue("load-sharing.poll-timeout", ls.pollTimeout(), String.format(java.util.Locale.ROOT,
                    "not longer than a poll's round trip 2 x (network.latency + load-sharing.poll-latency) = %.4g s:"
                            + " every poll would time out; use a longer timeout", 2 * oneWay));
        }
        if (protocols.contains("above-average")) {
            SharingSettings.AboveAverage a = ls.aboveAverage();
            if (a.tooHighTimeout() <= 2 * oneWay) {
                r.badValue("load-sharing.above-average.too-high-timeout", a.tooHighTimeout(), String.format(java.util.Locale.ROOT,
                        "not longer than the TooHigh / Accept round trip %.4g s; use a longer timeout", 2 * oneWay));
            }
            if (a.tooLowTimeout() <= 2 * oneWay) {
                r.badValue("load-sharing.above-average.too-low-timeout", a.tooLowTimeout(), String.format(java.util.Locale.ROOT,
                        "not longer than the TooLow / TooHigh round trip %.4g s; use a longer timeout", 2 * oneWay));
            }
            double promise = oneWay + network.latency() + ls.transferDelay();
            if (a.awaitingTaskTimeout() <= promise) {
                r.badValue("load-sharing.above-average.awaiting-task-timeout", a.awaitingTaskTimeout(), String.format(
                        java.util.Locale.ROOT, "not longer than an Accept plus the transfer it asks for (%.4g s): every promised"
                                + " task would be sent back; use a longer timeout", promise));
            }
        }
    }

    /**
     * A seeds value as a spec string for {@link Seeds#parse}: "101:120", or a HOCON list
     * [101, 105] joined with commas. Scenario and campaign files read {@code seeds} with it.
     *
     * @param v the value of a {@code seeds} key (a string, a number or a list)
     * @return the specification, e.g. {@code "101,105"}
     */
    public static String seedSpec(com.typesafe.config.ConfigValue v) {
        if (v.valueType() == com.typesafe.config.ConfigValueType.LIST) {
            return String.join(",", ((java.util.List<?>) v.unwrapped()).stream().map(String::valueOf).toList());
        }
        return String.valueOf(v.unwrapped());
    }

    private static Scenario.Nodes nodes(ConfigReader r, long topologySeed) {
        int count = (int) r.integer("count", 1, MAX_NODES);
        int servers = (int) r.integer("servers", 1, 100_000);
        String dist = r.oneOf("service-rate.distribution", List.of("constant", "uniform"));
        double value = r.nonNegative("service-rate.value", "work units/s");
        double min = r.nonNegative("service-rate.min", "work units/s");
        double max = r.nonNegative("service-rate.max", "work units/s");
        if (dist.equals("uniform") && !(max >= min)) {
            r.problem("service-rate.max", max + " is below service-rate.min = " + min);
        }
        if (dist.equals("constant") && value == 0) {
            r.problem("service-rate.value", "0: nodes must have a service rate > 0 (work units/s)");
        }
        int capacity = (int) r.integer("queue-capacity", 0, Integer.MAX_VALUE);
        double resourcePeriod = r.positive("resource-period", "seconds");
        double heartbeat = r.nonNegative("heartbeat-period", "seconds (0: no heartbeats)");
        boolean speedsPerSeed = r.bool("speeds-per-seed");
        return new Scenario.Nodes(count, servers, dist, value, min, max, capacity, resourcePeriod, heartbeat, speedsPerSeed,
                nodeErrors(r.at("errors"), count, topologySeed));
    }

    /** The {@code nodes.errors} block: which nodes fail requests, how often, and whether fast. */
    private static Scenario.NodeErrors nodeErrors(ConfigReader r, int n, long topologySeed) {
        double rate = r.between("rate", 0, 1, "probability");
        boolean fast = r.bool("fast");
        List<Integer> listed = new ArrayList<>();
        try {
            listed.addAll(r.config().getIntList("nodes"));
        } catch (ConfigException e) {
            r.problem("nodes", "must be a list of node indices");
        }
        double fraction = r.number("fraction");
        if (!listed.isEmpty() && fraction != 0) {
            r.problem("nodes", "name the failing nodes with either nodes = [0, 3] or fraction = 0.2 (one of them)");
        }
        if (!(fraction >= 0 && fraction <= 1)) {
            r.badValue("fraction", fraction, "must be in [0, 1] (0: use nodes, or all nodes when nodes is empty)");
            fraction = 0;
        }
        List<Integer> nodes = new ArrayList<>();
        for (int node : listed) {
            if (node < 0 || node >= n) {
                r.problem("nodes", "node " + node + " does not exist; allowed: 0.." + (n - 1));
            } else if (!nodes.contains(node)) {
                nodes.add(node);
            }
        }
        if (listed.isEmpty()) {
            if (fraction > 0) {
                int[] order = nodeOrder(n, topologySeed);
                for (int k = 0; k < (int) Math.ceil(fraction * n); k++) {
                    nodes.add(order[k]);
                }
            } else {
                for (int j = 0; j < n; j++) {
                    nodes.add(j);
                }
            }
        }
        nodes.sort(null);
        return rate == 0 ? Scenario.NodeErrors.NONE : new Scenario.NodeErrors(rate, List.copyOf(nodes), fast);
    }

    private static Scenario.Balancers balancers(ConfigReader r) {
        int count = (int) r.integer("count", 1, 100_000);
        String split = r.oneOf("split", List.of("uniform", "zipf"));
        double zipf = r.nonNegative("zipf-exponent", "");
        String allowed = r.oneOf("allowed", List.of("all", "fraction"));
        double fraction = r.between("allowed-fraction", 0, 1, "");
        int min = (int) r.integer("allowed-min", 1, Integer.MAX_VALUE);
        int maxInFlight = (int) r.integer("max-decisions-in-flight", 0, 1_000_000);
        double requestTimeout = r.nonNegative("request-timeout", "seconds; 0 = no timeout");
        return new Scenario.Balancers(count, split, zipf, allowed, fraction, min, maxInFlight, requestTimeout);
    }

    private static Scenario.Arrivals arrivals(ConfigReader r, Path baseDir) {
        String process = r.oneOf("process", PROCESSES);
        double utilisation = r.nonNegative("utilisation", "");
        double rate = r.nonNegative("rate", "requests/s");
        if (rate == 0 && utilisation == 0) {
            r.problem("utilisation", "0 while arrivals.rate is 0: set a utilisation in (0, 1) or a rate > 0 requests/s");
        }
        Scenario.OnOff onOff = new Scenario.OnOff(r.nonNegative("on-off.high-factor", ""), r.nonNegative("on-off.low-factor", ""),
                r.positive("on-off.period", "seconds"), r.between("on-off.duty", 0, 1, ""));
        Scenario.Mmpp mmpp = new Scenario.Mmpp(r.nonNegative("mmpp.high-factor", ""), r.nonNegative("mmpp.low-factor", ""),
                r.positive("mmpp.mean-on", "seconds"), r.positive("mmpp.mean-off", "seconds"));
        boolean horizon = isWord(r, "diurnal.period", HORIZON);
        double period = horizon ? 0 : periodSeconds(r);
        Scenario.Diurnal diurnal = new Scenario.Diurnal(r.between("diurnal.amplitude", 0, 1, ""), period, horizon,
                (int) r.integer("diurnal.burst-windows", 0, 1000), r.positive("diurnal.burst-factor", ""),
                r.between("diurnal.burst-width", 0, 1, "fraction of the period"), fractions(r, "diurnal.burst-starts"));
        String file = r.string("trace.file");
        boolean loop = r.bool("trace.loop");
        String resolved = "";
        if (process.equals("trace")) {
            resolved = resolveTrace(r, file, baseDir);
        }
        return new Scenario.Arrivals(process, utilisation, rate, onOff, mmpp, diurnal, new Scenario.Trace(resolved, loop));
    }

    /** True if {@code path} holds the string {@code word} (and not a number written as a string). */
    private static boolean isWord(ConfigReader r, String path, String word) {
        return r.has(path) && r.config().getValue(path).valueType() == com.typesafe.config.ConfigValueType.STRING
                && word.equals(r.config().getString(path).trim());
    }

    /** {@code arrivals.diurnal.period} as seconds, with a message that also names {@code horizon}. */
    private static double periodSeconds(ConfigReader r) {
        String path = "diurnal.period";
        if (r.has(path) && r.config().getValue(path).valueType() == com.typesafe.config.ConfigValueType.STRING) {
            String text = r.config().getString(path).trim();
            try {
                Double.parseDouble(text);
            } catch (NumberFormatException e) {
                r.badValue(path, "'" + text + "'", "must be seconds (0 = the duration) or " + HORIZON
                        + " (requests / the mean arrival rate)");
                return 0;
            }
        }
        return r.nonNegative(path, "seconds (0 = duration), or " + HORIZON);
    }

    /** A list of numbers, each a fraction in [0, 1); records a problem and returns an empty list otherwise. */
    private static List<Double> fractions(ConfigReader r, String path) {
        List<Double> out = new ArrayList<>();
        try {
            for (Number v : r.config().getNumberList(path)) {
                out.add(v.doubleValue());
            }
        } catch (ConfigException.Missing e) {
            return List.of();
        } catch (ConfigException e) {
            r.problem(path, "must be a list of numbers, fractions of the period in [0, 1), e.g. [0.1, 0.5, 0.8]");
            return List.of();
        }
        for (int i = 0; i < out.size(); i++) {
            double f = out.get(i);
            if (!(f >= 0 && f < 1)) {
                r.badValue(path + "[" + i + "]", f, "a window start is a fraction of the period in [0, 1)");
                return List.of();
            }
        }
        return List.copyOf(out);
    }

    private static String resolveTrace(ConfigReader r, String file, Path baseDir) {
        if (file.isBlank()) {
            r.problem("trace.file", "empty; arrivals.process = trace needs a CSV path or a built-in trace: "
                    + String.join(", ", BuiltIns.TRACES.keySet()));
            return "";
        }
        String resource = BuiltIns.TRACES.get(file);
        if (resource != null) {
            return "classpath:" + resource;
        }
        Path p = Path.of(file);
        if (!p.isAbsolute() && baseDir != null && Files.isRegularFile(baseDir.resolve(p))) {
            p = baseDir.resolve(p);
        }
        if (Files.isDirectory(p)) {
            r.problem("trace.file", "'" + file + "' is a directory; name a CSV file");
            return "";
        }
        if (!Files.isRegularFile(p)) {
            r.problem("trace.file", "'" + file + "': no such file (looked in " + Path.of("").toAbsolutePath()
                    + (baseDir != null ? " and " + baseDir : "") + "); built-in traces: " + String.join(", ", BuiltIns.TRACES.keySet()));
            return "";
        }
        String resolved = p.toAbsolutePath().normalize().toString();
        return readable(r, file, resolved) ? resolved : "";
    }

    /** Reads the trace now (it is cached for the runs) so a broken file is a validation error. */
    private static boolean readable(ConfigReader r, String file, String resolved) {
        try {
            org.loadlab.workload.trace.Trace t = WorkloadBuilder.loadTrace(resolved);
            if (t.size() < 2 || !(t.spanSeconds() > 0)) {
                r.problem("trace.file", "'" + file + "' has " + t.size() + " request(s) over " + t.spanSeconds()
                        + " s; a replay needs at least two requests at different times");
                return false;
            }
            return true;
        } catch (RuntimeException e) {
            String why = e.getCause() instanceof java.nio.charset.CharacterCodingException
                    ? "is not a UTF-8 text (CSV) file"
                    : e instanceof java.io.UncheckedIOException u ? "cannot read it (" + u.getCause().getMessage() + ")" : e.getMessage();
            r.problem("trace.file", "'" + file + "': " + why);
            return false;
        }
    }

    private Scenario.Demand demand(ConfigReader r, boolean topLevel) {
        String dist = r.oneOf("distribution", topLevel ? DEMANDS : COMPONENT_DEMANDS);
        double mean = r.positive("mean", "work units");
        double sigma = r.positive("sigma", "");
        double alpha = r.number("alpha");
        if (dist.equals("pareto") && !(alpha > 1)) {
            r.problem("alpha", alpha + ": a Pareto demand needs alpha > 1 (finite mean)");
        }
        List<Scenario.Component> components = new ArrayList<>();
        String scaling = topLevel ? r.oneOf("mixture-scaling", Scenario.Demand.MIXTURE_SCALINGS) : "components";
        if (topLevel) {
            List<? extends Config> list = r.objects("components");
            Config componentDefaults = r.config().withoutPath("components").withoutPath("distribution");
            for (int i = 0; i < list.size(); i++) {
                ConfigReader c = r.child(list.get(i).withFallback(componentDefaults), r.key("components[" + i + "]"));
                double weight = c.positive("weight", "");
                if (scaling.equals("mixture") && list.get(i).hasPath("mean")) {
                    c.problem("mean", "with demand.mixture-scaling = mixture a component keeps its standard form (exponential"
                            + " mean 1, lognormal mu 0, Pareto x_m 1) and only the mixture is scaled to demand.mean; remove"
                            + " it, or use mixture-scaling = components");
                }
                components.add(new Scenario.Component(weight, demand(c, false)));
            }
            if (dist.equals("mixture") && components.isEmpty()) {
                r.problem("components", "empty; a mixture needs [{ weight = ..., distribution = ... }, ...]");
            }
        }
        double prefill = topLevel ? r.nonNegative("prefill-seconds-per-token", "seconds/token") : 0;
        double decode = topLevel ? r.nonNegative("decode-seconds-per-token", "seconds/token") : 0;
        return new Scenario.Demand(dist, mean, sigma, alpha, components, prefill, decode, scaling);
    }

    private static Scenario.Information information(ConfigReader r) {
        String model = r.oneOf("model", INFORMATION_MODELS);
        double timeout = r.positive("probe-timeout", "seconds");
        double period = r.nonNegative("report-period", "seconds");
        double delay = r.nonNegative("report-delay", "seconds");
        if (model.equals("cached") && period == 0) {
            r.problem("report-period", "0: the cached model needs nodes to report, set a period > 0 seconds");
        }
        return new Scenario.Information(model, timeout, period, delay);
    }

    private static Scenario.Policy policy(ConfigReader r) {
        int k = (int) r.integer("k", 1, Integer.MAX_VALUE);
        boolean withReplacement = r.oneOf("k-sampling", Scenario.Policy.K_SAMPLINGS).equals("with-replacement");
        ConfigReader a = r.at("asmf");
        Scenario.Asmf asmf = new Scenario.Asmf((int) a.integer("k", 1, Integer.MAX_VALUE),
                a.nonNegative("alpha", ""), a.nonNegative("beta", ""), a.nonNegative("gamma", ""), a.nonNegative("delta", ""),
                a.nonNegative("tau", ""), a.nonNegative("eta", ""), a.positive("c-min", ""), a.positive("c-max", ""),
                a.positive("window", "seconds"));
        if (asmf.cMax() < asmf.cMin()) {
            a.problem("c-max", asmf.cMax() + " is below c-min = " + asmf.cMin());
        }
        int threshold = (int) r.integer("sticky-lazy.threshold", 1, 1_000_000);
        String credit = r.oneOf("sticky-lazy.credit", org.loadlab.balancer.policy.StickyCache.Credit.keys());
        ConfigReader rj = r.at("rejection");
        Scenario.Rejection rejection = new Scenario.Rejection(rj.oneOf("mode", List.of("reject", "delay")),
                (int) rj.integer("buffer", 1, 10_000_000), rj.positive("backoff", "seconds"), rj.number("multiplier"),
                (int) rj.integer("attempts", 1, 1000));
        if (rejection.multiplier() < 1) {
            rj.badValue("multiplier", rejection.multiplier(), "must be >= 1 (the wait never shrinks)");
        }
        return new Scenario.Policy(k, withReplacement, asmf, new Scenario.StickyLazy(threshold, credit), rejection, production(r));
    }

    /** The production policies' keys in the {@code policy} block. */
    private static org.loadlab.balancer.policy.ProductionParameters production(ConfigReader r) {
        org.loadlab.balancer.policy.ProductionParameters d = org.loadlab.balancer.policy.ProductionParameters.DEFAULTS;
        int before = r.problems().size();
        double decay = r.positive("peak-ewma.decay", "seconds");
        double prior = r.nonNegative("peak-ewma.prior", "seconds");
        int choices = (int) r.integer("least-request.choices", 1, 1_000_000);
        double bias = r.nonNegative("least-request.active-request-bias", "");
        int ring = (int) r.integer("ring-hash.min-ring-size", 1, 8_388_608);
        int table = (int) r.integer("maglev.table-size", 2, 5_000_011);
        if (!org.loadlab.balancer.policy.ProductionParameters.isPrime(table)) {
            r.badValue("maglev.table-size", table, "a prime (Maglev fills a prime-sized table; Envoy: 65537)");
        }
        int probes = (int) r.integer("prequal.probes-per-request", 0, 1_000);
        int pool = (int) r.integer("prequal.pool-size", 1, 100_000);
        double age = r.positive("prequal.max-age", "seconds");
        int reuse = (int) r.integer("prequal.reuse", 1, 1_000_000);
        double q = r.between("prequal.hot-quantile", 0, 1, "quantile");
        double penalty = r.nonNegative("error-penalty", "score units (0: off)");
        double errorDecay = r.positive("error-decay", "seconds");
        if (r.problems().size() > before) {
            return d;
        }
        return new org.loadlab.balancer.policy.ProductionParameters(decay, prior, choices, bias, ring, table, probes, pool,
                age, reuse, q, penalty, errorDecay);
    }

    /** True if {@code at} seconds is a whole number of steps of {@code step} seconds, both in whole milliseconds. */
    private static boolean onStep(double at, double step) {
        long atMs = Math.round(at * 1000);
        long stepMs = Math.round(step * 1000);
        return Math.abs(at * 1000 - atMs) <= 1e-9 * Math.max(1, at * 1000) && stepMs > 0 && atMs % stepMs == 0;
    }

    private static List<Scenario.Event> events(ConfigReader r, Config merged, int n, long topologySeed) {
        List<Scenario.Event> out = new ArrayList<>();
        List<? extends Config> list = r.objects("events");
        Config known = ConfigFactory.parseString(
                "at = 0, type = x, until = 0, factor = 1, fraction = 0, nodes = [], fault = x, value = 0");
        int[] order = nodeOrder(n, topologySeed);
        for (int i = 0; i < list.size(); i++) {
            Config given = list.get(i);
            ConfigReader e = r.child(given, "events[" + i + "]");
            e.rejectUnknownKeys(known, Set.of());
            double at = e.nonNegative("at", "seconds");
            String type = e.oneOf("type", EVENTS);
            boolean hasNodes = given.hasPath("nodes");
            boolean hasFraction = given.hasPath("fraction");
            List<Integer> nodes = new ArrayList<>();
            double until = 0;
            double factor = 1;
            String fault = "";
            double value = 0;
            double fractionGiven = 0;
            if (type.equals("spike")) {
                until = e.nonNegative("until", "seconds");
                factor = e.positive("factor", "multiplier of the arrival rate");
                if (!(until > at)) {
                    e.badValue("until", until, "a spike must end after it starts (at = " + at + ")");
                }
                if (hasNodes || hasFraction) {
                    e.problem(hasNodes ? "nodes" : "fraction", "a spike scales the arrival rate of the whole cluster; remove it");
                }
            } else if (EVENTS.contains(type)) {
                if (type.equals("degrade")) {
                    factor = e.nonNegative("factor", "multiplier of the nominal service rate");
                }
                if (type.equals("chaos")) {
                    List<String> faults = new ArrayList<>(ChaosFaults.NAMES);
                    faults.add("clear");
                    fault = e.oneOf("fault", faults);
                    value = given.hasPath("value") ? e.number("value") : ChaosFaults.defaultValue(fault);
                    String allowed = ChaosFaults.checkValue(fault, value);
                    if (allowed != null) {
                        e.badValue("value", value, allowed + " for fault " + fault);
                    }
                } else if (given.hasPath("fault") || given.hasPath("value")) {
                    e.problem(given.hasPath("fault") ? "fault" : "value", "only a chaos event takes a fault and its value");
                }
                if (WINDOWS.contains(type)) {
                    until = e.nonNegative("until", "seconds");
                    if (!(until > at)) {
                        e.badValue("until", until, "a " + type + " must end after it starts (at = " + at + ")");
                    }
                }
                if (hasNodes == hasFraction) {
                    e.problem("nodes", "name the nodes with either nodes = [0, 3] or fraction = 0.2 (one of them)");
                } else if (hasNodes) {
                    try {
                        nodes.addAll(given.getIntList("nodes"));
                    } catch (ConfigException ex) {
                        e.problem("nodes", "must be a list of node indices");
                    }
                    for (int node : nodes) {
                        if (node < 0 || node >= n) {
                            e.problem("nodes", "node " + node + " does not exist; allowed: 0.." + (n - 1));
                        }
                    }
                } else {
                    double fraction = e.number("fraction");
                    if (!(fraction > 0 && fraction <= 1)) {
                        e.badValue("fraction", fraction, "must be in (0, 1]");
                    } else {
                        fractionGiven = fraction;
                        int count = (int) Math.ceil(fraction * n);
                        for (int k = 0; k < count; k++) {
                            nodes.add(order[k]);
                        }
                        nodes.sort(null);
                    }
                }
            }
            out.add(new Scenario.Event(at, type, until, factor, List.copyOf(nodes), fractionGiven, fault, value));
        }
        return out;
    }

    /**
     * One random order of the nodes drawn from the topology seed; {@code fraction = f}
     * picks its first ⌈f·n⌉ nodes, so "fail 0.2" and "recover 0.2" hit the same nodes,
     * for every run seed.
     */
    private static int[] nodeOrder(int n, long topologySeed) {
        int[] order = new int[n];
        for (int i = 0; i < n; i++) {
            order[i] = i;
        }
        SplittableRandom rng = new SplittableRandom(topologySeed * 1_000_003L + 17);
        for (int i = n - 1; i > 0; i--) {
            int j = rng.nextInt(i + 1);
            int t = order[i];
            order[i] = order[j];
            order[j] = t;
        }
        return order;
    }

    /**
     * The problems of running {@code policy} on scenario {@code s}: the checks of the policy's
     * parameters against the balancers' allowed set (power-of-k's k, ASMF's k, p2c's two
     * distinct nodes, Maglev's table size), which a live policy switch must pass as a new
     * experiment does.
     *
     * @param s a valid scenario
     * @param policy a known policy name
     * @return the problems, each naming the key, the value and what is allowed; empty if it fits
     */
    public static List<String> allowedSetProblems(Scenario s, String policy) {
        ConfigReader r = new ConfigReader(ConfigFactory.empty());
        allowedSetChecks(r, List.of(policy), s.balancers().allowedSize(s.nodes().count()), s.policy(), s.model());
        return r.problems();
    }

    private static void allowedSetChecks(ConfigReader r, List<String> policies, int allowed, Scenario.Policy policy,
                                         String model) {
        // The reference model's p2c samples policy.k nodes, as the ASMF seed's p2c does: a k above the
        // allowed set would be capped silently there, so it is refused as power-of-k's is.
        boolean samplesK = policies.contains("power-of-k") || (model.equals("reference") && policies.contains("p2c"));
        if (samplesK && policy.k() > allowed) {
            r.problem("policy.k", policy.k() + " is larger than the allowed set (" + allowed + " nodes); allowed: 1.." + allowed);
        }
        if (policies.contains("maglev") && policy.production().maglevTableSize() < allowed) {
            r.badValue("policy.maglev.table-size", policy.production().maglevTableSize(), "a prime >= the allowed set ("
                    + allowed + " nodes): every node needs a slot; e.g. " + nextPrime(Math.max(allowed, 65537)));
        }
        if (policies.contains("p2c") && allowed < 2) {
            r.problem("policies", "p2c samples 2 distinct nodes but the allowed set has " + allowed);
        }
        if (policies.contains("strict-po2c") && allowed < 2) {
            r.problem("policies", "strict-po2c probes 2 distinct nodes but the allowed set has " + allowed);
        }
        if (policies.stream().anyMatch(SAMPLING_ASMF::contains) && policy.asmf().k() > allowed) {
            r.problem("policy.asmf.k", policy.asmf().k() + " is larger than the allowed set (" + allowed + " nodes); allowed: 1.." + allowed);
        }
    }

    /**
     * Refuses a {@code series-interval} that gives more than {@link #MAX_SERIES_POINTS} points
     * per run: over {@code duration}, or, with {@code duration = 0} (the run lasts until its
     * requests or its trace end), over the time those requests take at the mean rate λ (a
     * trace is compressed to λ). Balls-into-bins runs record no time series.
     */
    private static void seriesChecks(ConfigReader r, double duration, long requests, double seriesInterval,
                                     Scenario.Arrivals arrivals, double lambda, boolean bins) {
        if (duration > 0) {
            if (duration / seriesInterval > MAX_SERIES_POINTS) {
                r.badValue("series-interval", seriesInterval, "gives more than " + MAX_SERIES_POINTS
                        + " points over duration = " + duration + " s; use a longer interval");
            }
            return;
        }
        if (bins || !(lambda > 0) || Double.isInfinite(lambda)) {
            return;
        }
        double count = requests > 0 ? requests : Double.POSITIVE_INFINITY;
        String what = "requests = " + requests;
        if (arrivals.process().equals("trace") && !arrivals.trace().loop()) {
            int traced = WorkloadBuilder.loadTrace(arrivals.trace().file()).size(); // cached: read when validated
            if (traced < count) {
                count = traced;
                what = "the trace's " + traced + " requests";
            }
        }
        double seconds = count / lambda;
        if (seconds / seriesInterval > MAX_SERIES_POINTS) {
            r.badValue("series-interval", seriesInterval, "gives more than " + MAX_SERIES_POINTS + String.format(java.util.Locale.ROOT,
                    " points over the run: duration = 0 runs until its requests end, and %s at %.4g requests/s take about %.6g s;"
                    + " use a longer interval (at least %.3g s)", what, lambda, seconds, seconds / MAX_SERIES_POINTS));
        }
    }

    private void crossChecks(ConfigReader r, List<String> policies, double duration, long requests, double warmup,
                             long warmupRequests, double seriesInterval, Scenario.Nodes nodes, Scenario.Balancers balancers,
                             Scenario.Arrivals arrivals, Scenario.Demand demand, Scenario.Information information,
                             Scenario.Policy policy, List<Scenario.Event> events, String model) {
        boolean bins = model.equals(Scenario.MODEL_BALLS_INTO_BINS);
        if (bins) {
            ballsIntoBinsChecks(r, policies, requests);
        }
        if (requests > 0 && warmupRequests >= requests) {
            r.badValue("warmup-requests", warmupRequests, "not below requests = " + requests
                    + ": nothing would be measured; use fewer warm-up requests");
        }
        diurnalChecks(r, arrivals.diurnal(), arrivals.process().equals("diurnal"), requests);
        boolean endless = !arrivals.process().equals("trace") || arrivals.trace().loop();
        if (duration == 0 && requests == 0 && endless) {
            r.problem("duration", "0 with requests = 0" + (arrivals.process().equals("trace") ? " and a looping trace" : "")
                    + ": the arrivals would never stop; set a duration in seconds or a request count");
        }
        if (duration > 0 && warmup >= duration && !bins) {
            r.badValue("warmup", warmup, "not shorter than duration = " + duration + " s: nothing would be measured");
        }
        if (demand.distribution().equals("trace") && !arrivals.process().equals("trace")) {
            r.problem("demand.distribution", "'trace' needs arrivals.process = trace (demand comes from the trace's token columns)");
        }
        if ((arrivals.process().equals("trace") || arrivals.process().equals("mmpp"))
                && events.stream().anyMatch(e -> e.type().equals("spike"))) {
            r.problem("events", "a spike scales the arrival rate, which needs arrivals.process = poisson, on-off or diurnal (was "
                    + arrivals.process() + ")");
        }
        if (arrivals.process().equals("diurnal") && arrivals.diurnal().period() == 0 && !arrivals.diurnal().periodIsHorizon()
                && duration == 0) {
            r.problem("arrivals.diurnal.period", "0 stands for the duration, but duration is 0 too; set one of them in seconds, or period = horizon");
        }
        allowedSetChecks(r, policies, balancers.allowedSize(nodes.count()), policy, model);
        double capacity = nodes.expectedCapacity();
        double rho = arrivals.rate() > 0 ? arrivals.rate() * demand.mean() / capacity : arrivals.utilisation();
        double lambda = rho * capacity / demand.mean();
        seriesChecks(r, duration, requests, seriesInterval, arrivals, lambda, bins);
        if (requests == 0 && duration > 0 && !arrivals.process().equals("trace") && lambda * duration > MAX_EXPECTED_REQUESTS) {
            // duration = 1e308 overflows λ·duration: "about Infinity requests" read as a bug, not as "too many".
            String expected = Double.isFinite(lambda * duration) ? String.format(java.util.Locale.ROOT, "about %.3g", lambda * duration)
                    : "more than 1e+308";
            r.badValue("duration", duration, String.format(java.util.Locale.ROOT,
                    "at %.4g requests/s that is %s requests per run, more than %.0e; use a shorter duration or set requests",
                    lambda, expected, MAX_EXPECTED_REQUESTS));
        }
        if (rho >= 1 && nodes.queueCapacity() == 0 && !bins && !"profiles".equals(r.config().getString("nodes.model"))) {
            // Only advice that works here: the load-sharing protocols refuse a queue bound (loadSharingChecks).
            boolean sharing = policies.stream().anyMatch(Scenario::isLoadSharing);
            String unstable = "an open system without rejection is unstable at utilisation >= 1; use a value below 1"
                    + (sharing ? " (the load-sharing protocols keep every task: they take no nodes.queue-capacity)"
                    : " or bound the queues with nodes.queue-capacity > 0");
            if (arrivals.rate() > 0) {
                r.badValue("arrivals.rate", arrivals.rate(), String.format(java.util.Locale.ROOT,
                        "gives utilisation %.3f of the expected capacity %.4g work units/s; ", rho, capacity) + unstable);
            } else {
                r.badValue("arrivals.utilisation", rho, unstable);
            }
        }
    }
}
