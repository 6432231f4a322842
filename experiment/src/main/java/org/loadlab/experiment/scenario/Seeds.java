package org.loadlab.experiment.scenario;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;

/**
 * Parses seed specifications: one seed {@code 101}, an inclusive block {@code 101:120},
 * or a comma list mixing both ({@code 101:105,200}). Order is kept. A seed given twice
 * ({@code 1,1}, or blocks that overlap: {@code 1:5,3}) is refused, as a policy listed twice
 * is: it would silently run once, so the runs would not be the ones written down.
 */
public final class Seeds {
    private Seeds() {
    }

    /** Largest number of seeds one specification may expand to. */
    public static final int MAX_SEEDS = 100_000;

    /**
     * @param spec the specification
     * @return the seeds in order
     * @throws IllegalArgumentException naming the bad part and the allowed forms, or the seed
     *     given twice and the parts that give it
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
                    long seed = Long.parseLong(p);
                    if (!out.add(seed)) {
                        throw repeated(spec, seed, p);
                    }
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
                        if (!out.add(a + i)) {
                            throw repeated(spec, a + i, p);
                        }
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

    /**
     * The refusal of {@code seed}, given again by the part {@code again}: names the earlier
     * part that gave it first (the same seed, or a block that holds it).
     */
    private static IllegalArgumentException repeated(String spec, long seed, String again) {
        String first = again;
        for (String part : spec.split(",")) {
            String p = part.trim();
            int colon = p.indexOf(':');
            boolean holds = colon < 0 ? p.equals(String.valueOf(seed))
                    : Long.parseLong(p.substring(0, colon).trim()) <= seed && seed <= Long.parseLong(p.substring(colon + 1).trim());
            if (holds) {
                first = p;
                break;
            }
        }
        String where = first.equals(again) ? (again.indexOf(':') < 0 ? "" : " (block " + again + " is listed twice)")
                : " (" + (first.indexOf(':') < 0 ? "as " : "in ") + first + " and " + (again.indexOf(':') < 0 ? "as " : "in ") + again + ")";
        return new IllegalArgumentException("seeds = '" + spec + "': seed " + seed + " is given twice" + where
                + "; give each seed once (blocks A:B must not overlap)");
    }
}
