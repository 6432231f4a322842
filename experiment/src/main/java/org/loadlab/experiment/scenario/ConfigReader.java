package org.loadlab.experiment.scenario;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigException;
import com.typesafe.config.ConfigValue;
import com.typesafe.config.ConfigValueType;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Reads typed values from a HOCON tree and collects every problem instead of stopping at
 * the first: each message names the full key, the value found and what is allowed. After
 * reading, {@link #problems()} is empty exactly when the input was valid.
 */
public final class ConfigReader {
    private final Config config;
    private final String prefix;
    private final List<String> problems;
    // The unknown-key problems among them (shared like the list), so each is reported once
    // without a linear search of the list: 10,000 events with unknown keys made that quadratic.
    private final Set<String> unknownKeys;

    /** @param config the tree to read (already merged with its defaults) */
    public ConfigReader(Config config) {
        this(config, "", new ArrayList<>(), new HashSet<>());
    }

    private ConfigReader(Config config, String prefix, List<String> problems, Set<String> unknownKeys) {
        this.config = config;
        this.prefix = prefix;
        this.problems = problems;
        this.unknownKeys = unknownKeys;
    }

    /** A reader of the sub-tree at {@code path} that reports into the same problem list. */
    public ConfigReader at(String path) {
        Config sub;
        try {
            sub = config.getConfig(path);
        } catch (ConfigException e) {
            problems.add(key(path) + ": must be an object { ... }");
            sub = com.typesafe.config.ConfigFactory.empty();
        }
        return new ConfigReader(sub, key(path) + ".", problems, unknownKeys);
    }

    /** A reader over another whole tree (no key prefix) reporting into the same problem list. */
    public ConfigReader sibling(Config tree) {
        return new ConfigReader(tree, "", problems, unknownKeys);
    }

    /**
     * Records a problem about the value of {@code path}: "{@code key = value: message}".
     */
    public void badValue(String path, Object value, String message) {
        problems.add(key(path) + " = " + value + ": " + message);
    }

    /** A reader over an arbitrary tree (e.g. a list element) reporting under {@code name}. */
    public ConfigReader child(Config tree, String name) {
        return new ConfigReader(tree, name + ".", problems, unknownKeys);
    }

    /** Problems found so far (shared by all readers derived from this one). */
    public List<String> problems() {
        return problems;
    }

    /** Records a problem about {@code path}. */
    public void problem(String path, String message) {
        problems.add(key(path) + ": " + message);
    }

    /** Full key of {@code path} for messages. */
    public String key(String path) {
        return prefix + path;
    }

    /** True if the key is present. */
    public boolean has(String path) {
        return config.hasPath(path);
    }

    /** The underlying tree. */
    public Config config() {
        return config;
    }

    /** A number; records a problem and returns {@code NaN} if missing or not a number. */
    public double number(String path) {
        try {
            double v = config.getDouble(path);
            if (!Double.isFinite(v)) {
                problems.add(key(path) + " = " + v + ": must be a finite number");
                return Double.NaN;
            }
            return v;
        } catch (ConfigException.Missing e) {
            problems.add(key(path) + ": missing (a number is required)");
        } catch (ConfigException e) {
            problems.add(key(path) + " = " + render(path) + ": must be a number");
        }
        return Double.NaN;
    }

    /** A number {@code > 0}. */
    public double positive(String path, String unit) {
        double v = number(path);
        if (!Double.isNaN(v) && !(v > 0 && Double.isFinite(v))) {
            problems.add(key(path) + " = " + v + ": must be > 0" + unitSuffix(unit));
        }
        return v;
    }

    /** A number {@code >= 0}. */
    public double nonNegative(String path, String unit) {
        double v = number(path);
        if (!Double.isNaN(v) && !(v >= 0 && Double.isFinite(v))) {
            problems.add(key(path) + " = " + v + ": must be >= 0" + unitSuffix(unit));
        }
        return v;
    }

    /** A number in the closed range [min, max]. */
    public double between(String path, double min, double max, String unit) {
        double v = number(path);
        if (!Double.isNaN(v) && !(v >= min && v <= max)) {
            problems.add(key(path) + " = " + v + ": must be in [" + min + ", " + max + "]" + unitSuffix(unit));
        }
        return v;
    }

    /** A whole number in [min, max]. */
    public long integer(String path, long min, long max) {
        try {
            ConfigValue raw = config.getValue(path);
            double d = config.getDouble(path);
            if (raw.valueType() != ConfigValueType.NUMBER || d != Math.rint(d)) {
                problems.add(key(path) + " = " + render(path) + ": must be a whole number");
                return min;
            }
            long v = (long) d;
            if (v < min || v > max) {
                problems.add(key(path) + " = " + v + ": must be in [" + min + ", " + max + "]");
                return min;
            }
            return v;
        } catch (ConfigException.Missing e) {
            problems.add(key(path) + ": missing (a whole number is required)");
        } catch (ConfigException e) {
            problems.add(key(path) + " = " + render(path) + ": must be a whole number");
        }
        return min;
    }

    /** A string. */
    public String string(String path) {
        try {
            return config.getString(path);
        } catch (ConfigException.Missing e) {
            problems.add(key(path) + ": missing (a string is required)");
        } catch (ConfigException e) {
            problems.add(key(path) + " = " + render(path) + ": must be a string");
        }
        return "";
    }

    /** One of {@code allowed}. */
    public String oneOf(String path, List<String> allowed) {
        String v = string(path);
        if (!allowed.contains(v)) {
            problems.add(key(path) + " = '" + v + "': unknown value; allowed: " + String.join(", ", allowed));
        }
        return v;
    }

    /** A boolean. */
    public boolean bool(String path) {
        try {
            return config.getBoolean(path);
        } catch (ConfigException.Missing e) {
            problems.add(key(path) + ": missing (true or false is required)");
        } catch (ConfigException e) {
            problems.add(key(path) + " = " + render(path) + ": must be true or false");
        }
        return false;
    }

    /** A list of strings (a single string is accepted as a one-element list, a comma list is split). */
    public List<String> strings(String path) {
        try {
            if (config.getValue(path).valueType() == ConfigValueType.LIST) {
                List<String> out = new ArrayList<>();
                for (ConfigValue v : config.getList(path)) {
                    if (v.valueType() == ConfigValueType.OBJECT || v.valueType() == ConfigValueType.LIST) {
                        problems.add(key(path) + " = " + render(path) + ": must be a list of names");
                        return List.of();
                    }
                    out.add(String.valueOf(v.unwrapped()));
                }
                return out;
            }
            if (config.getValue(path).valueType() == ConfigValueType.STRING) {
                List<String> out = new ArrayList<>();
                for (String s : config.getString(path).split(",")) {
                    if (!s.isBlank()) {
                        out.add(s.trim());
                    }
                }
                return out;
            }
            return config.getStringList(path);
        } catch (ConfigException.Missing e) {
            problems.add(key(path) + ": missing (a list is required)");
        } catch (ConfigException e) {
            problems.add(key(path) + " = " + render(path) + ": must be a list of names");
        }
        return List.of();
    }

    /** A list of objects. */
    public List<? extends Config> objects(String path) {
        try {
            return config.getConfigList(path);
        } catch (ConfigException.Missing e) {
            return List.of();
        } catch (ConfigException e) {
            problems.add(key(path) + " = " + render(path) + ": must be a list of objects [{...}, ...]");
        }
        return List.of();
    }

    /**
     * Reports every key of this tree that the {@code defaults} tree does not have.
     *
     * @param defaults the tree of known keys (values ignored)
     * @param openPaths keys whose contents are free-form (not checked below them)
     */
    public void rejectUnknownKeys(Config defaults, Set<String> openPaths) {
        // Top-level keys first: an empty object ("sweeep {}") has no leaf entries below.
        for (String top : config.root().keySet()) {
            String quoted = com.typesafe.config.ConfigUtil.joinPath(top);
            if (!defaults.root().containsKey(top) && config.getValue(quoted).valueType() == ConfigValueType.OBJECT
                    && config.getConfig(quoted).isEmpty()) {
                String message = key(top) + ": unknown key; allowed here: " + String.join(", ", new TreeSet<>(defaults.root().keySet()));
                unknownKeys.add(message);
                problems.add(message);
            }
        }
        for (Map.Entry<String, ConfigValue> e : config.entrySet()) {
            String path = e.getKey();
            if (openPaths.stream().anyMatch(p -> path.equals(p) || path.startsWith(p + "."))) {
                continue;
            }
            // Name the first segment of the path that is not known, with the keys allowed there.
            List<String> parts = com.typesafe.config.ConfigUtil.splitPath(path);
            Config scope = defaults;
            for (int i = 0; i < parts.size(); i++) {
                String segment = parts.get(i);
                if (!scope.root().containsKey(segment)) {
                    String unknown = com.typesafe.config.ConfigUtil.joinPath(parts.subList(0, i + 1));
                    String message = key(unknown) + ": unknown key; allowed here: " + String.join(", ", new TreeSet<>(scope.root().keySet()));
                    if (unknownKeys.add(message)) {
                        problems.add(message);
                    }
                    break;
                }
                ConfigValue v = scope.root().get(segment);
                if (v.valueType() != ConfigValueType.OBJECT) {
                    break;
                }
                scope = ((com.typesafe.config.ConfigObject) v).toConfig();
            }
        }
    }

    /**
     * Finds the keys where {@code tree} holds a single value (or a list, or null) but
     * {@code defaults} a block of keys, e.g. {@code nodes.service-rate = -1} where the block
     * {@code service-rate { distribution, value, min, max }} belongs: one problem each, naming
     * the key, the value and the block's keys, with an example of setting one of them. The
     * block's readers would otherwise report each of its keys as missing, none naming what
     * the user wrote.
     *
     * @param tree the user's tree merged with its defaults (a value there replaced the default block)
     * @param defaults the tree of known keys with their defaults
     * @param problems where the problems go
     * @return {@code tree} with each such key's default block back in place, so the checks that
     *     follow read the defaults there (as they do for a misspelt key) and add no noise
     */
    public static Config blocksGivenValues(Config tree, Config defaults, List<String> problems) {
        Config out = tree;
        Map<String, ConfigValue> found = new java.util.LinkedHashMap<>();
        valuesForBlocks(tree.root(), defaults.root(), List.of(), found);
        for (Map.Entry<String, ConfigValue> f : found.entrySet()) {
            String path = f.getKey();
            com.typesafe.config.ConfigObject block = (com.typesafe.config.ConfigObject) defaults.getValue(path);
            TreeSet<String> keys = new TreeSet<>(block.keySet());
            String example = keys.contains("value") ? "value" : keys.first();
            problems.add(path + " = " + f.getValue().render(com.typesafe.config.ConfigRenderOptions.concise())
                    + ": must be a block of keys (" + String.join(", ", keys) + "), not a single value; set one of them,"
                    + " e.g. " + path + "." + com.typesafe.config.ConfigUtil.joinPath(example) + " = "
                    + block.get(example).render(com.typesafe.config.ConfigRenderOptions.concise())
                    + " (docs/scenarios.md lists each)");
            out = out.withValue(path, block);
        }
        return out;
    }

    /** Puts in {@code found} each path (under {@code at}) where {@code given} has a non-object and {@code defaults} an object. */
    private static void valuesForBlocks(com.typesafe.config.ConfigObject given, com.typesafe.config.ConfigObject defaults,
                                        List<String> at, Map<String, ConfigValue> found) {
        for (String k : new TreeSet<>(given.keySet())) {
            ConfigValue d = defaults.get(k);
            if (d == null || d.valueType() != ConfigValueType.OBJECT) {
                continue;
            }
            List<String> path = new ArrayList<>(at);
            path.add(k);
            ConfigValue g = given.get(k);
            if (g.valueType() == ConfigValueType.OBJECT) {
                valuesForBlocks((com.typesafe.config.ConfigObject) g, (com.typesafe.config.ConfigObject) d, path, found);
            } else {
                found.put(com.typesafe.config.ConfigUtil.joinPath(path), g);
            }
        }
    }

    private String render(String path) {
        try {
            return config.getValue(path).render(com.typesafe.config.ConfigRenderOptions.concise());
        } catch (ConfigException e) {
            return "?";
        }
    }

    private static String unitSuffix(String unit) {
        return unit == null || unit.isEmpty() ? "" : " (" + unit + ")";
    }
}
