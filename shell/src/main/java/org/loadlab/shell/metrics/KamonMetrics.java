package org.loadlab.shell.metrics;

import com.typesafe.config.Config;
import java.util.concurrent.TimeUnit;
import kamon.Kamon;
import scala.concurrent.Await;
import scala.concurrent.duration.Duration;

/**
 * Starts and stops Kamon for a cluster member. Kamon is configured from the member's
 * config ({@code kamon.*} in loadlab-cluster.conf): the Prometheus endpoint and the status
 * page bind to 127.0.0.1 unless configured otherwise, and the bytecode instrumentation of
 * kamon-bundle is attached only if {@code loadlab.metrics.attach-instrumentation = on}
 * (LoadLab records its own instruments, see {@link KamonSink}).
 */
public final class KamonMetrics {
    private static boolean started;

    private KamonMetrics() {
    }

    /** Starts Kamon once per JVM (later calls do nothing). */
    public static synchronized void start(Config config, boolean attachInstrumentation) {
        if (started) {
            return;
        }
        if (attachInstrumentation) {
            Kamon.init(config);
        } else {
            Kamon.initWithoutAttaching(config);
        }
        started = true;
    }

    /** True once started. */
    public static synchronized boolean started() {
        return started;
    }

    /** One {@link KamonSink} per experiment. */
    public static SinkFactory sinks() {
        return KamonSink::new;
    }

    /** Stops Kamon's reporters and the Prometheus endpoint (waits up to 10 s). */
    public static synchronized void stop() {
        if (!started) {
            return;
        }
        try {
            Await.result(Kamon.stop(), Duration.create(10, TimeUnit.SECONDS));
        } catch (Exception e) {
            // Reporters that do not stop in time are abandoned: the JVM is going away.
        }
        started = false;
    }
}
