package org.loadlab.experiment.campaign;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigException;
import com.typesafe.config.ConfigFactory;
import com.typesafe.config.ConfigParseOptions;
import org.loadlab.experiment.scenario.StrictIncludes;
import com.typesafe.config.ConfigRenderOptions;
import com.typesafe.config.ConfigValue;
import com.typesafe.config.ConfigValueType;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeMap;
import org.loadlab.balancer.policy.PolicyCatalog;
import org.loadlab.experiment.run.RunSpec;
import org.loadlab.experiment.scenario.BuiltIns;
import org.loadlab.experiment.scenario.ConfigReader;
import org.loadlab.experiment.scenario.Scenario;
import org.loadlab.experiment.scenario.ScenarioException;
import org.loadlab.experiment.scenario.ScenarioLoader;
import org.loadlab.experiment.scenario.Seeds;

/**
 * Loads a campaign (built-in name or HOCON file), validates all of it — every scenario at
 * every parameter point with every policy variant — and expands it into a
 * {@link CampaignPlan}. Nothing runs and nothing is written before this succeeds; all
 * problems are reported together in a {@link ScenarioException}.
 */
public final class CampaignLoader {
    /** Built-in campaigns, name → classpath resource (every {@link BuiltIns.Source} on the class path). */
    public static final Map<String, String> BUILT_INS = BuiltIns.CAMPAIGNS;
    private static final int MAX_RUNS = 1_000_000;

    /** Named policy variants ({@code policy-presets.conf}) a campaign lists like catalog policies. */
    static final Config PRESETS = ConfigFactory.parseResources(CampaignLoader.class.getClassLoader(), "policy-presets.conf");

    private final ScenarioLoader scenarios;

    /** @param scenarios the scenario loader (knows the policy catalog) */
    public CampaignLoader(ScenarioLoader scenarios) {
        this.scenarios = scenarios;
    }

    /**
     * @param nameOrFile built-in campaign name or a HOCON file
     * @param seedsOverride replaces the campaign's {@code seeds} when not null
     * @throws ScenarioException listing every problem
     */
    public CampaignPlan load(String nameOrFile, String seedsOverride) {
        return load(nameOrFile, seedsOverride, List.of());
    }

    /**
     * Loads a campaign with scenario overrides for every one of its scenarios (the CLI's
     * {@code campaign run --set key=value}). They are written into each scenario entry's
     * {@code set} block, so they are part of the stored definition (and of the campaign id):
     * {@code campaign resume} repeats them. A sweep over the same key still varies it (the
     * override's value is validated all the same; the CLI warns that the sweep wins).
     *
     * @param nameOrFile built-in campaign name or a HOCON file
     * @param seedsOverride replaces the campaign's {@code seeds} when not null
     * @param sets {@code key=value} scenario overrides, applied after each entry's own {@code set}
     * @throws ScenarioException listing every problem
     */
    public CampaignPlan load(String nameOrFile, String seedsOverride, List<String> sets) {
        Config raw;
        String resource = BUILT_INS.get(nameOrFile);
        if (resource != null) {
            raw = ConfigFactory.parseResources(CampaignLoader.class.getClassLoader(), resource,
                    StrictIncludes.options());
        } else {
            Path file = Path.of(nameOrFile);
            if (!Files.isRegularFile(file)) {
                // A directory (say a campaign's output directory) exists: "no such file" would mislead;
                // an empty name is the current directory.
                String what = nameOrFile.isBlank() ? "empty; give a campaign file (HOCON) or a built-in name"
                        : Files.isDirectory(file) ? "is a directory, not a campaign file; give a campaign file (HOCON) or a"
                        + " built-in name (`loadlab campaign resume ID` finishes a campaign run before)"
                        : "no such built-in campaign or file";
                throw new ScenarioException("campaign", nameOrFile, List.of("campaign '" + nameOrFile
                        + "': " + what + "; built-in: " + String.join(", ", BUILT_INS.keySet())));
            }
            try {
                raw = StrictIncludes.parseFile(file);
            } catch (ConfigException e) {
                throw new ScenarioException("campaign", nameOrFile, List.of(ScenarioLoader.parseProblem(file, e)));
            }
        }
        if (seedsOverride != null) {
            raw = ConfigFactory.parseMap(Map.of("seeds", seedsOverride)).withFallback(raw);
        }
        if (!sets.isEmpty()) {
            raw = withScenarioOverrides(raw, sets, nameOrFile);
        }
        return parse(raw, nameOrFile);
    }

    /** {@code raw} with every entry of {@code scenarios} carrying the overrides in its {@code set} block. */
    private static Config withScenarioOverrides(Config raw, List<String> sets, String source) {
        Config extra;
        try {
            extra = ScenarioLoader.applyOverrides(ConfigFactory.empty(), sets, source);
        } catch (ScenarioException e) {
            // Each problem names the --set flag; the header names the campaign, not a scenario.
            throw new ScenarioException("campaign", source, e.problems());
        }
        if (!raw.hasPath("scenarios") || raw.getValue("scenarios").valueType() != ConfigValueType.LIST) {
            return raw; // parse() reports the missing or malformed list
        }
        List<Object> entries = new ArrayList<>();
        for (ConfigValue v : raw.getList("scenarios")) {
            if (v.valueType() == ConfigValueType.STRING) {
                entries.add(ConfigFactory.empty().withValue("scenario", v).withValue("set", extra.root()).root());
            } else if (v.valueType() == ConfigValueType.OBJECT) {
                Config c = ((com.typesafe.config.ConfigObject) v).toConfig();
                Config set = c.hasPath("set") ? extra.withFallback(c.getConfig("set")) : extra;
                entries.add(c.withValue("set", set.root()).root());
            } else {
                entries.add(v); // parse() reports it
            }
        }
        return raw.withValue("scenarios", com.typesafe.config.ConfigValueFactory.fromIterable(entries));
    }

    /**
     * Validates and expands a campaign tree.
     *
     * @throws ScenarioException listing every problem
     */
    public CampaignPlan parse(Config raw, String source) {
        Config defaults = ConfigFactory.parseResources(CampaignLoader.class.getClassLoader(), "campaign-defaults.conf");
        Config merged;
        try {
            merged = raw.withFallback(defaults).resolve();
        } catch (ConfigException e) {
            throw new ScenarioException("campaign", source, List.of(e.getMessage()));
        }
        ConfigReader r = new ConfigReader(merged);
        r.sibling(raw).rejectUnknownKeys(defaults, Set.of("scenarios", "policies", "sweep", "random-search.ranges"));
        // A misspelt key is ignored by everything below (its default is read), so the scenarios can
        // still be checked in the same round; a bad value stops here, as the scenarios depend on it.
        int unknownKeys = r.problems().size();
        String name = r.string("name");
        if (name.isBlank()) {
            r.problem("name", "empty; a campaign needs a name (used for its id and output directory)");
        } else if (!name.matches("[A-Za-z0-9._-]+")) {
            r.badValue("name", "'" + name + "'", "use letters, digits, '.', '_' or '-' only");
        }
        String description = r.string("description");
        List<Long> seeds = List.of();
        try {
            // A list [101, 105] (as documented) is joined with commas, as a scenario's seeds are.
            seeds = Seeds.parse(org.loadlab.experiment.scenario.ScenarioLoader.seedSpec(merged.getValue("seeds")));
        } catch (IllegalArgumentException e) {
            // The message is already "seeds = '...': ..." (key, value, what is allowed).
            r.problems().add(e.getMessage());
        }
        List<ScenarioRef> scenarioRefs = scenarioRefs(r, merged);
        List<Variant> variants = variants(r, merged);
        String reference = r.string("reference");
        if (!reference.isBlank() && variants.stream().noneMatch(v -> v.name().equals(reference))) {
            r.badValue("reference", "'" + reference + "'", "not one of the campaign's policies: "
                    + String.join(", ", variants.stream().map(Variant::name).toList()));
        }
        List<Map<String, String>> points = parameterPoints(r, merged);
        List<String> analytic = r.strings("analytic");
        for (String a : analytic) {
            if (!a.equals("mm1") && !a.equals("mmn")) {
                r.badValue("analytic", "'" + a + "'", "allowed: mm1, mmn");
            }
        }
        List<String> metrics = r.strings("metrics");
        for (String m : metrics) {
            try {
                org.loadlab.analysis.campaign.Metric.byColumnName(m);
            } catch (IllegalArgumentException e) {
                r.badValue("metrics", "'" + m + "'", e.getMessage().substring(e.getMessage().indexOf("allowed")));
            }
        }
        long total = (long) scenarioRefs.size() * points.size() * variants.size() * seeds.size();
        if (total > MAX_RUNS) {
            r.problem("seeds", "the campaign would have " + total + " runs; at most " + MAX_RUNS);
        }
        if (r.problems().size() > unknownKeys) {
            throw new ScenarioException("campaign", source, r.problems());
        }

        List<String> problems = new ArrayList<>(r.problems());
        Set<String> seen = new java.util.HashSet<>();
        List<CampaignPlan.PlannedRun> runs = new ArrayList<>();
        Set<String> swept = points.isEmpty() ? Set.of() : points.get(0).keySet();
        for (ScenarioRef ref : scenarioRefs) {
            String missing = ScenarioLoader.missing(ref.key(), ref.scenario());
            if (missing != null) {
                problems.add(missing); // named by the campaign's key, once, not per point and variant
                continue;
            }
            // A set key the sweep also varies is overridden at every point; its value is still
            // checked, so that a wrong one is an error rather than silently ignored.
            if (ref.overrides().stream().anyMatch(o -> swept.contains(o.substring(0, o.indexOf(" = "))))) {
                List<String> own = new ArrayList<>(ref.overrides());
                own.add("policies = [" + variants.get(0).policy() + "]");
                try {
                    scenarios.load(ref.scenario(), own);
                } catch (ScenarioException e) {
                    for (String p : e.problems()) {
                        if (seen.add(ref.label() + "|" + p)) {
                            problems.add(ref.label() + " (its set, before the sweep): " + p);
                        }
                    }
                }
            }
            for (Map<String, String> point : points) {
                for (Variant v : variants) {
                    List<String> overrides = new ArrayList<>(ref.overrides());
                    point.forEach((k, val) -> overrides.add(k + " = " + val));
                    overrides.addAll(v.overrides());
                    overrides.add("policies = [" + v.policy() + "]");
                    Scenario scenario;
                    try {
                        scenario = scenarios.load(ref.scenario(), overrides);
                    } catch (ScenarioException e) {
                        String where = ref.label() + (point.isEmpty() ? "" : " at " + point) + ", policy " + v.name();
                        for (String p : e.problems()) {
                            // The same problem at every point and variant is reported once.
                            if (seen.add(ref.label() + "|" + p)) {
                                problems.add(where + ": " + p);
                            }
                        }
                        continue;
                    }
                    for (long seed : seeds) {
                        runs.add(new CampaignPlan.PlannedRun(runs.size(), scenario.name(), new TreeMap<>(point), v.name(),
                                new RunSpec(scenario, v.policy(), seed)));
                    }
                }
            }
        }
        if (!problems.isEmpty()) {
            throw new ScenarioException("campaign", source, new ArrayList<>(new LinkedHashSet<>(problems)));
        }
        String json = merged.root().render(ConfigRenderOptions.concise().setJson(true));
        String ref = reference.isBlank() ? variants.get(0).name() : reference;
        return new CampaignPlan(name + "-" + shortHash(json), name, description, json, List.copyOf(runs), ref,
                List.copyOf(points.isEmpty() ? List.of() : points.get(0).keySet()), analytic, metrics);
    }

    /**
     * A scenario entry: name or file plus overrides.
     *
     * @param key where the campaign names the scenario, e.g. {@code scenarios[0]} or {@code scenarios[1].scenario}
     */
    private record ScenarioRef(String scenario, List<String> overrides, String label, String key) {
    }

    /** A policy variant: its name, the catalog policy it runs and its scenario overrides. */
    private record Variant(String name, String policy, List<String> overrides) {
    }

    private static List<ScenarioRef> scenarioRefs(ConfigReader r, Config merged) {
        List<ScenarioRef> out = new ArrayList<>();
        List<? extends ConfigValue> list = list(r, merged, "scenarios");
        for (int i = 0; i < list.size(); i++) {
            ConfigValue v = list.get(i);
            String where = "scenarios[" + i + "]";
            if (v.valueType() == ConfigValueType.STRING) {
                String s = v.unwrapped().toString();
                out.add(new ScenarioRef(s, List.of(), s, where));
            } else if (v.valueType() == ConfigValueType.OBJECT) {
                Config c = ((com.typesafe.config.ConfigObject) v).toConfig();
                ConfigReader e = r.child(c, where);
                e.rejectUnknownKeys(ConfigFactory.parseString("scenario = x, set {}"), Set.of("set"));
                String s = e.string("scenario");
                out.add(new ScenarioRef(s, overrides(c), s, e.key("scenario")));
            } else {
                r.problem(where, "must be a scenario name or { scenario = NAME|FILE, set { key = value } }");
            }
        }
        if (out.isEmpty() && r.problems().stream().noneMatch(p -> p.startsWith("scenarios"))) {
            r.problem("scenarios", "empty; name at least one scenario, e.g. scenarios = [quickstart]");
        }
        return out;
    }

    private static List<Variant> variants(ConfigReader r, Config merged) {
        List<Variant> out = new ArrayList<>();
        Set<String> names = new LinkedHashSet<>();
        List<? extends ConfigValue> list = list(r, merged, "policies");
        for (int i = 0; i < list.size(); i++) {
            ConfigValue v = list.get(i);
            String where = "policies[" + i + "]";
            Variant variant = null;
            if (v.valueType() == ConfigValueType.STRING && PRESETS.hasPath(com.typesafe.config.ConfigUtil.joinPath(v.unwrapped().toString()))) {
                String p = v.unwrapped().toString();
                Config preset = PRESETS.getConfig(com.typesafe.config.ConfigUtil.joinPath(p));
                variant = new Variant(p, preset.getString("policy"), overrides(preset));
            } else if (v.valueType() == ConfigValueType.STRING) {
                String p = v.unwrapped().toString();
                variant = new Variant(p, p, List.of());
            } else if (v.valueType() == ConfigValueType.OBJECT) {
                Config c = ((com.typesafe.config.ConfigObject) v).toConfig();
                ConfigReader e = r.child(c, where);
                e.rejectUnknownKeys(ConfigFactory.parseString("name = x, policy = x, set {}"), Set.of("set"));
                variant = new Variant(e.string("name"), e.string("policy"), overrides(c));
            } else {
                r.problem(where, "must be a policy name or { name = VARIANT, policy = NAME, set { key = value } }");
            }
            if (variant != null) {
                // A load-sharing protocol (sender-threshold, receiver, ...) is a policy too: its runs have no balancer.
                if (PolicyCatalog.find(variant.policy()).isEmpty() && !Scenario.isLoadSharing(variant.policy())) {
                    r.problem(where, "'" + variant.policy() + "' is not a known policy; allowed: " + PolicyCatalog.names()
                            + ", or a preset: " + String.join(", ", new java.util.TreeSet<>(PRESETS.root().keySet()))
                            + ", or a load-sharing protocol: " + String.join(", ", org.loadlab.node.sharing.SharingProtocol.names()));
                }
                if (!names.add(variant.name())) {
                    r.problem(where, "the name '" + variant.name() + "' is used twice; give each variant its own name");
                }
                out.add(variant);
            }
        }
        if (out.isEmpty() && r.problems().stream().noneMatch(p -> p.startsWith("policies"))) {
            r.problem("policies", "empty; name at least one of: " + PolicyCatalog.names() + ", or a preset: "
                    + String.join(", ", new java.util.TreeSet<>(PRESETS.root().keySet())) + ", or a load-sharing protocol: "
                    + String.join(", ", org.loadlab.node.sharing.SharingProtocol.names()));
        }
        return out;
    }

    private static List<? extends ConfigValue> list(ConfigReader r, Config merged, String key) {
        try {
            return merged.getList(key);
        } catch (ConfigException e) {
            r.problem(key, "must be a list [...]");
            return List.of();
        }
    }

    /** The {@code set} block of an entry as key = value override strings (keys sorted). */
    private static List<String> overrides(Config entry) {
        if (!entry.hasPath("set")) {
            return List.of();
        }
        List<String> out = new ArrayList<>();
        new TreeMap<>(entry.getConfig("set").entrySet().stream()
                .collect(java.util.stream.Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue)))
                .forEach((k, v) -> out.add(k + " = " + v.render(ConfigRenderOptions.concise())));
        return out;
    }

    private static List<Map<String, String>> parameterPoints(ConfigReader r, Config merged) {
        List<Map<String, String>> points = new ArrayList<>();
        points.add(new TreeMap<>());
        Config sweep = merged.getConfig("sweep");
        for (String key : new TreeMap<>(sweep.root()).keySet()) {
            ConfigValue values = sweep.root().get(key);
            if (values.valueType() != ConfigValueType.LIST || ((List<?>) values.unwrapped()).isEmpty()) {
                r.problem("sweep.\"" + key + "\"", "must be a non-empty list of values, e.g. [0.5, 0.7, 0.9]");
                continue;
            }
            List<Map<String, String>> next = new ArrayList<>();
            for (Map<String, String> p : points) {
                for (ConfigValue v : (com.typesafe.config.ConfigList) values) {
                    Map<String, String> q = new TreeMap<>(p);
                    q.put(key, v.render(ConfigRenderOptions.concise()));
                    next.add(q);
                }
            }
            points = next;
        }
        ConfigReader rs = r.at("random-search");
        long samples = rs.integer("samples", 0, 100_000);
        long seed = rs.integer("seed", Long.MIN_VALUE, Long.MAX_VALUE);
        Config ranges = merged.getConfig("random-search.ranges");
        if (samples > 0) {
            if (ranges.root().isEmpty()) {
                rs.problem("ranges", "empty while samples > 0; e.g. ranges { \"policy.asmf.eta\" = [0.003, 0.02] }");
            }
            SplittableRandom rng = new SplittableRandom(seed);
            List<Map<String, String>> sampled = new ArrayList<>();
            for (int s = 0; s < samples; s++) {
                Map<String, String> draw = new TreeMap<>();
                for (String key : new TreeMap<>(ranges.root()).keySet()) {
                    List<?> bounds = (List<?>) ranges.root().get(key).unwrapped();
                    if (bounds.size() != 2 || !(bounds.get(0) instanceof Number lo) || !(bounds.get(1) instanceof Number hi)
                            || hi.doubleValue() < lo.doubleValue()) {
                        rs.problem("ranges.\"" + key + "\"", "must be [low, high] with low <= high");
                        continue;
                    }
                    boolean whole = lo.doubleValue() == Math.rint(lo.doubleValue()) && hi.doubleValue() == Math.rint(hi.doubleValue())
                            && !(lo instanceof Double) && !(hi instanceof Double);
                    draw.put(key, whole
                            ? String.valueOf(lo.longValue() + rng.nextLong(hi.longValue() - lo.longValue() + 1))
                            : String.format(Locale.ROOT, "%.6g", lo.doubleValue() + (hi.doubleValue() - lo.doubleValue()) * rng.nextDouble()));
                }
                sampled.add(draw);
            }
            List<Map<String, String>> next = new ArrayList<>();
            for (Map<String, String> p : points) {
                for (Map<String, String> d : sampled) {
                    Map<String, String> q = new TreeMap<>(p);
                    q.putAll(d);
                    next.add(q);
                }
            }
            points = next;
        }
        return points;
    }

    private static String shortHash(String text) {
        try {
            byte[] d = MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(d, 0, 4);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JVM", e);
        }
    }
}
