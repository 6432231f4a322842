package org.loadlab.analysis.run;

import java.util.HashMap;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * Message counts by kind plus totals of messages and estimated bytes. One small map lookup
 * per message by name, or none through a kind's index ({@link #kind}); allocation only the
 * first time a kind is seen.
 */
final class MessageTally {

    private final Map<String, long[]> byKind = new HashMap<>();
    private long[][] counters = new long[8][];
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
        long[] counter = counterOf(kind);
        for (int i = 0; i < kinds; i++) {
            if (counters[i] == counter) {
                return i;
            }
        }
        if (kinds == counters.length) {
            counters = java.util.Arrays.copyOf(counters, kinds * 2);
        }
        counters[kinds] = counter;
        return kinds++;
    }

    /**
     * Counts one message of the kind with index {@code kind}.
     *
     * @param kind an index from {@link #kind(String)}
     * @param estimatedBytes estimated size on the wire, bytes, non-negative (checked by the caller)
     */
    void add(int kind, int estimatedBytes) {
        counters[kind][0]++;
        total++;
        bytes += estimatedBytes;
    }

    /**
     * @param kind message kind, e.g. a message class's simple name
     * @param estimatedBytes estimated size on the wire, bytes, non-negative (checked by the caller)
     */
    void add(String kind, int estimatedBytes) {
        counterOf(kind)[0]++;
        total++;
        bytes += estimatedBytes;
    }

    private long[] counterOf(String kind) {
        long[] counter = byKind.get(kind);
        if (counter == null) {
            counter = new long[1];
            byKind.put(kind, counter);
        }
        return counter;
    }

    /** @return a new sorted map kind → count */
    SortedMap<String, Long> byKind() {
        SortedMap<String, Long> sorted = new TreeMap<>();
        byKind.forEach((kind, counter) -> sorted.put(kind, counter[0]));
        return sorted;
    }

    /** @return number of distinct kinds seen */
    int kinds() {
        return byKind.size();
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
