package org.loadlab.workload.arrival;

/** Parameter validation with messages naming the parameter, the bad value and what is allowed. */
final class Checks {

    private Checks() {
    }

    /** Returns {@code v} if it is finite and {@code > 0}, else throws naming {@code what} and {@code unit}. */
    static double positive(double v, String what, String unit) {
        if (!(v > 0) || Double.isInfinite(v)) {
            throw new IllegalArgumentException(what + " must be finite and > 0" + suffix(unit) + ", was " + v);
        }
        return v;
    }

    /** Returns {@code v} if it is finite and {@code >= 0}, else throws. */
    static double nonNegative(double v, String what, String unit) {
        if (!(v >= 0) || Double.isInfinite(v)) {
            throw new IllegalArgumentException(what + " must be finite and >= 0" + suffix(unit) + ", was " + v);
        }
        return v;
    }

    /** Returns {@code v} if it lies in {@code [lo, hi]}, else throws. */
    static double inRange(double v, double lo, double hi, String what) {
        if (!(v >= lo && v <= hi)) {
            throw new IllegalArgumentException(what + " must be in [" + lo + ", " + hi + "], was " + v);
        }
        return v;
    }

    private static String suffix(String unit) {
        return unit.isEmpty() ? "" : " " + unit;
    }
}
