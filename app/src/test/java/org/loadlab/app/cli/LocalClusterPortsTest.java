package org.loadlab.app.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The port check of {@code local-cluster}: a port some process listens on is "in use"; a port
 * whose last connections are in TIME_WAIT (a cluster stopped a moment ago) is free, because the
 * members bind with address reuse, so starting again right after a clean stop works. Every
 * port a member would bind (remoting, HTTP, Prometheus) is checked before one starts, and the
 * message names the flag the user typed. {@code cluster} checks its own ports (remoting, HTTP
 * for a gateway, Prometheus) with the same code before its member starts.
 */
class LocalClusterPortsTest {

    @Test
    void aListeningPortIsInUse() throws IOException {
        try (ServerSocket taken = new ServerSocket()) {
            taken.bind(new InetSocketAddress("127.0.0.1", 0));
            BadInputException e = assertThrows(BadInputException.class,
                    () -> LocalCluster.requireFree(taken.getLocalPort(), "the HTTP port (--http-port)"));
            assertTrue(e.getMessage().contains("port " + taken.getLocalPort() + " on 127.0.0.1 is in use; it is the HTTP port"),
                    e.getMessage());
        }
    }

    @Test
    void aPortInTimeWaitAfterAStopIsFree() throws Exception {
        int port;
        try (ServerSocket server = new ServerSocket()) {
            server.setReuseAddress(true);
            server.bind(new InetSocketAddress("127.0.0.1", 0));
            port = server.getLocalPort();
            try (Socket client = new Socket("127.0.0.1", port); Socket accepted = server.accept()) {
                accepted.close(); // the server side closes first: its end (local port = port) goes to TIME_WAIT
                client.getInputStream().read();
            }
        }
        LocalCluster.requireFree(port, "a remoting port"); // does not throw
    }

    /** A port no process listens on now (the kernel's choice, then released). */
    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket()) {
            s.bind(new InetSocketAddress("127.0.0.1", 0));
            return s.getLocalPort();
        }
    }

    /**
     * A free port at least 3 from {@code p}, so that a base port P (remoting ports P and P + 1) does not
     * cover {@code p - 1} or {@code p}: the kernel hands out neighbouring ports, and a base port of p - 1
     * made the check name the remoting port instead of the Prometheus one (seen once).
     */
    private static int freePortAwayFrom(int p) throws IOException {
        int port = freePort();
        while (Math.abs(port - p) < 3) {
            port = freePort();
        }
        return port;
    }

    @Test
    void aTakenPrometheusPortIsRefusedBeforeAnyMemberStarts() throws IOException {
        try (ServerSocket taken = new ServerSocket()) {
            taken.bind(new InetSocketAddress("127.0.0.1", 0));
            int p = taken.getLocalPort();
            // the node member's Prometheus port is p; the gateway's, p - 1, is free
            assumeTrue(Ports.free(java.net.InetAddress.getLoopbackAddress(), p - 1), "port " + (p - 1) + " is taken by another process");
            String[] r = CliCapture.run("local-cluster", "--nodes", "1", "--base-port", String.valueOf(freePortAwayFrom(p)),
                    "--http-port", String.valueOf(freePortAwayFrom(p)), "--prometheus-port", String.valueOf(p - 1), "--stop-after", "1");
            assertEquals("2", r[0], r[2]);
            assertTrue(r[2].contains("error: port " + p + " on 127.0.0.1 is in use; it is a Prometheus port (--prometheus-port "
                    + (p - 1) + " + 1)"), r[2]);
            assertFalse(r[1].contains("Prometheus http://"), "no member was started: " + r[1]);
        }
    }

    @Test
    void aTakenRemotingPortNamesBasePort() throws IOException {
        try (ServerSocket taken = new ServerSocket()) {
            taken.bind(new InetSocketAddress("127.0.0.1", 0));
            int p = taken.getLocalPort();
            String[] r = CliCapture.run("local-cluster", "--nodes", "1", "--base-port", String.valueOf(p),
                    "--http-port", String.valueOf(freePort()), "--prometheus-port", String.valueOf(freePort()), "--stop-after", "1");
            assertEquals("2", r[0], r[2]);
            assertTrue(r[2].contains("error: port " + p + " on 127.0.0.1 is in use; it is a remoting port (--base-port " + p + " + 0)"),
                    r[2]);
        }
    }

    @Test
    void prometheusPortsAreNotCheckedWhenKamonIsOff() {
        assertTrue(LocalCluster.kamonOn(List.of()));
        assertFalse(LocalCluster.kamonOn(List.of("--set", "loadlab.metrics.kamon = off")));
    }

    @Test
    void clusterRefusesATakenPrometheusPort() throws IOException {
        try (ServerSocket taken = new ServerSocket()) {
            taken.bind(new InetSocketAddress("127.0.0.1", 0));
            int p = taken.getLocalPort();
            BadInputException e = assertThrows(BadInputException.class, () -> ClusterCommand.requirePrometheusPortFree("127.0.0.1", p));
            assertEquals("port " + p + " on 127.0.0.1 is in use; it is the Prometheus port (--prometheus-port). Stop the process"
                    + " using it (another LoadLab member?) or choose another port", e.getMessage());
        }
    }

    /** A member's configuration and settings. */
    private record Member(com.typesafe.config.Config config, org.loadlab.shell.cluster.ClusterSettings settings) {
    }

    /** The configuration and settings {@code loadlab cluster} builds from these flags. */
    private static Member member(List<String> roles, int port, int httpPort) {
        org.loadlab.shell.cluster.MemberOptions o = new org.loadlab.shell.cluster.MemberOptions(roles, "127.0.0.1", port,
                List.of("127.0.0.1:" + port), "127.0.0.1", httpPort, null, List.of("loadlab.metrics.kamon=off"));
        com.typesafe.config.Config c = o.config();
        return new Member(c, org.loadlab.shell.cluster.ClusterSettings.from(c));
    }

    @Test
    void clusterRefusesATakenRemotingPortUpFront() throws IOException {
        try (ServerSocket taken = new ServerSocket()) {
            taken.bind(new InetSocketAddress("127.0.0.1", 0));
            int p = taken.getLocalPort();
            Member m = member(List.of("node"), p, freePort());
            BadInputException e = assertThrows(BadInputException.class, () -> ClusterCommand.requirePortsFree(m.config(), m.settings()));
            assertEquals("port " + p + " on 127.0.0.1 is in use; it is the remoting port (--port). Stop the process using it"
                    + " (another LoadLab member?) or choose another port", e.getMessage());
            // The command says it in one line and exits 2 before a member starts (it used to end later with 1).
            String[] r = CliCapture.run("cluster", "--role", "node", "--port", String.valueOf(p), "--seed-nodes",
                    "127.0.0.1:" + p, "--set", "loadlab.metrics.kamon=off");
            assertEquals("2", r[0], r[2]);
            assertTrue(r[2].startsWith("error: port " + p + " on 127.0.0.1 is in use; it is the remoting port (--port)"), r[2]);
            assertFalse(r[1].contains("joining"), "no member was started: " + r[1]);
        }
    }

    /**
     * An address of another machine (192.0.2.1, TEST-NET-1) for --http-host or --host used to be
     * reported as "port 8080 on 192.0.2.1 is in use", sending the user to look for a process that
     * does not exist.
     */
    @Test
    void anAddressOfAnotherMachineIsNamedAsSuchNotAsAPortInUse() throws IOException {
        java.net.InetAddress elsewhere = java.net.InetAddress.getByName("192.0.2.1");
        assumeTrue(!Ports.free(elsewhere, 0), "192.0.2.1 is an address of this machine");
        org.loadlab.shell.cluster.MemberOptions o = new org.loadlab.shell.cluster.MemberOptions(List.of("gateway"), "127.0.0.1",
                freePort(), List.of("127.0.0.1:2551"), "192.0.2.1", freePort(), null,
                List.of("loadlab.metrics.kamon=off", "loadlab.cluster.http.token=t"));
        Member m = new Member(o.config(), org.loadlab.shell.cluster.ClusterSettings.from(o.config()));
        BadInputException e = assertThrows(BadInputException.class, () -> ClusterCommand.requirePortsFree(m.config(), m.settings()));
        assertEquals("--http-host = '192.0.2.1': not an address of this machine, so the HTTP port (--http-port) cannot be bound"
                + " there; give an address of one of its interfaces (127.0.0.1 for loopback)", e.getMessage());
        BadInputException remoting = assertThrows(BadInputException.class,
                () -> Ports.requireFree("192.0.2.1", 2551, "the remoting port (--port)", "--host"));
        assertTrue(remoting.getMessage().startsWith("--host = '192.0.2.1': not an address of this machine"), remoting.getMessage());
    }

    /** --prometheus-port 0 gets a real port the member's line can name (it printed http://127.0.0.1:0/metrics). */
    @Test
    void prometheusPortZeroIsAChosenFreePort() {
        org.loadlab.shell.cluster.MemberOptions o = new org.loadlab.shell.cluster.MemberOptions(List.of("node"), "127.0.0.1", 0,
                List.of("127.0.0.1:2551"), null, null, 0, List.of());
        com.typesafe.config.Config c = o.config();
        int chosen = ClusterCommand.withChosenPrometheusPort(c, org.loadlab.shell.cluster.ClusterSettings.from(c))
                .getInt("kamon.prometheus.embedded-server.port");
        assertTrue(chosen > 0, "port " + chosen);
        com.typesafe.config.Config off = new org.loadlab.shell.cluster.MemberOptions(List.of("node"), "127.0.0.1", 0,
                List.of("127.0.0.1:2551"), null, null, 0, List.of("loadlab.metrics.kamon=off")).config();
        assertEquals(0, ClusterCommand.withChosenPrometheusPort(off, org.loadlab.shell.cluster.ClusterSettings.from(off))
                .getInt("kamon.prometheus.embedded-server.port"), "nothing to choose without Kamon");
    }

    @Test
    void clusterRefusesATakenHttpPortOfAGatewayAndIgnoresItWithoutOne() throws IOException {
        try (ServerSocket taken = new ServerSocket()) {
            taken.bind(new InetSocketAddress("127.0.0.1", 0));
            int p = taken.getLocalPort();
            Member gateway = member(List.of("balancer", "gateway"), freePort(), p);
            BadInputException e = assertThrows(BadInputException.class,
                    () -> ClusterCommand.requirePortsFree(gateway.config(), gateway.settings()));
            assertTrue(e.getMessage().startsWith("port " + p + " on 127.0.0.1 is in use; it is the HTTP port (--http-port)"),
                    e.getMessage());
            Member all = member(List.of("all"), freePort(), p);
            assertThrows(BadInputException.class, () -> ClusterCommand.requirePortsFree(all.config(), all.settings()));
            Member node = member(List.of("node"), freePort(), p); // a node member serves no HTTP
            ClusterCommand.requirePortsFree(node.config(), node.settings());
        }
    }

    @Test
    void portZeroMeansAnyFreePortAndIsNotChecked() throws IOException {
        Member any = member(List.of("all"), 0, 0);
        ClusterCommand.requirePortsFree(any.config(), any.settings());
    }
}
