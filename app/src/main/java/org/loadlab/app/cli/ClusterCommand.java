package org.loadlab.app.cli;

import org.loadlab.shell.cluster.ClusterMember;
import org.loadlab.shell.cluster.ClusterSettings;
import org.loadlab.shell.cluster.MemberOptions;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigValueFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code loadlab cluster}: runs one member of a LoadLab cluster until it is stopped
 * (SIGTERM or Ctrl-C: graceful leave), downed by the split brain resolver, or its
 * max-lifetime passes. Exit codes: 0 when it stops by itself (max-lifetime, stdin closed),
 * 130 / 143 after Ctrl-C / SIGTERM (the JVM's codes; a graceful leave, a gateway first stopping
 * its experiments with their results written and journaled: docs/cluster.md, "Stopping a
 * gateway"), 255 when downed by the
 * split brain resolver or no seed could be joined (Pekko's code, with a line saying why: {@code
 * ClusterMember.leavingLine}), 1 if the member could not start, 2 for a bad flag or a port
 * (remoting, HTTP, Prometheus) another process holds.
 */
@Command(name = "cluster", mixinStandardHelpOptions = true,
        description = {"Run one member of a LoadLab cluster (Pekko Cluster).",
                "",
                "A member hosts node actors, balancers and/or the gateway with the HTTP control API. Settings: "
                        + "loadlab-cluster.conf, application.conf, -D, environment (docs/cluster.md)."})
public final class ClusterCommand implements Callable<Integer> {
    @CommandLine.Spec
    private CommandLine.Model.CommandSpec spec;

    @Option(names = "--role", split = ",", paramLabel = "ROLE",
            description = "node, balancer, gateway or all; comma-separated, e.g. balancer,gateway (default: all).")
    private List<String> roles;

    @Option(names = "--host", paramLabel = "HOST", description = "Canonical hostname of this member (default 127.0.0.1).")
    private String host;

    @Option(names = "--port", paramLabel = "P", description = "Remoting port of this member (default 2551; 0 = any free port).")
    private Integer port;

    @Option(names = "--seed-nodes", split = ",", paramLabel = "HOST:PORT",
            description = "Seed members, host:port or pekko://loadlab@host:port, comma-separated (default 127.0.0.1:2551).")
    private List<String> seedNodes;

    @Option(names = "--http-host", paramLabel = "HOST", description = "Control API address (gateway role; default 127.0.0.1).")
    private String httpHost;

    @Option(names = "--http-port", paramLabel = "P", description = "Control API port (gateway role; default 8080).")
    private Integer httpPort;

    @Option(names = "--prometheus-port", paramLabel = "P", description = "Prometheus endpoint port (default 9095).")
    private Integer prometheusPort;

    @Option(names = "--set", paramLabel = "KEY=VALUE", description = "Any setting, e.g. --set loadlab.metrics.kamon=off (repeatable).")
    private List<String> sets = new ArrayList<>();

    @Override
    public Integer call() {
        MemberOptions options = new MemberOptions(roles, host, port, seedNodes, httpHost, httpPort, prometheusPort, sets);
        List<String> problems = options.problems();
        if (!problems.isEmpty()) {
            throw new CommandLine.ParameterException(spec.commandLine(), String.join("; ", problems));
        }
        Config config;
        ClusterSettings settings;
        try {
            config = options.config().withValue("pekko.coordinated-shutdown.exit-jvm", ConfigValueFactory.fromAnyRef("on"));
            settings = ClusterSettings.from(config);
        } catch (com.typesafe.config.ConfigException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), "bad setting: " + e.getMessage());
        }
        if (settings.has("gateway") && org.loadlab.app.http.ControlApi.missingToken(settings)) {
            // a flag problem, refused before the member starts (it used to start the actor system, then exit 1)
            String token = " (LOADLAB_HTTP_TOKEN or --set loadlab.cluster.http.token=...)";
            throw new BadInputException(settings.requireToken().equals("on")
                    ? "loadlab.cluster.http.require-token = on: the control API needs a bearer token" + token + "; none is set"
                    : "--http-host = '" + settings.httpHost() + "': beyond loopback the control API needs a bearer token for the"
                    + " requests that change state" + token + "; allowed without one: a loopback address (127.0.0.1, ::1)");
        }
        config = withChosenPrometheusPort(config, settings);
        requirePortsFree(config, settings);
        ClusterMember member;
        try {
            member = ClusterMember.start(config, org.loadlab.app.http.ControlApi.edge());
        } catch (IllegalStateException e) {
            spec.commandLine().getErr().println("error: " + e.getMessage());
            return 1;
        }
        ClusterSettings s = member.settings();
        StringBuilder line = new StringBuilder("loadlab: member " + member.system().address() + " roles "
                + MemberOptions.expand(s.roles()) + " joining " + config.getStringList("pekko.cluster.seed-nodes"));
        if (member.httpPort() > 0) {
            line.append("; control API http://").append(s.httpHost()).append(':').append(member.httpPort());
        }
        if (s.kamon()) {
            line.append("; Prometheus http://").append(config.getString("kamon.prometheus.embedded-server.hostname")).append(':')
                    .append(config.getInt("kamon.prometheus.embedded-server.port")).append("/metrics");
        }
        System.out.println(line);
        System.out.flush();
        member.awaitTermination();
        return 0;
    }

    /**
     * Refuses, before the member starts, a port it would bind that another process holds: the
     * remoting port ({@code --port}; where Artery binds: {@code pekko.remote.artery.bind.*} when
     * set, else the canonical address), the control API's ({@code --http-port}, gateway role)
     * and Kamon's Prometheus port ({@code --prometheus-port}, when Kamon is on). A taken port
     * used to end the member later with exit code 1 (a bind failure after the actor system had
     * started); now it is one line naming the flag and the port, exit code 2, as in
     * {@code local-cluster} ({@link Ports#requireFree}). Port 0 (any free port) is not checked.
     *
     * @param config the member's configuration (flags applied)
     * @param settings its LoadLab settings
     * @throws BadInputException naming the port, the host and the flag
     */
    static void requirePortsFree(Config config, ClusterSettings settings) {
        String bindHost = setting(config, "pekko.remote.artery.bind.hostname");
        String bindPort = setting(config, "pekko.remote.artery.bind.port");
        String host = bindHost != null ? bindHost : config.getString("pekko.remote.artery.canonical.hostname");
        int port;
        try {
            port = bindPort != null ? Integer.parseInt(bindPort) : config.getInt("pekko.remote.artery.canonical.port");
        } catch (NumberFormatException | com.typesafe.config.ConfigException e) {
            throw new BadInputException("pekko.remote.artery.bind.port = '" + bindPort + "': not a port number (0..65535)");
        }
        Ports.requireFree(host, port, "the remoting port (" + (bindPort != null ? "pekko.remote.artery.bind.port" : "--port")
                + ")", bindHost != null ? "pekko.remote.artery.bind.hostname" : "--host");
        if (settings.has("gateway")) {
            Ports.requireFree(settings.httpHost(), settings.httpPort(), "the HTTP port (--http-port)", "--http-host");
        }
        if (settings.kamon()) {
            requirePrometheusPortFree(config.getString("kamon.prometheus.embedded-server.hostname"),
                    config.getInt("kamon.prometheus.embedded-server.port"));
        }
    }

    /**
     * With {@code --prometheus-port 0} (any free port) and Kamon on, the configuration with a
     * free port chosen here, so that the member's line names the port Kamon serves on: it used
     * to print {@code Prometheus http://127.0.0.1:0/metrics} while Kamon bound some other port.
     * (Another process could take the port before Kamon binds it, as with any port checked here.)
     */
    static Config withChosenPrometheusPort(Config config, ClusterSettings settings) {
        String key = "kamon.prometheus.embedded-server.port";
        if (!settings.kamon() || config.getInt(key) != 0) {
            return config;
        }
        try (java.net.ServerSocket probe = new java.net.ServerSocket()) {
            probe.bind(new java.net.InetSocketAddress(config.getString("kamon.prometheus.embedded-server.hostname"), 0));
            return config.withValue(key, ConfigValueFactory.fromAnyRef(probe.getLocalPort()));
        } catch (java.io.IOException e) {
            return config; // the host cannot be bound: requirePortsFree and Kamon say so
        }
    }

    /** A string setting, or null when it is absent or empty (Pekko's "use the canonical one"). */
    private static String setting(Config config, String path) {
        if (!config.hasPath(path)) {
            return null;
        }
        String v = config.getString(path).trim();
        return v.isEmpty() ? null : v;
    }

    /**
     * Refuses a Prometheus port another process holds before the member starts: Kamon's
     * reporter would otherwise log its BindException many times over and the member would
     * announce an endpoint that serves someone else's metrics.
     *
     * @param host the address Kamon's embedded server binds ({@code kamon.prometheus.embedded-server.hostname})
     * @param port its port ({@code --prometheus-port}); 0 (any free port) is not checked
     * @throws BadInputException naming the port, the host and {@code --prometheus-port}
     */
    static void requirePrometheusPortFree(String host, int port) {
        Ports.requireFree(host, port, "the Prometheus port (--prometheus-port)", "kamon.prometheus.embedded-server.hostname");
    }
}
