package org.loadlab.analysis.run;

import java.util.HashMap;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * Message counts by kind plus totals of messages and estimated bytes. One small map lookup
 * per message; allocation only the first time a kind is seen.
 */
final class MessageTally {

    private final Map<String, long[]> byKind = new HashMap<>();
    private long total;
    private long bytes;

    /**
     * @param kind message kind, e.g. a message class's simple name
     * @param estimatedBytes estimated size on the wire, bytes, non-negative (checked by the caller)
     */
    void add(String kind, int estimatedBytes) {
        long[] counter = byKind.get(kind);
        if (counter == null) {
            counter = new long[1];
            byKind.put(kind, counter);
        }
        counter[0]++;
        total++;
        bytes += estimatedBytes;
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
