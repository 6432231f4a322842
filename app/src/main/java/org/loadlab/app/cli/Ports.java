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

    /**
     * Refuses, before anything starts, a port that cannot be bound: the check {@code cluster}
     * and {@code local-cluster} make of every port a member binds (remoting, HTTP, Prometheus).
     *
     * @param host the address the server binds, a name or an IP
     * @param port the port; 0 (any free port) is not checked
     * @param what what the port is for, naming the flag that sets it, e.g. "the HTTP port (--http-port)"
     * @param hostFlag the flag or setting that names {@code host}, for the message when it is not a known host
     * @throws BadInputException "port P on H is in use; it is WHAT. Stop the process using it ..." (exit code 2), or,
     *     when nothing at all can be bound on {@code host} (an address of another machine, such as --http-host 10.0.0.1),
     *     "HOSTFLAG = 'H': not an address of this machine ..." (it used to be reported as the port being in use)
     */
    static void requireFree(String host, int port, String what, String hostFlag) {
        if (port == 0) {
            return;
        }
        InetAddress address;
        try {
            address = InetAddress.getByName(host);
        } catch (java.net.UnknownHostException e) {
            throw new BadInputException(hostFlag + " = '" + host + "': not a known host");
        }
        if (!free(address, port)) {
            if (!free(address, 0)) {
                throw new BadInputException(hostFlag + " = '" + host + "': not an address of this machine, so " + what
                        + " cannot be bound there; give an address of one of its interfaces (127.0.0.1 for loopback)");
            }
            throw new BadInputException("port " + port + " on " + host + " is in use; it is " + what
                    + ". Stop the process using it (another LoadLab member?) or choose another port");
        }
    }
}
