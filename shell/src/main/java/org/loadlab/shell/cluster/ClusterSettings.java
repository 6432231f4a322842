package org.loadlab.shell.cluster;

import com.typesafe.config.Config;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * The {@code loadlab.cluster} and {@code loadlab.metrics} settings of a member, read once
 * (defaults and comments in {@code loadlab-cluster.conf}; docs/cluster.md lists them).
 *
 * @param roles this member's roles (node, balancer, gateway)
 * @param httpHost address the HTTP control API binds to (gateway role)
 * @param httpPort its port
 * @param httpToken bearer token for state-changing requests ("" = none configured)
 * @param requireToken "auto" (only when bound beyond loopback) or "on"
 * @param resultsDir directory experiment results are written under (one folder per experiment)
 * @param startTimeout how long the members may take to prepare an experiment
 * @param stopTimeout how long to wait for the members' last observations
 * @param flushInterval how often members send their observations to the gateway
 * @param mergeLag how long the gateway holds observations back to feed them in time order (real time)
 * @param jitWarmup before an experiment that involves a member that has not run one yet, the members run the
 *     experiment's scenario for this long (real time) and discard it, so that the JIT has compiled the hot paths
 *     before anything is measured (0 = never)
 * @param journal whether the gateway journals its experiments ({@link ExperimentEntity}, {@link ExperimentStore})
 * @param checkpointInterval how often a running experiment's merged status is journaled
 * @param maxRunning experiments that may run at once
 * @param maxNodes largest nodes.count of a cluster experiment
 * @param decisionsKept decisions each balancer keeps for GET /explain-routing (the guardrails themselves are
 *     scenario keys, the same in every mode)
 * @param kamon whether this member starts Kamon (Prometheus endpoint)
 * @param kamonAttach whether Kamon attaches its bytecode instrumentation (Kanela) at start
 * @param maxLifetime stop the member after this long (0 = never)
 * @param exitOnStdinEof stop the member when its standard input closes (children of local-cluster)
 * @param timerLagTolerance an experiment whose timers fire on average later than this fraction of its scenario's
 *     mean service time (in scenario time) is stopped and fails ({@code ScaledClockCheck}, as in live mode);
 *     infinite with {@code timer-lag-check = off}
 * @param shutdownTimeout how long a gateway member's shutdown may take to stop its experiments, merge what was observed,
 *     write their result files and journal them as stopped (CoordinatedShutdown phase before-service-unbind)
 * @param ignoreSigint ignore SIGINT (children of local-cluster: a Ctrl-C in the terminal reaches the whole process group,
 *     and local-cluster stops its members itself, the gateway first)
 */
public record ClusterSettings(List<String> roles, String httpHost, int httpPort, String httpToken, String requireToken,
                              Path resultsDir, Duration startTimeout, Duration stopTimeout, Duration flushInterval,
                              Duration mergeLag, Duration jitWarmup, boolean journal, Duration checkpointInterval,
                              int maxRunning, int maxNodes, int decisionsKept, boolean kamon, boolean kamonAttach, Duration maxLifetime,
                              boolean exitOnStdinEof, double timerLagTolerance, Duration shutdownTimeout,
                              boolean ignoreSigint) {

    /**
     * Reads the settings from a member's whole config.
     *
     * @throws IllegalArgumentException naming the key, its value and what is allowed, for a value of the wrong type
     *     or out of range (a {@code --set loadlab.cluster.max-running-experiments = 0} used to start a gateway that
     *     answered every POST /experiments with 429, a zero flush or checkpoint interval one whose experiments failed)
     */
    public static ClusterSettings from(Config config) {
        Config c = config.getConfig("loadlab.cluster");
        Config m = config.getConfig("loadlab.metrics");
        return new ClusterSettings(c.getStringList("roles"), c.getString("http.host"), port(c, "http.port"),
                c.getString("http.token"), c.getString("http.require-token"), Path.of(c.getString("results-dir")),
                duration(c, "start-timeout", false), duration(c, "stop-timeout", false), duration(c, "flush-interval", false),
                duration(c, "merge-lag", true), duration(c, "jit-warmup", true), c.getBoolean("journal"),
                duration(c, "checkpoint-interval", false), whole(c, "max-running-experiments"), whole(c, "max-nodes"),
                whole(c, "explain.decisions-kept"), m.getBoolean("kamon"), m.getBoolean("attach-instrumentation"),
                duration(c, "max-lifetime", true), c.getBoolean("exit-on-stdin-eof"), timerLagTolerance(c),
                duration(c, "shutdown-timeout", false), c.getBoolean("ignore-sigint"));
    }

    /**
     * A duration setting of {@code loadlab.cluster}.
     *
     * @param zeroAllowed whether 0 is allowed (it means "none" or "off" for these keys)
     * @throws IllegalArgumentException naming the key and its value if it is no duration, negative, or 0 where not allowed
     */
    private static Duration duration(Config c, String key, boolean zeroAllowed) {
        Duration d;
        try {
            d = c.getDuration(key);
        } catch (com.typesafe.config.ConfigException.WrongType | com.typesafe.config.ConfigException.BadValue e) {
            d = null;
        }
        if (d == null || d.isNegative() || (d.isZero() && !zeroAllowed)) {
            throw new IllegalArgumentException("loadlab.cluster." + key + " = " + c.getValue(key).render()
                    + ": allowed a duration " + (zeroAllowed ? "of 0 or more (0 = none)" : "above 0") + ", e.g. "
                    + (key.equals("flush-interval") ? "100ms" : "5s"));
        }
        return d;
    }

    /**
     * A port setting of {@code loadlab.cluster} (0: any free port).
     *
     * @throws IllegalArgumentException naming the key and its value if it is no whole number in 0..65535
     */
    private static int port(Config c, String key) {
        return wholeIn(c, key, 0, 65535, "a port 0..65535 (0: any free port)");
    }

    /**
     * A count setting of {@code loadlab.cluster}, at least 1.
     *
     * @throws IllegalArgumentException naming the key and its value if it is no whole number or below 1
     */
    private static int whole(Config c, String key) {
        return wholeIn(c, key, 1, Integer.MAX_VALUE, "a whole number of 1 or more");
    }

    /**
     * A whole-number setting of {@code loadlab.cluster} in [min, max].
     *
     * @param allowed what the message says is allowed
     * @throws IllegalArgumentException naming the key, its value and {@code allowed} if it is no whole number or out of range
     */
    private static int wholeIn(Config c, String key, int min, int max, String allowed) {
        int n;
        try {
            n = c.getInt(key);
        } catch (com.typesafe.config.ConfigException.WrongType | com.typesafe.config.ConfigException.BadValue e) {
            n = min - 1; // min is never Integer.MIN_VALUE here
        }
        if (n < min || n > max) {
            throw new IllegalArgumentException("loadlab.cluster." + key + " = " + c.getValue(key).render() + ": allowed " + allowed);
        }
        return n;
    }

    /**
     * The {@code timer-lag-tolerance}, or infinity with {@code timer-lag-check = off}.
     *
     * @throws IllegalArgumentException if the tolerance is not a positive number
     */
    private static double timerLagTolerance(Config c) {
        if (!c.getBoolean("timer-lag-check")) {
            return Double.POSITIVE_INFINITY;
        }
        double t = c.getDouble("timer-lag-tolerance");
        if (!(t > 0) || Double.isInfinite(t)) {
            throw new IllegalArgumentException("loadlab.cluster.timer-lag-tolerance = " + c.getValue("timer-lag-tolerance").render()
                    + ": must be a number > 0 (a fraction of the scenario's mean service time; 0.1 = 10%), or set"
                    + " loadlab.cluster.timer-lag-check = off");
        }
        return t;
    }

    /** True if this member has {@code role} (or "all"). */
    public boolean has(String role) {
        return roles.contains(role) || roles.contains("all");
    }
}
