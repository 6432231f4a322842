package org.loadlab.app.cli;

import java.util.ArrayList;
import java.util.List;

/**
 * The JVM options every cluster member (and every messaging-baseline JVM) that LoadLab starts
 * itself gets, whatever else the user gives.
 *
 * <p>{@code -XX:MetaspaceSize=256m}: a member's class metadata (Metaspace) is about 60 MB in a
 * node member and 90 MB in the gateway once they have run a few experiments, and it still grows
 * by 50–140 KB per experiment, more slowly as time goes on (hardly classes: mostly the
 * non-class metadata of the application's class loader, such as method profiles).
 * With the JVM's default first threshold (21 MB), every time the metadata passes its current
 * threshold the collector makes a full, stop-the-world collection of the whole heap to see if
 * it can unload classes ({@code -Xlog:gc}: "Pause Full (Metadata GC Threshold)"): 60–160 ms
 * on this 2-core machine, two or three while a member starts, then now and then (three in
 * one 4-JVM {@code cluster-bench}, each at an experiment's start). Every decision in flight through that member waits for it; at
 * 30,000 requests/s that is 2,000 arrivals, past the admission bound's 1,000, so the balancer
 * sheds. A threshold of 256 MB (only a threshold: nothing is reserved) keeps the metadata
 * below it for well over a thousand experiments. Measured in docs/cluster.md ("Full
 * collections for class metadata").
 */
public final class MemberJvmOptions {
    /** The first metadata threshold of a member JVM ({@code -XX:MetaspaceSize}). */
    public static final String METASPACE_SIZE = "-XX:MetaspaceSize=256m";

    private MemberJvmOptions() {
    }

    /**
     * The options a member JVM starts with: {@code given}, preceded by {@link #METASPACE_SIZE}
     * unless {@code given} sets {@code -XX:MetaspaceSize} itself (a later option wins in the JVM,
     * but the user's is kept alone so the command line says what runs).
     *
     * @param given the user's or the command's options, in order; not modified
     * @return a new list
     */
    public static List<String> withDefaults(List<String> given) {
        List<String> opts = new ArrayList<>();
        if (given.stream().noneMatch(o -> o.startsWith("-XX:MetaspaceSize="))) {
            opts.add(METASPACE_SIZE);
        }
        opts.addAll(given);
        return opts;
    }
}
