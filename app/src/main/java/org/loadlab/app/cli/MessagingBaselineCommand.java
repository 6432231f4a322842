package org.loadlab.app.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.loadlab.shell.cluster.MessagingBaseline;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code loadlab messaging-baseline}: one JVM of the cluster benchmark's messaging baseline
 * ({@link MessagingBaseline}), started by {@code cluster-bench}: an echo (plays the nodes,
 * runs until its standard input closes) or a pinger (plays the balancer, prints one result
 * line and exits). Hidden from {@code --help} and from the CLI's "did you mean" suggestions: it
 * is plumbing (127.0.0.1 only, an echo that waits for its parent to close its standard input,
 * a result line meant for {@code cluster-bench} to parse), not a command to run by hand.
 */
@Command(name = "messaging-baseline", hidden = true, mixinStandardHelpOptions = true,
        description = "One JVM of the cluster benchmark's bare-Pekko messaging baseline (started by cluster-bench).")
public final class MessagingBaselineCommand implements Callable<Integer> {
    @Option(names = "--port", required = true, paramLabel = "P", description = "This JVM's remoting port.")
    private int port;

    @Option(names = "--echo", description = "Be an echo (answer probes and requests) until standard input closes.")
    private boolean echo;

    @Option(names = "--echo-ports", split = ",", paramLabel = "P,P,...", description = "Pinger: the echoes' ports.")
    private List<Integer> echoPorts = new ArrayList<>();

    @Option(names = "--window", defaultValue = "1000", paramLabel = "W", description = "Pinger: requests kept going at once (default 1000, as cluster-bench).")
    private int window;

    @Option(names = "--warmup", defaultValue = "5", paramLabel = "S", description = "Pinger: seconds before measuring.")
    private double warmup;

    @Option(names = "--seconds", defaultValue = "10", paramLabel = "S", description = "Pinger: seconds measured.")
    private double seconds;

    /** The pinger's result line starts with this (cluster-bench reads it). */
    static final String RESULT = "baseline-result";

    @Override
    public Integer call() throws Exception {
        if (echo) {
            var system = MessagingBaseline.startEcho(port);
            while (System.in.read() >= 0) {
                // the parent writes nothing; it closes the pipe when it is done
            }
            system.terminate();
            return 0;
        }
        if (echoPorts.isEmpty() || window < 1 || !(seconds > 0) || warmup < 0) {
            throw new BadInputException("a pinger needs --echo-ports, --window >= 1, --seconds > 0, --warmup >= 0");
        }
        MessagingBaseline.Result r = MessagingBaseline.ping(port, echoPorts, window, warmup, seconds);
        System.out.printf(Locale.ROOT, "%s %d %.3f %.1f %.1f%n", RESULT, r.requests(), r.seconds(), r.requestsPerSecond(),
                r.roundTripsPerSecond());
        return 0;
    }
}
