package org.loadlab.shell.cluster;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import com.typesafe.config.ConfigValueFactory;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The command-line choices of one member (null = take the configuration's value), and the
 * member's configuration built from them: flags > -D system properties > application.conf >
 * loadlab-cluster.conf > library defaults.
 *
 * @param roles node, balancer, gateway, all (comma-separated on the command line)
 * @param host canonical hostname of the member (remoting)
 * @param port remoting port
 * @param seedNodes seed nodes as host:port or pekko:// addresses
 * @param httpHost control API host
 * @param httpPort control API port
 * @param prometheusPort Prometheus endpoint port (Kamon)
 * @param extra further HOCON settings (key = value), applied last
 */
public record MemberOptions(List<String> roles, String host, Integer port, List<String> seedNodes, String httpHost,
                            Integer httpPort, Integer prometheusPort, List<String> extra) {
    /** The roles a member can have. */
    public static final List<String> ROLES = List.of("node", "balancer", "gateway", "all");

    /** The actor system's name: every member of one cluster uses it. */
    public static final String SYSTEM = "loadlab";

    /**
     * Checks the options.
     *
     * @return the problems (flag, value, what is allowed), empty if none
     */
    public List<String> problems() {
        List<String> p = new ArrayList<>();
        if (roles != null) {
            if (roles.isEmpty()) {
                p.add("--role: empty; allowed: " + String.join(", ", ROLES));
            }
            for (String r : roles) {
                if (!ROLES.contains(r)) {
                    p.add("--role = '" + r + "': allowed: " + String.join(", ", ROLES) + " (comma-separated)");
                }
            }
        }
        for (Integer port : new Integer[] {port, httpPort, prometheusPort}) {
            if (port != null && (port < 0 || port > 65535)) {
                p.add("port " + port + ": allowed 0..65535");
            }
        }
        if (seedNodes != null) {
            for (String s : seedNodes) {
                if (seedAddress(s) == null) {
                    p.add("--seed-nodes: '" + s + "' is neither host:port nor pekko://" + SYSTEM + "@host:port");
                }
            }
        }
        return p;
    }

    /** {@code host:port} or a full address as a pekko:// address, or null if malformed. */
    static String seedAddress(String s) {
        String t = s.trim();
        if (t.startsWith("pekko://")) {
            return t.matches("pekko://[A-Za-z0-9_-]+@[^:/]+:\\d{1,5}") ? t : null;
        }
        return t.matches("[^:/@]+:\\d{1,5}") ? "pekko://" + SYSTEM + "@" + t : null;
    }

    /** Roles with {@code all} expanded, in a fixed order. */
    public static List<String> expand(List<String> roles) {
        Set<String> set = new LinkedHashSet<>();
        for (String r : roles) {
            if (r.equals("all")) {
                set.addAll(List.of("node", "balancer", "gateway"));
            } else {
                set.add(r);
            }
        }
        return List.copyOf(set);
    }

    /** The member's whole configuration. */
    public Config config() {
        Config flags = ConfigFactory.empty();
        for (String e : extra == null ? List.<String>of() : extra) {
            flags = ConfigFactory.parseString(e).withFallback(flags);
        }
        if (roles != null) {
            flags = flags.withValue("loadlab.cluster.roles", ConfigValueFactory.fromIterable(roles));
        }
        if (host != null) {
            flags = flags.withValue("pekko.remote.artery.canonical.hostname", ConfigValueFactory.fromAnyRef(host));
        }
        if (port != null) {
            flags = flags.withValue("pekko.remote.artery.canonical.port", ConfigValueFactory.fromAnyRef(port));
        }
        if (seedNodes != null) {
            flags = flags.withValue("pekko.cluster.seed-nodes",
                    ConfigValueFactory.fromIterable(seedNodes.stream().map(MemberOptions::seedAddress).toList()));
        }
        if (httpHost != null) {
            flags = flags.withValue("loadlab.cluster.http.host", ConfigValueFactory.fromAnyRef(httpHost));
        }
        if (httpPort != null) {
            flags = flags.withValue("loadlab.cluster.http.port", ConfigValueFactory.fromAnyRef(httpPort));
        }
        if (prometheusPort != null) {
            flags = flags.withValue("kamon.prometheus.embedded-server.port", ConfigValueFactory.fromAnyRef(prometheusPort));
        }
        Config merged = flags
                .withFallback(ConfigFactory.defaultOverrides())
                .withFallback(ConfigFactory.defaultApplication())
                .withFallback(ConfigFactory.parseResources(MemberOptions.class.getClassLoader(), "loadlab-cluster.conf"))
                .withFallback(ConfigFactory.defaultReference())
                .resolve();
        // Pekko's own roles are the expanded LoadLab roles (the gateway places actors by them).
        List<String> expanded = expand(merged.getStringList("loadlab.cluster.roles"));
        return merged.withValue("pekko.cluster.roles", ConfigValueFactory.fromIterable(expanded));
    }
}
