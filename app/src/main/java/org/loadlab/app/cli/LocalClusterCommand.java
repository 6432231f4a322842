package org.loadlab.app.cli;

import com.fasterxml.jackson.databind.ObjectMapper;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code loadlab local-cluster}: the docker-compose topology (1 balancer+gateway member,
 * N node members) as child JVMs on loopback. Runs until Ctrl-C, {@code --stop-after}, or,
 * with {@code --experiment}, until that experiment has run (then prints its results and its
 * books). Exit codes: 0 after --stop-after or a finished experiment; 130 / 143 after Ctrl-C /
 * SIGTERM (the JVM's codes; the gateway stops first, stopping an experiment under way with its
 * results written and journaled, then the node members leave, {@link #stoppingNotice}); 1 when a
 * member dies unexpectedly (SIGKILL, a crash,
 * downed by the split brain resolver), when the experiment failed (its conservation check
 * included) or did not finish; 2 for a bad flag.
 */
@Command(name = "local-cluster", mixinStandardHelpOptions = true,
        description = {"Start the docker-compose cluster as local JVMs on 127.0.0.1.",
                "",
                "One balancer+gateway member (HTTP control API) and N node members. PostgreSQL, Prometheus and Grafana "
                        + "are not started."})
public final class LocalClusterCommand implements Callable<Integer> {
    private static final ObjectMapper JSON = new ObjectMapper();
    @CommandLine.Spec
    private CommandLine.Model.CommandSpec spec;

    @Option(names = "--nodes", defaultValue = "3", paramLabel = "N", description = "Node members (default 3).")
    private int nodes;

    @Option(names = "--base-port", defaultValue = "2551", paramLabel = "P",
            description = "Remoting port of the gateway; node members use the next ones (default 2551).")
    private int basePort;

    @Option(names = "--http-port", defaultValue = "8080", paramLabel = "P", description = "Control API port (default 8080).")
    private int httpPort;

    @Option(names = "--prometheus-port", defaultValue = "9095", paramLabel = "P",
            description = "Prometheus port of the gateway; node members use the next ones (default 9095).")
    private int prometheusPort;

    @Option(names = "--member-heap", defaultValue = "384m", paramLabel = "SIZE", description = "-Xmx of each member (default 384m).")
    private String heap;

    @Option(names = "--member-jvm-opt", paramLabel = "OPT",
            description = "A JVM option for every member, e.g. -XX:+UseParallelGC (repeatable; default -XX:+UseSerialGC;"
                    + " --member-heap sets -Xmx; -XX:MetaspaceSize=256m is added unless an option sets it).")
    private List<String> memberJvmOpts = new ArrayList<>();

    @Option(names = "--set", paramLabel = "KEY=VALUE", description = "A setting for every member (repeatable).")
    private List<String> sets = new ArrayList<>();

    @Option(names = "--experiment", paramLabel = "SCENARIO",
            description = "Once the cluster is up, run this built-in scenario or scenario file through the API, print its results"
                    + " and stop.")
    private String experiment;

    @Option(names = "--experiment-set", paramLabel = "KEY=VALUE", description = "Scenario override for --experiment (repeatable).")
    private List<String> experimentSets = new ArrayList<>();

    @Option(names = "--policy", paramLabel = "NAME", description = "Policy of --experiment (default: the scenario's first).")
    private String policy;

    @Option(names = "--stop-after", paramLabel = "SECONDS", description = "Stop the cluster after this many seconds.")
    private Double stopAfter;

    private volatile boolean closing;

    /** The --experiment scenario as checkBeforeStart loaded it, --experiment-set applied. */
    private org.loadlab.experiment.scenario.Scenario experimentScenario;

    /** The members' JVM options: the heap, then --member-jvm-opt (or the serial collector by default). */
    private List<String> jvmOptions() {
        List<String> opts = new ArrayList<>(List.of("-Xmx" + heap));
        opts.addAll(memberJvmOpts.isEmpty() ? List.of("-XX:+UseSerialGC") : memberJvmOpts);
        return opts;
    }

    @Override
    public Integer call() throws Exception {
        if (nodes < 1 || nodes > 32) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--nodes = " + nodes + ": allowed 1..32");
        }
        if (stopAfter != null && !(stopAfter > 0)) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--stop-after = " + stopAfter + ": must be > 0");
        }
        checkBeforeStart();
        List<String> memberArgs = new ArrayList<>();
        for (String s : sets) {
            memberArgs.add("--set");
            memberArgs.add(s);
        }
        LocalCluster cluster = LocalCluster.start(nodes, basePort, httpPort, prometheusPort, System.getProperty("java.class.path"),
                jvmOptions(), memberArgs, null);
        Thread hook = new Thread(() -> {
            closing = true; // Ctrl-C: the members' exits that follow are expected
            System.err.print(stoppingNotice(cluster.members().size(), experimentsOrNull(cluster), cluster.gatewayStopTimeout()));
            System.err.flush();
            cluster.close();
        }, "local-cluster-stop");
        Runtime.getRuntime().addShutdownHook(hook);
        try {
            boolean kamon = LocalCluster.kamonOn(memberArgs); // with Kamon off no member serves /metrics: name none
            for (LocalCluster.Member m : cluster.members()) {
                System.out.printf(Locale.ROOT, "  %-8s roles %-16s pekko://loadlab@127.0.0.1:%d%s%n", m.name(), m.roles(), m.port(),
                        kamon ? "  Prometheus http://127.0.0.1:" + m.prometheusPort() + "/metrics" : "");
            }
            System.out.println("  control API " + cluster.baseUrl() + " (docs/http-api.md)");
            if (!cluster.awaitUp(Duration.ofSeconds(90))) {
                System.err.println("error: the members did not all come Up within 90 s");
                return 1;
            }
            System.out.println("local-cluster: " + (nodes + 1) + " members Up");
            if (experiment != null) {
                return runExperiment(cluster);
            }
            long deadline = stopAfter == null ? Long.MAX_VALUE : System.nanoTime() + (long) (stopAfter * 1e9);
            while (System.nanoTime() < deadline) {
                String dead = deadMember(cluster);
                if (dead != null) {
                    System.err.println("error: " + dead);
                    System.err.print(stoppingNotice(cluster.members().size() - 1, experimentsOrNull(cluster),
                            cluster.gatewayStopTimeout()));
                    return 1;
                }
                Thread.sleep(200);
            }
            return 0;
        } finally {
            cluster.close();
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException e) {
                // already shutting down
            }
        }
    }

    /** GET /experiments of the gateway, or null when it does not answer (it died, or is stopping). */
    private static JsonNode experimentsOrNull(LocalCluster cluster) {
        return cluster.members().get(0).process().isAlive() ? cluster.get("/experiments") : null;
    }

    /**
     * What the user reads when the cluster stops (Ctrl-C, SIGTERM, a member that died): that
     * the members are being stopped, the gateway first (it stops each experiment under way as
     * DELETE does, writes its results and journals it as stopped, then leaves) and then the
     * node members (a graceful leave takes a few seconds), and, for each experiment still under
     * way, what becomes of it. The gateway's own lines (its log) say how each stop went, and
     * name an experiment it could not stop in time, which is then left {@code interrupted}.
     *
     * @param members how many members are being stopped
     * @param experiments a GET /experiments answer, or null if the gateway did not answer
     * @param gatewayTimeout how long the gateway is given before the node members are stopped
     * @return the lines, each ending with a newline
     */
    static String stoppingNotice(int members, JsonNode experiments, Duration gatewayTimeout) {
        StringBuilder b = new StringBuilder(String.format(Locale.ROOT, "local-cluster: stopping %d member%s: the gateway first"
                        + " (it stops the experiments under way and writes their results; up to %d s), then the node members"
                        + " (graceful leave, up to %d s)%n", members, members == 1 ? "" : "s", gatewayTimeout.toSeconds(),
                LocalCluster.MEMBER_STOP_TIMEOUT.toSeconds()));
        if (experiments == null) {
            return b.toString();
        }
        for (JsonNode e : experiments.path("experiments")) {
            String st = e.path("status").asText();
            if (st.equals("starting") || st.equals("running") || st.equals("draining") || st.equals("stopping")) {
                String id = e.path("id").asText();
                b.append(String.format(Locale.ROOT, "local-cluster: experiment %s was %s: the gateway stops it, writes its"
                        + " results so far to loadlab.cluster.results-dir/%s (default results/cluster) and journals it as"
                        + " stopped; one it cannot stop in time it names, and that one is left interrupted (POST"
                        + " /experiments/%s/rerun on a new cluster runs it again)%n", id, st, id, id));
            }
        }
        return b.toString();
    }

    /** A member process that exited (nothing here stops one before the cluster closes), in words; null if all run. */
    private String deadMember(LocalCluster cluster) {
        if (closing) {
            return null;
        }
        for (LocalCluster.Member m : cluster.members()) {
            if (!m.process().isAlive()) {
                return "member " + m.name() + " (" + m.roles() + ", port " + m.port() + ") exited unexpectedly with code "
                        + m.process().exitValue() + (m.log() != null ? "; see " + m.log() : "");
            }
        }
        return null;
    }

    /** Smallest --member-heap: below it a member cannot hold Pekko Cluster, Kamon and a scenario. */
    static final long MIN_MEMBER_HEAP = 128L << 20;

    /**
     * Every flag that can be checked without starting a member: --set settings, ports, heap size, the
     * experiment's scenario, overrides and policy. Each message names the flag, the value and
     * what is allowed.
     *
     * @throws BadInputException on the first flag that is wrong
     */
    void checkBeforeStart() {
        List<String> badSettings = org.loadlab.shell.cluster.MemberOptions.settingProblems(sets);
        if (!badSettings.isEmpty()) {
            throw new BadInputException(String.join("; ", badSettings));
        }
        try { // a value out of range (max-running-experiments = 0): refused here, not by every member once started
            org.loadlab.shell.cluster.ClusterSettings.from(
                    new org.loadlab.shell.cluster.MemberOptions(null, null, null, null, null, null, null, sets).config());
        } catch (IllegalArgumentException | com.typesafe.config.ConfigException e) {
            throw new BadInputException(e.getMessage());
        }
        checkPort("--base-port", basePort, nodes);
        checkPort("--http-port", httpPort, 0);
        checkPort("--prometheus-port", prometheusPort, nodes);
        if (overlaps(httpPort, httpPort, basePort, basePort + nodes)) {
            throw new BadInputException("--http-port = " + httpPort + ": the remoting ports --base-port " + basePort + ".."
                    + (basePort + nodes) + " include it; choose a port outside that range");
        }
        if (overlaps(prometheusPort, prometheusPort + nodes, basePort, basePort + nodes)
                || overlaps(httpPort, httpPort, prometheusPort, prometheusPort + nodes)) {
            throw new BadInputException("--prometheus-port = " + prometheusPort + ": its range " + prometheusPort + ".."
                    + (prometheusPort + nodes) + " overlaps the remoting ports " + basePort + ".." + (basePort + nodes)
                    + " or --http-port " + httpPort + "; choose a range apart from both");
        }
        long bytes = heapBytes(heap);
        if (bytes < 0) {
            throw new BadInputException("--member-heap = '" + heap + "': not a size; use a number with k, m or g, e.g. 384m or 1g");
        }
        if (bytes < MIN_MEMBER_HEAP) {
            throw new BadInputException("--member-heap = '" + heap + "': too small; allowed: at least 128m");
        }
        if (!memberJvmOpts.isEmpty()) {
            String refused = jvmRefuses(MemberJvmOptions.withDefaults(jvmOptions())); // what the members will run
            if (refused != null) {
                throw new BadInputException("--member-jvm-opt = '" + String.join(" ", memberJvmOpts) + "': the members' JVM"
                        + " refuses it (" + refused + "); allowed: options of this JVM, e.g. -XX:+UseParallelGC");
            }
        }
        if (experiment == null) {
            if (policy != null || !experimentSets.isEmpty()) {
                throw new BadInputException((policy != null ? "--policy" : "--experiment-set")
                        + " only applies with --experiment SCENARIO");
            }
            return;
        }
        if (!org.loadlab.experiment.scenario.BuiltIns.SCENARIOS.containsKey(experiment)
                && !java.nio.file.Files.isRegularFile(java.nio.file.Path.of(experiment))) {
            throw new BadInputException("--experiment = '" + experiment + "': no such built-in scenario or file; built-in: "
                    + String.join(", ", org.loadlab.experiment.scenario.BuiltIns.SCENARIOS.keySet()));
        }
        if (policy != null) {
            Scenarios.checkPolicy("--policy", policy);
        }
        org.loadlab.experiment.scenario.Scenario s = Scenarios.load(experiment, experimentSets, "--policy", policy, null);
        experimentScenario = s;
        if (s.isReferenceModel()) {
            throw new BadInputException("--experiment = '" + experiment + "': it has model = reference (the ASMF seed's"
                    + " time-stepped simulator), which only simulates; the cluster runs scenarios with model = message");
        }
        // What the gateway would refuse with a 400 (oracle, simulated membership events, too many nodes, ...), refused
        // here before four JVMs start and join (it used to take the cluster's start, about 25 s, to learn it).
        int maxNodes = new org.loadlab.shell.cluster.MemberOptions(null, null, null, null, null, null, null, sets).config()
                .getInt("loadlab.cluster.max-nodes"); // the members' value: --set over application.conf and loadlab-cluster.conf
        org.loadlab.shell.cluster.GatewayReply refused = org.loadlab.shell.cluster.Gateway.clusterRefusal(s,
                policy != null ? policy : s.policies().get(0), maxNodes);
        if (refused instanceof org.loadlab.shell.cluster.GatewayReply.Problem p) {
            throw new BadInputException("--experiment = '" + experiment + "': " + p.detail() + " (" + p.field()
                    + (p.value() != null ? " = " + p.value() : "") + (p.allowed() != null ? "; allowed: " + allowedText(p.allowed()) : "")
                    + ")");
        }
    }

    /**
     * What the JVM says when it cannot start with {@code options} ({@code java OPTIONS -version}, a
     * fraction of a second), or null when it starts. A mistyped {@code --member-jvm-opt} used to
     * start every member, each of which died at once, and local-cluster ended with "an unexpected
     * failure ... please include that file in a bug report".
     */
    static String jvmRefuses(List<String> options) {
        List<String> cmd = new ArrayList<>();
        cmd.add(java.nio.file.Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.addAll(options);
        cmd.add("-version");
        try {
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
            p.getOutputStream().close();
            String out = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
            if (!p.waitFor(30, java.util.concurrent.TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return null; // slow, not refused: the members' start will tell
            }
            return p.exitValue() == 0 ? null : out.lines().map(String::strip).filter(l -> !l.isEmpty())
                    .findFirst().orElse("exit code " + p.exitValue());
        } catch (java.io.IOException e) {
            return null; // this JVM's launcher cannot be run here: the members' start will tell
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }

    private static String allowedText(Object allowed) {
        return allowed instanceof java.util.Collection<?> c
                ? String.join(", ", c.stream().map(String::valueOf).toList()) : String.valueOf(allowed);
    }

    private static void checkPort(String flag, int port, int following) {
        if (port < 1 || port + following > 65535) {
            throw new BadInputException(flag + " = " + port + ": allowed: 1.." + (65535 - following)
                    + (following > 0 ? " (the next " + following + " ports are used too)" : ""));
        }
    }

    private static boolean overlaps(int a1, int a2, int b1, int b2) {
        return a1 <= b2 && b1 <= a2;
    }

    /** A JVM -Xmx size in bytes ("384m", "2g", "1048576"), or -1 if it is not one. */
    static long heapBytes(String size) {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("([0-9]{1,12})([kKmMgGtT]?)").matcher(size.trim());
        if (!m.matches()) {
            return -1;
        }
        long n = Long.parseLong(m.group(1));
        return switch (m.group(2).toLowerCase(Locale.ROOT)) {
            case "k" -> n << 10;
            case "m" -> n << 20;
            case "g" -> n << 30;
            case "t" -> n << 40;
            default -> n;
        };
    }

    /**
     * One line of an experiment's progress, saying which phase it is in: the JIT warm-up (the
     * members run the scenario first to compile its code; nothing of it is measured or kept,
     * docs/cluster.md), the experiment's own warm-up window (its scenario's {@code warmup},
     * excluded from the statistics), or the measured experiment. During the JIT warm-up the
     * experiment's own counts are all zero, so the line says what is happening instead.
     *
     * @param status a GET /experiments/{id} answer
     * @return e.g. {@code "  jit warm-up (not measured): starting; the members run this scenario for 10.0 s first ..."}
     *     or {@code "  experiment: running  t=12.0 s  arrived 1203  completed 1190  rejected 0  lost 0"}
     */
    static String progressLine(JsonNode status) {
        String st = status.path("status").asText();
        String phase = status.path("phase").asText("");
        if (phase.startsWith("jit-warm-up")) {
            String what = phase.substring("jit-warm-up".length()).replaceFirst("^:\\s*", "");
            return "  jit warm-up (not measured): " + st + (what.isEmpty() ? "" : "; " + what);
        }
        JsonNode p = status.path("progress");
        double t = p.path("scenarioSeconds").asDouble();
        double measuredFrom = p.path("measuredFromSeconds").asDouble(0);
        String label = measuredFrom > 0 && t < measuredFrom && (st.equals("starting") || st.equals("running"))
                ? String.format(Locale.ROOT, "experiment, warm-up window until t=%.1f s (not measured)", measuredFrom)
                : "experiment";
        double duration = p.path("durationSeconds").asDouble(0);
        // "of D s" while arrivals last; a draining experiment is past its duration
        String of = duration > 0 && t <= duration ? String.format(Locale.ROOT, " of %.0f s", duration) : "";
        return String.format(Locale.ROOT, "  %s: %s  t=%.1f s%s  arrived %d  completed %d  rejected %d  lost %d", label, st, t, of,
                p.path("arrived").asLong(), p.path("completed").asLong(), p.path("rejected").asLong(), p.path("lost").asLong());
    }

    /**
     * The experiment's books in one line (docs/cluster.md, "Every request accounted for"): the
     * reasons of unresolved and not-arrived requests only where there are any, and the failed
     * conservation check on a line of its own.
     *
     * @param a the status's {@code accounting}
     * @return e.g. {@code "books: 259 generated = 259 arrived (251 completed, 8 rejected, 0 lost, 0 unresolved) + 0 not arrived"}
     */
    static String booksLine(JsonNode a) {
        return String.format(Locale.ROOT, "books: %d generated = %d arrived (%d completed, %d rejected, %d lost, %d unresolved%s)"
                        + " + %d not arrived%s%s", a.path("generated").asLong(), a.path("arrived").asLong(),
                a.path("completed").asLong(), a.path("rejected").asLong(), a.path("lost").asLong(), a.path("unresolved").asLong(),
                reasons(a.path("unresolvedByReason")), a.path("notArrived").asLong(), reasons(a.path("notArrivedByReason")),
                a.path("ok").asBoolean(true) ? "" : System.lineSeparator() + "CONSERVATION CHECK FAILED: " + a.path("problems"));
    }

    /** {@code ": in-flight 7, deciding 1"} from a reason → count object, or "" when it has none. */
    private static String reasons(JsonNode byReason) {
        List<String> parts = new ArrayList<>();
        byReason.properties().forEach(e -> parts.add(e.getKey() + " " + e.getValue().asLong()));
        return parts.isEmpty() ? "" : ": " + String.join(", ", parts);
    }

    /**
     * The finished experiment's figures in one line: counts, mean and p99 response time (s),
     * completions per wall-clock second, and the routing decision's p50 and p99 in
     * milliseconds (the status gives microseconds; "-" when there were no decisions).
     *
     * @param id the experiment id
     * @param status its GET /experiments/{id} answer, with results
     */
    static String resultLine(String id, JsonNode status) {
        JsonNode m = status.path("results").path("metrics");
        JsonNode d = status.path("routing").path("decisionLatencyMicros");
        return String.format(Locale.ROOT, "%s: %d completed, %d rejected, %d lost; mean response %.3f s, p99 %.3f s;"
                        + " %.1f requests/s through the cluster; routing decision p50 %s, p99 %s",
                id, m.path("requestsCompleted").asLong(), m.path("requestsRejected").asLong(), m.path("requestsLost").asLong(),
                m.path("responseMean").asDouble(), m.path("responseP99").asDouble(),
                status.path("metricsSoFar").path("requestsPerSecondWall").asDouble(), millis(d.path("p50")), millis(d.path("p99")));
    }

    private static String millis(JsonNode micros) {
        return micros.isNumber() ? String.format(Locale.ROOT, "%.2f ms", micros.asDouble() / 1000) : "-";
    }

    /**
     * What a started experiment is, in one line: which members took which part, and how long it
     * runs in real time (a built-in scenario's duration is simulation-sized: quickstart's 600 s
     * are ten minutes on a cluster, so the line says how to shorten it).
     *
     * @param created POST /experiments' answer ({@code id}, {@code scenario}, {@code policy},
     *     {@code seed}, {@code timeScale}, {@code assignment} by member address)
     * @param status GET /experiments/{id} right after, for {@code progress.durationSeconds};
     *     null or without it when the gateway did not answer
     * @return e.g. {@code experiment exp-1 started: quickstart / p2c / seed 101; 20 nodes on 2
     *     node members, 1 balancer on 1; arrivals for 600 s of real time (--experiment-set duration=S to change)}
     */
    static String startedLine(JsonNode created, JsonNode status) {
        int nodes = 0;
        int balancers = 0;
        int nodeMembers = 0;
        int balancerMembers = 0;
        for (JsonNode part : created.path("assignment")) {
            int n = part.path("nodes").size();
            int b = part.path("balancers").size();
            nodes += n;
            balancers += b;
            nodeMembers += n > 0 ? 1 : 0;
            balancerMembers += b > 0 ? 1 : 0;
        }
        StringBuilder line = new StringBuilder(String.format(Locale.ROOT,
                "experiment %s started: %s / %s / seed %s; %d node%s on %d node member%s, %d balancer%s on %d member%s",
                created.path("id").asText(), created.path("scenario").asText(), created.path("policy").asText(),
                created.path("seed").asText(), nodes, nodes == 1 ? "" : "s", nodeMembers, nodeMembers == 1 ? "" : "s",
                balancers, balancers == 1 ? "" : "s", balancerMembers, balancerMembers == 1 ? "" : "s"));
        double duration = status == null ? 0 : status.path("progress").path("durationSeconds").asDouble(0);
        double scale = created.path("timeScale").asDouble(1);
        if (duration > 0 && scale > 0) {
            line.append(String.format(Locale.ROOT, "; arrivals for %.0f s of real time (--experiment-set duration=S to change)",
                    duration / scale));
        }
        return line.toString();
    }

    /**
     * The POST /experiments body of {@code --experiment}: a built-in scenario by name with the
     * overrides as {@code set}; a scenario file as the scenario object it resolves to, overrides
     * applied (its path went as a name, and the gateway answered 400 "unknown scenario
     * '/path/my.conf'" once the whole cluster had started).
     *
     * @param experiment the --experiment value
     * @param loaded that scenario as loaded here, --experiment-set applied
     * @param sets the --experiment-set values
     * @param policy the --policy value, or null
     */
    static ObjectNode experimentRequest(String experiment, org.loadlab.experiment.scenario.Scenario loaded, List<String> sets,
                                        String policy) throws java.io.IOException {
        ObjectNode body = JSON.createObjectNode();
        if (org.loadlab.experiment.scenario.BuiltIns.SCENARIOS.containsKey(experiment)) {
            body.put("scenario", experiment);
            body.set("set", JSON.valueToTree(sets));
        } else {
            body.set("scenario", JSON.readTree(loaded.resolvedJson()));
        }
        if (policy != null) {
            body.put("policy", policy);
        }
        return body;
    }

    private int runExperiment(LocalCluster cluster) throws Exception {
        ObjectNode body = experimentRequest(experiment, experimentScenario, experimentSets, policy);
        LocalCluster.Response created = cluster.send("POST", "/experiments", body.toString());
        for (int i = 0; i < 20 && created.status() == 503; i++) { // members' hosts still registering
            Thread.sleep(500);
            created = cluster.send("POST", "/experiments", body.toString());
        }
        if (created.status() != 201) {
            System.err.println("error: POST /experiments answered " + created.status() + ": " + created.body());
            return created.status() == 400 ? 2 : 1;
        }
        String id = created.body().get("id").asText();
        System.out.println(startedLine(created.body(), cluster.get("/experiments/" + id)));
        long deadline = stopAfter == null ? Long.MAX_VALUE : System.nanoTime() + (long) (stopAfter * 1e9);
        JsonNode status = null;
        String lastLine = null;
        while (System.nanoTime() < deadline) {
            Thread.sleep(1000);
            String dead = deadMember(cluster);
            if (dead != null) {
                System.err.println("error: " + dead + "; experiment " + id + " did not finish");
                return 1;
            }
            status = cluster.get("/experiments/" + id);
            if (status == null) {
                continue;
            }
            String st = status.get("status").asText();
            String line = progressLine(status);
            if (!line.equals(lastLine)) { // the JIT warm-up's line stays the same for its 10 s: print it once
                System.out.println(line);
                lastLine = line;
            }
            if (!st.equals("starting") && !st.equals("running") && !st.equals("draining") && !st.equals("stopping")) {
                break;
            }
        }
        if (status != null && status.has("accounting")) {
            System.out.println(booksLine(status.get("accounting")));
        }
        if (status != null && status.has("results") && status.get("status").asText().equals("finished")) {
            System.out.println(resultLine(id, status));
            System.out.println("results: " + status.get("results").get("dir").asText());
            return 0;
        }
        if (status != null && status.hasNonNull("error")) {
            System.err.println("error: experiment " + id + " " + status.get("status").asText() + ": " + status.get("error").asText());
        } else {
            System.err.println("error: experiment " + id + " did not finish: " + status);
        }
        return 1;
    }
}
