package org.loadlab.app.cli;

import com.fasterxml.jackson.databind.ObjectMapper;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The topology of docker/docker-compose.yml as local JVMs on loopback: one member with the
 * balancer and gateway roles (remoting port {@code basePort}, HTTP {@code httpPort}) and
 * {@code nodes} members with the node role (ports basePort+1 ...), each a child process
 * running {@code loadlab cluster}. Children stop when this process closes their standard
 * input (so they never outlive it), on {@link #close} (SIGTERM: graceful leave; the gateway
 * first, so that it still has its node members while it stops its experiments), or when
 * killed with {@link #kill} (SIGKILL: what the split brain resolver is for). They ignore
 * SIGINT: a Ctrl-C in the terminal reaches every process of the group, and this process
 * stops them itself, in that order.
 * PostgreSQL, Prometheus and Grafana of the compose file are not started: the gateway
 * keeps results in files, and each member serves its Prometheus endpoint on loopback.
 */
public final class LocalCluster implements AutoCloseable {
    private static final ObjectMapper JSON = new ObjectMapper();
    /**
     * One child member.
     *
     * @param name gateway, node-1, node-2, ...
     * @param roles its roles
     * @param port remoting port
     * @param prometheusPort its Prometheus endpoint
     * @param process the child process
     * @param log where its output goes (null: relayed to this process's stdout)
     */
    public record Member(String name, String roles, int port, int prometheusPort, Process process, Path log) {
    }

    private final List<Member> members = new ArrayList<>();
    private final int httpPort;
    private final Duration gatewayStopTimeout;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    private final List<Thread> relays = new ArrayList<>();
    /** Set by {@link #close}: from then on, lines that only say the members are going are counted, not shown. */
    private volatile boolean stopping;
    private final AtomicInteger hiddenWhileStopping = new AtomicInteger();

    private LocalCluster(int httpPort, Duration gatewayStopTimeout) {
        this.httpPort = httpPort;
        this.gatewayStopTimeout = gatewayStopTimeout;
    }

    /**
     * What node members get before the caller's {@code memberArgs} (which can override it): a
     * cluster leave given up after 3 s instead of Pekko's 10 s. local-cluster stops its node
     * members together, after the gateway; leaving at once, one could wait for another already
     * gone and sit out the full 10 s (each stop took 10 s longer). A leave that can converge
     * does so within 1 to 2 gossip rounds of 1 s.
     */
    static final List<String> NODE_MEMBER_ARGS = List.of("--set", "pekko.coordinated-shutdown.phases.cluster-exiting.timeout = 3s");

    /** How long the node members get to leave after SIGTERM before SIGKILL. */
    static final Duration MEMBER_STOP_TIMEOUT = Duration.ofSeconds(20);

    /**
     * How long {@link #close} waits for the gateway after SIGTERM before it stops the node
     * members: the gateway's {@code loadlab.cluster.shutdown-timeout} (stopping its experiments
     * and journaling them; the members' value, {@code --set} included) plus
     * {@link #MEMBER_STOP_TIMEOUT} for its own leave.
     *
     * @param memberArgs the arguments every member gets, e.g. {@code --set loadlab.cluster.shutdown-timeout = 30s}
     */
    static Duration gatewayStopTimeout(List<String> memberArgs) {
        return memberConfig(memberArgs).getDuration("loadlab.cluster.shutdown-timeout").plus(MEMBER_STOP_TIMEOUT);
    }

    /**
     * Starts the members.
     *
     * @param nodes number of node members, ≥ 1
     * @param basePort remoting port of the gateway; nodes use the next ones
     * @param httpPort control API port of the gateway
     * @param basePrometheusPort Prometheus port of the gateway; nodes use the next ones
     * @param classPath class path of the children
     * @param jvmArgs extra JVM arguments of the children (e.g. -Xmx, -D settings); {@link MemberJvmOptions#withDefaults}
     *                adds the metadata threshold unless they set it
     * @param memberArgs extra arguments of every {@code loadlab cluster} command (e.g. --set k=v)
     * @param logDir directory for one log file per member, or null to relay output with a prefix
     */
    public static LocalCluster start(int nodes, int basePort, int httpPort, int basePrometheusPort, String classPath,
                                     List<String> jvmArgs, List<String> memberArgs, Path logDir) throws IOException {
        requireFree(httpPort, "the HTTP port (--http-port)");
        for (int i = 0; i <= nodes; i++) {
            requireFree(basePort + i, "a remoting port (--base-port " + basePort + " + " + i + ")");
        }
        if (kamonOn(memberArgs)) { // with Kamon off no member binds a Prometheus port
            for (int i = 0; i <= nodes; i++) {
                requireFree(basePrometheusPort + i, "a Prometheus port (--prometheus-port " + basePrometheusPort + " + " + i + ")");
            }
        }
        LocalCluster c = new LocalCluster(httpPort, gatewayStopTimeout(memberArgs));
        String seed = "127.0.0.1:" + basePort;
        try {
            c.spawn("gateway", "balancer,gateway", basePort, basePrometheusPort, seed, classPath, jvmArgs,
                    concat(memberArgs, List.of("--http-port", String.valueOf(httpPort))), logDir);
            for (int i = 1; i <= nodes; i++) {
                c.spawn("node-" + i, "node", basePort + i, basePrometheusPort + i, seed, classPath, jvmArgs,
                        concat(NODE_MEMBER_ARGS, memberArgs), logDir);
            }
        } catch (IOException | RuntimeException e) {
            c.close();
            throw e;
        }
        return c;
    }

    private static List<String> concat(List<String> a, List<String> b) {
        List<String> l = new ArrayList<>(a);
        l.addAll(b);
        return l;
    }

    private void spawn(String name, String roles, int port, int promPort, String seed, String classPath, List<String> jvmArgs,
                       List<String> memberArgs, Path logDir) throws IOException {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.addAll(MemberJvmOptions.withDefaults(jvmArgs));
        String configFile = System.getProperty("config.file");
        if (configFile != null) {
            cmd.add("-Dconfig.file=" + configFile);
        }
        cmd.addAll(List.of("-cp", classPath, LoadLabCli.class.getName(), "cluster", "--role", roles, "--host", "127.0.0.1",
                "--port", String.valueOf(port), "--seed-nodes", seed, "--prometheus-port", String.valueOf(promPort),
                "--set", "loadlab.cluster.exit-on-stdin-eof = on", "--set", "loadlab.cluster.ignore-sigint = on"));
        cmd.addAll(memberArgs);
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
        Path log = null;
        if (logDir != null) {
            log = logDir.resolve(name + ".log");
            pb.redirectOutput(log.toFile());
        }
        Process p = pb.start(); // stdin stays a pipe held open by this process
        if (logDir == null) {
            relays.add(relay(name, p, System.out));
        }
        members.add(new Member(name, roles, port, promPort, p, log));
    }

    private Thread relay(String name, Process p, PrintStream out) {
        Thread t = new Thread(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = r.readLine()) != null) {
                    if (stopping && isStopNoise(line)) {
                        hiddenWhileStopping.incrementAndGet();
                    } else {
                        out.println("[" + name + "] " + line);
                    }
                }
            } catch (IOException e) {
                // the child is gone
            }
        }, "relay-" + name);
        t.setDaemon(true);
        t.start();
        return t;
    }

    /**
     * Whether a member's log line is one that members stopping together always log: each
     * member's Artery streams to the others fail with "connection aborted" as those exit, and
     * a node member's cluster leave cannot converge once the others are gone (its
     * {@code cluster-exiting} phase times out, {@link #NODE_MEMBER_ARGS}). Shown after a
     * successful run they read as a failure; Pekko logs the same lines, at the same level,
     * for a real failure while running, so they are hidden only while {@link #close} stops
     * the members, and counted.
     *
     * @param line a line of a member's output
     * @return true for the Artery "connection has been aborted" warning and the
     *     {@code cluster-exiting} phase timeout
     */
    static boolean isStopNoise(String line) {
        return line.contains("StreamTcpException: The connection has been aborted")
                || line.contains("Coordinated shutdown phase [cluster-exiting] timed out");
    }

    /** The members, gateway first. */
    public List<Member> members() {
        return List.copyOf(members);
    }

    /** Base URL of the control API. */
    public String baseUrl() {
        return "http://127.0.0.1:" + httpPort;
    }

    /** GET {@code path} as JSON, or null if the API does not answer. */
    public JsonNode get(String path) {
        try {
            HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(baseUrl() + path)).timeout(Duration.ofSeconds(10))
                    .GET().build(), HttpResponse.BodyHandlers.ofString());
            return JSON.readTree(r.body());
        } catch (IOException e) {
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }

    /** Sends {@code method path} with a JSON body; returns the status and the JSON body. */
    public Response send(String method, String path, String json) throws IOException, InterruptedException {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(baseUrl() + path)).timeout(Duration.ofSeconds(15))
                .header("Content-Type", "application/json")
                .method(method, json == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(json))
                .build(), HttpResponse.BodyHandlers.ofString());
        return new Response(r.statusCode(), r.body().isEmpty() ? null : JSON.readTree(r.body()));
    }

    /**
     * Fails fast when {@code port} is taken on 127.0.0.1 (e.g. by another local cluster):
     * otherwise the new members would fail to bind while the old cluster answered for them.
     * The check of {@code cluster} ({@link Ports#requireFree}): a port left in TIME_WAIT by a
     * cluster that was just stopped counts as free, as it is for the members' servers.
     *
     * @throws BadInputException naming the port and what it is for
     */
    static void requireFree(int port, String what) {
        Ports.requireFree("127.0.0.1", port, what, "127.0.0.1");
    }

    /**
     * Whether the members will start Kamon and so bind their Prometheus ports: the members'
     * configuration as {@code loadlab cluster} builds it (its {@code --set} values in
     * {@code memberArgs} over application.conf, -D and loadlab-cluster.conf), key
     * {@code loadlab.metrics.kamon}.
     *
     * @param memberArgs the arguments every member gets, e.g. {@code --set loadlab.metrics.kamon = off}
     */
    static boolean kamonOn(List<String> memberArgs) {
        return memberConfig(memberArgs).getBoolean("loadlab.metrics.kamon");
    }

    /** The members' configuration as {@code loadlab cluster} builds it from {@code memberArgs}' {@code --set} values. */
    static com.typesafe.config.Config memberConfig(List<String> memberArgs) {
        List<String> sets = new ArrayList<>();
        for (int i = 0; i + 1 < memberArgs.size(); i++) {
            if (memberArgs.get(i).equals("--set")) {
                sets.add(memberArgs.get(++i));
            }
        }
        return new org.loadlab.shell.cluster.MemberOptions(null, null, null, null, null, null, null, sets).config();
    }

    /** How long {@link #close} waits for the gateway before it stops the node members. */
    public Duration gatewayStopTimeout() {
        return gatewayStopTimeout;
    }

    /** An HTTP status and JSON body. */
    public record Response(int status, JsonNode body) {
    }

    /**
     * Waits until every member is Up in the gateway's view of the cluster.
     *
     * @return true if they are within {@code timeout}
     */
    public boolean awaitUp(Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            for (Member m : members) {
                if (!m.process().isAlive()) {
                    throw new IllegalStateException("member " + m.name() + " exited with code " + m.process().exitValue()
                            + (m.log() != null ? "; see " + m.log() : ""));
                }
            }
            JsonNode c = get("/cluster");
            if (c != null && c.has("members")) {
                int up = 0;
                for (JsonNode m : c.get("members")) {
                    if (m.get("status").asText().equals("Up")) {
                        up++;
                    }
                }
                if (up == members.size()) {
                    return true;
                }
            }
            Thread.sleep(250);
        }
        return false;
    }

    /** SIGKILL to member {@code name} (no graceful leave). */
    public void kill(String name) {
        for (Member m : members) {
            if (m.name().equals(name)) {
                m.process().destroyForcibly();
            }
        }
    }

    /**
     * Stops the cluster in the order that keeps a running experiment's results: SIGTERM to the
     * gateway first, and a wait until it has exited ({@link #gatewayStopTimeout}: it stops its
     * experiments, collects the node members' last observations, writes the result files and
     * journals them as stopped, then leaves); then SIGTERM to the node members (graceful leave,
     * {@link #MEMBER_STOP_TIMEOUT}). A member still running after its time gets SIGKILL.
     * Signalling all at once, as this did, let the node members leave while the gateway was
     * still collecting from them.
     */
    @Override
    public void close() {
        stopping = true;
        if (!members.isEmpty()) {
            stop(members.subList(0, 1), gatewayStopTimeout);
        }
        if (members.size() > 1) {
            stop(members.subList(1, members.size()), MEMBER_STOP_TIMEOUT);
        }
        for (Thread relay : relays) {
            try {
                relay.join(TimeUnit.SECONDS.toMillis(2)); // the last lines of an exited member
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        int hidden = hiddenWhileStopping.get();
        if (hidden > 0) {
            System.out.println("local-cluster: members stopped (" + hidden + " warning line" + (hidden == 1 ? "" : "s")
                    + " not shown: connections closed and cluster leaves cut short, as always when the members stop together)");
        }
    }

    /**
     * SIGTERM to each of {@code group}, then SIGKILL to any still running after {@code timeout}.
     * Through the process handle: {@link Process#destroy} also closes the child's pipes, so its
     * standard input ended at once (it then stopped for that reason, not the signal) and its
     * last lines (the gateway's report of its stop) were never relayed.
     */
    private static void stop(List<Member> group, Duration timeout) {
        for (Member m : group) {
            m.process().toHandle().destroy();
        }
        long deadline = System.nanoTime() + timeout.toNanos();
        for (Member m : group) {
            try {
                long left = Math.max(1, deadline - System.nanoTime());
                if (!m.process().waitFor(left, TimeUnit.NANOSECONDS)) {
                    m.process().destroyForcibly().waitFor(5, TimeUnit.SECONDS);
                }
            } catch (InterruptedException e) {
                m.process().destroyForcibly();
                Thread.currentThread().interrupt();
            }
        }
    }
}
