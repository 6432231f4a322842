package org.loadlab.app.cli;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import org.junit.jupiter.api.Test;

/**
 * The port check of {@code local-cluster}: a port some process listens on is "in use"; a port
 * whose last connections are in TIME_WAIT (a cluster stopped a moment ago) is free, because the
 * members bind with address reuse, so starting again right after a clean stop works.
 */
class LocalClusterPortsTest {

    @Test
    void aListeningPortIsInUse() throws IOException {
        try (ServerSocket taken = new ServerSocket()) {
            taken.bind(new InetSocketAddress("127.0.0.1", 0));
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
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
}
