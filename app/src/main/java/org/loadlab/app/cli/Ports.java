package org.loadlab.app.cli;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;

/**
 * Whether a TCP port can be bound, checked before a command starts its servers, so that a
 * taken port is one clear line (exit 2) rather than a bind failure's stack trace after an actor
 * system has started.
 */
final class Ports {
    private Ports() {
    }

    /**
     * True if {@code port} on {@code host} can be bound now. The probe binds with address
     * reuse, as Pekko HTTP's servers do: a port left in TIME_WAIT by a server that was just
     * stopped is free for them, so it counts as free. (Another process can still take it
     * between the probe and the real bind; the command's bind then fails as before.)
     *
     * @param host the address to bind
     * @param port 1..65535
     */
    static boolean free(InetAddress host, int port) {
        try (ServerSocket probe = new ServerSocket()) {
            probe.setReuseAddress(true);
            probe.bind(new InetSocketAddress(host, port));
            return true;
        } catch (IOException e) {
            return false;
        }
    }
}
