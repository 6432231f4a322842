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
        String[] portFlags = {"--port", "--http-port", "--prometheus-port"};
        Integer[] ports = {port, httpPort, prometheusPort};
        for (int i = 0; i < ports.length; i++) {
            if (ports[i] != null && (ports[i] < 0 || ports[i] > 65535)) {
                p.add(portFlags[i] + " = " + ports[i] + ": allowed: 0..65535");
            }
        }
        if (seedNodes != null) {
            for (String s : seedNodes) {
                if (seedAddress(s) == null) {
                    p.add("--seed-nodes = '" + s + "': neither host:port nor pekko://" + SYSTEM + "@host:port (port 1..65535)");
                }
            }
        }
        p.addAll(settingProblems(extra));
        return p;
    }

    /**
     * The problems of {@code --set} settings: one that is not HOCON, and a {@code loadlab.*} key
     * that names no setting (a typo such as {@code loadlab.cluster.jit-warmupp} was taken
     * silently and the member ran with the default). Keys of the libraries ({@code pekko.*},
     * {@code kamon.*}, ...) are passed on unchecked: some of theirs are open maps.
     *
     * @param settings {@code key = value} lines, or null
     * @return one problem per bad setting, naming it and what is allowed
     */
    public static List<String> settingProblems(List<String> settings) {
        List<String> p = new ArrayList<>();
        if (settings == null || settings.isEmpty()) {
            return p;
        }
        Config known = ConfigFactory.parseResources(MemberOptions.class.getClassLoader(), "loadlab-cluster.conf")
                .withFallback(ConfigFactory.defaultReference()).resolve();
        for (String e : settings) {
            Config parsed;
            try {
                parsed = ConfigFactory.parseString(e);
            } catch (com.typesafe.config.ConfigException x) {
                p.add("--set '" + e + "': not a setting (KEY = VALUE in HOCON): " + x.getMessage().replaceFirst("^String: 1: ", ""));
                continue;
            }
            if (parsed.isEmpty()) {
                p.add("--set '" + e + "': no setting in it; give KEY = VALUE, e.g. loadlab.metrics.kamon = off");
            }
            for (String key : parsed.entrySet().stream().map(java.util.Map.Entry::getKey).sorted().toList()) {
                if (key.startsWith("loadlab.") && !known.hasPathOrNull(key)) {
                    p.add("--set " + key + ": no such setting" + siblings(known, key) + " (docs/cluster.md lists them)");
                }
            }
        }
        return p;
    }

    /** "; the settings of loadlab.cluster are: a, b, ..." for the nearest existing parent of {@code key}. */
    private static String siblings(Config known, String key) {
        String parent = key;
        while (parent.contains(".")) {
            parent = parent.substring(0, parent.lastIndexOf('.'));
            if (known.hasPath(parent) && known.getValue(parent) instanceof com.typesafe.config.ConfigObject o) {
                return "; the settings of " + parent + " are: " + String.join(", ", new java.util.TreeSet<>(o.keySet()));
            }
        }
        return "";
    }

    /**
     * {@code host:port} or a full address as a pekko:// address, or null if malformed: a host
     * that is not a host name, an IPv4 address or a bracketed IPv6 one (a space in it used to
     * reach Pekko's own parser and end the command with a stack trace), a port outside
     * 1..65535 (port 0 was taken and the member tried to join port 0 until it gave up), or an
     * actor system other than {@code loadlab} (it was taken, and no member of a LoadLab
     * cluster can join one).
     */
    static String seedAddress(String s) {
        String t = s.trim();
        boolean full = t.startsWith("pekko://");
        String host = "([A-Za-z0-9._-]+|\\[[0-9A-Fa-f:.]+\\])";
        if (!t.matches(full ? "pekko://" + SYSTEM + "@" + host + ":\\d{1,5}" : host + ":\\d{1,5}")) {
            return null;
        }
        int port = Integer.parseInt(t.substring(t.lastIndexOf(':') + 1));
        if (port < 1 || port > 65535) {
            return null;
        }
        String address = full ? t : "pekko://" + SYSTEM + "@" + t;
        try {
            org.apache.pekko.actor.AddressFromURIString.parse(address);
        } catch (Exception e) { // Pekko's parser: a MalformedURLException (declared in Scala only)
            return null;
        }
        return address;
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
