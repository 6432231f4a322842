package org.loadlab.app.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

/**
 * A private network of Linux network namespaces for fault tests: namespace i (1..n) has one
 * veth interface with address 10.213.R.i/24 (R a random run number), its peer end attached
 * to bridge A in this (the root) namespace, which has 10.213.R.254. {@link #cut} moves some
 * namespaces' ends to a second bridge B: the two groups then reach only their own side, a
 * partition between JVMs; {@link #heal} moves them back. Only these namespaces, veths and
 * bridges are created and touched (iproute2's {@code ip}); {@link #close} deletes them.
 */
final class Netns implements AutoCloseable {
    private final int run = ThreadLocalRandom.current().nextInt(10, 250);
    private final int count;
    private final List<String> created = new ArrayList<>();

    private Netns(int count) {
        this.count = count;
    }

    /** True if this process may create network namespaces (root with CAP_NET_ADMIN and iproute2). */
    static boolean available() {
        try {
            String probe = "loadlab-probe-" + ProcessHandle.current().pid();
            if (exec("ip", "netns", "add", probe) != 0) {
                return false;
            }
            exec("ip", "netns", "del", probe);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    /** Creates {@code count} namespaces on one bridge. @throws IOException if a command fails */
    static Netns create(int count) throws IOException {
        Netns n = new Netns(count);
        try {
            n.setUp();
        } catch (IOException | RuntimeException e) {
            n.close();
            throw e;
        }
        return n;
    }

    private void setUp() throws IOException {
        must("ip", "link", "add", bridge('a'), "type", "bridge");
        created.add("link:" + bridge('a'));
        must("ip", "link", "add", bridge('b'), "type", "bridge");
        created.add("link:" + bridge('b'));
        must("ip", "addr", "add", "10.213." + run + ".254/24", "dev", bridge('a'));
        must("ip", "link", "set", bridge('a'), "up");
        must("ip", "link", "set", bridge('b'), "up");
        for (int i = 1; i <= count; i++) {
            must("ip", "netns", "add", ns(i));
            created.add("ns:" + ns(i));
            must("ip", "link", "add", hostEnd(i), "type", "veth", "peer", "name", nsEnd(i));
            created.add("link:" + hostEnd(i));
            must("ip", "link", "set", nsEnd(i), "netns", ns(i));
            must("ip", "link", "set", hostEnd(i), "master", bridge('a'));
            must("ip", "link", "set", hostEnd(i), "up");
            must("ip", "netns", "exec", ns(i), "ip", "addr", "add", address(i) + "/24", "dev", nsEnd(i));
            must("ip", "netns", "exec", ns(i), "ip", "link", "set", nsEnd(i), "up");
            must("ip", "netns", "exec", ns(i), "ip", "link", "set", "lo", "up");
        }
    }

    /** Namespace name of member {@code i}. */
    String ns(int i) {
        return "loadlab-" + run + "-" + i;
    }

    /** The address of member {@code i}. */
    String address(int i) {
        return "10.213." + run + "." + i;
    }

    private String bridge(char which) {
        return "llbr" + run + which;
    }

    private String hostEnd(int i) {
        return "llh" + run + "x" + i;
    }

    private String nsEnd(int i) {
        return "lln" + run + "x" + i;
    }

    /** The command prefix that runs a program in member {@code i}'s namespace. */
    List<String> in(int i) {
        return List.of("ip", "netns", "exec", ns(i));
    }

    /** Partitions: members {@code side} reach only each other; the rest (and this process) only each other. */
    void cut(Set<Integer> side) throws IOException {
        for (int i : side) {
            must("ip", "link", "set", hostEnd(i), "master", bridge('b'));
        }
    }

    /** Heals every cut. */
    void heal() throws IOException {
        for (int i = 1; i <= count; i++) {
            must("ip", "link", "set", hostEnd(i), "master", bridge('a'));
        }
    }

    @Override
    public void close() {
        for (int k = created.size() - 1; k >= 0; k--) {
            String c = created.get(k);
            try {
                if (c.startsWith("ns:")) {
                    exec("ip", "netns", "del", c.substring(3));
                } else {
                    exec("ip", "link", "del", c.substring(5));
                }
            } catch (IOException e) {
                // best effort: the namespace or link may be gone already
            }
        }
    }

    private static void must(String... cmd) throws IOException {
        if (exec(cmd) != 0) {
            throw new IOException("command failed: " + String.join(" ", cmd));
        }
    }

    private static int exec(String... cmd) throws IOException {
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        try {
            byte[] out = p.getInputStream().readAllBytes();
            if (!p.waitFor(20, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return -1;
            }
            if (p.exitValue() != 0) {
                System.err.println(String.join(" ", cmd) + ": " + new String(out, StandardCharsets.UTF_8).trim());
            }
            return p.exitValue();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return -1;
        }
    }
}
