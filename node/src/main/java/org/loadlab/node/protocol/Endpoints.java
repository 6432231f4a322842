package org.loadlab.node.protocol;

import java.util.List;

/**
 * Seed 003's gateway endpoints and their priorities: high /auth and /checkout, medium
 * /play-video, low /analytics and /logs. Requests carry an endpoint index; QoS shedding
 * refuses low-priority ones while the cluster is hot.
 *
 * <p>Source: seed 003 (adaptive QoS load shedding), SPEC.md §6.
 */
public final class Endpoints {
    private Endpoints() {
    }

    /** Priority of /auth and /checkout. */
    public static final int HIGH = 0;
    /** Priority of /play-video. */
    public static final int MEDIUM = 1;
    /** Priority of /analytics and /logs. */
    public static final int LOW = 2;

    /** The endpoint names (paths without the slash), by index. */
    public static final List<String> NAMES = List.of("auth", "checkout", "play-video", "analytics", "logs");

    private static final int[] PRIORITY = {HIGH, HIGH, MEDIUM, LOW, LOW};

    /** The priority names, by priority. */
    public static final List<String> PRIORITY_NAMES = List.of("high", "medium", "low");

    /**
     * Priority of endpoint {@code index}.
     *
     * @throws IndexOutOfBoundsException if the index is not one of {@link #NAMES}
     */
    public static int priority(int index) {
        return PRIORITY[index];
    }

    /** Index of endpoint {@code name} (without the slash), or −1. */
    public static int indexOf(String name) {
        return NAMES.indexOf(name);
    }
}
