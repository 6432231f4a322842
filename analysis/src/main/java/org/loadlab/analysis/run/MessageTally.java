package org.loadlab.analysis.run;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * Message counts by kind plus totals of messages and estimated bytes. Every kind gets a small
 * index the first time it is seen ({@link #kind}); counts live in one {@code long[]} by
 * index, so counting through an index is one array increment (no map lookup, no second
 * dependent load), and counting by name is one small map lookup. Allocation only the first
 * time a kind is seen.
 */
final class MessageTally {

    private final Map<String, Integer> indexOf = new HashMap<>();
    private String[] names = new String[8];
    private long[] counts = new long[8];
    private int kinds;
    private long total;
    private long bytes;

    /**
     * The index of {@code kind} for {@link #add(int, int)}, registering it on first use.
     *
     * @param kind message kind
     * @return a small index, stable for this tally
     */
    int kind(String kind) {
        Integer index = indexOf.get(kind);
        if (index != null) {
            return index;
        }
        if (kinds == names.length) {
            names = Arrays.copyOf(names, kinds * 2);
            counts = Arrays.copyOf(counts, kinds * 2);
        }
        names[kinds] = kind;
        indexOf.put(kind, kinds);
        return kinds++;
    }

    /**
     * Counts one message of the kind with index {@code kind}.
     *
     * @param kind an index from {@link #kind(String)}
     * @param estimatedBytes estimated size on the wire, bytes, non-negative (checked by the caller)
     * @throws ArrayIndexOutOfBoundsException if {@code kind} is not an index this tally gave
     */
    void add(int kind, int estimatedBytes) {
        if (kind >= kinds) {
            throw new ArrayIndexOutOfBoundsException("message kind index " + kind + " of " + kinds + " registered");
        }
        counts[kind]++;
        total++;
        bytes += estimatedBytes;
    }

    /**
     * @param kind message kind, e.g. a message class's simple name
     * @param estimatedBytes estimated size on the wire, bytes, non-negative (checked by the caller)
     */
    void add(String kind, int estimatedBytes) {
        add(kind(kind), estimatedBytes);
    }

    /** @return a new sorted map kind → count (every registered kind, counted or not) */
    SortedMap<String, Long> byKind() {
        SortedMap<String, Long> sorted = new TreeMap<>();
        for (int i = 0; i < kinds; i++) {
            sorted.put(names[i], counts[i]);
        }
        return sorted;
    }

    /** @return number of distinct kinds seen */
    int kinds() {
        return kinds;
    }

    /** @return messages counted */
    long total() {
        return total;
    }

    /** @return sum of estimated bytes */
    long bytes() {
        return bytes;
    }
}
