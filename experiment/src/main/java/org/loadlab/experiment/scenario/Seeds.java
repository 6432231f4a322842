package org.loadlab.experiment.scenario;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;

/**
 * Parses seed specifications: one seed {@code 101}, an inclusive block {@code 101:120},
 * or a comma list mixing both ({@code 101:105,200}). Order is kept, duplicates dropped.
 */
public final class Seeds {
    private Seeds() {
    }

    /** Largest number of seeds one specification may expand to. */
    public static final int MAX_SEEDS = 100_000;

    /**
     * @param spec the specification
     * @return the seeds in order
     * @throws IllegalArgumentException naming the bad part and the allowed forms
     */
    public static List<Long> parse(String spec) {
        LinkedHashSet<Long> out = new LinkedHashSet<>();
        if (spec == null || spec.isBlank()) {
            throw new IllegalArgumentException("seeds = '" + spec + "': empty; use 101, 101:120 or 101,105");
        }
        for (String part : spec.split(",")) {
            String p = part.trim();
            try {
                int colon = p.indexOf(':');
                if (colon < 0) {
                    out.add(Long.parseLong(p));
                } else {
                    long a = Long.parseLong(p.substring(0, colon).trim());
                    long b = Long.parseLong(p.substring(colon + 1).trim());
                    if (b < a) {
                        throw new IllegalArgumentException("seeds = '" + spec + "': block " + p + " ends before it starts");
                    }
                    // b - a overflows for blocks wider than Long.MAX_VALUE (-9223372036854775808:1): negative then.
                    long span = b - a;
                    if (span < 0 || span >= MAX_SEEDS) {
                        throw new IllegalArgumentException("seeds = '" + spec + "': block " + p + " has more than " + MAX_SEEDS + " seeds");
                    }
                    // Counted loop: s <= b never fails when b is Long.MAX_VALUE (s++ wraps).
                    for (long i = 0; i <= span; i++) {
                        out.add(a + i);
                    }
                }
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("seeds = '" + spec + "': '" + p + "' is not a seed; use 101, 101:120 or 101,105");
            }
        }
        if (out.size() > MAX_SEEDS) {
            throw new IllegalArgumentException("seeds = '" + spec + "': more than " + MAX_SEEDS + " seeds");
        }
        return new ArrayList<>(out);
    }
}
