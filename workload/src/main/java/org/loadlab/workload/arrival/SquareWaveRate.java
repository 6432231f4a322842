package org.loadlab.workload.arrival;

/**
 * On-off bursts: λ(t) = λ·highFactor during the "on" part of each period and λ·lowFactor during
 * the "off" part. A period of length {@code periodSeconds} is on for its first
 * {@code dutyOn·periodSeconds} seconds if {@code startOn}, else on for its last
 * {@code dutyOn·periodSeconds} seconds (off first). Phases are half-open: on is {@code [0, dutyOn·P)}
 * within the period when starting on.
 *
 * <p>Source: SPEC.md §4, seed 000 {@code bursty_medium}: ×3.0 on / ×0.3 off, a 45-step period of
 * 0.1 s steps (4.5 s) starting on. The seed does not state the duty cycle; the scenario layer
 * chooses it (0.5 is the natural reading).
 */
public final class SquareWaveRate implements RateFunction {

    private final double baseRate;
    private final double high;
    private final double low;
    private final double period;
    private final double dutyOn;
    private final double onLength;
    private final boolean startOn;

    /**
     * @param baseRate λ in requests/s, finite and {@code > 0}
     * @param highFactor multiplier during "on", finite and {@code >= 0}
     * @param lowFactor multiplier during "off", finite and {@code >= 0}
     * @param periodSeconds length of one on+off cycle in seconds, finite and {@code > 0}
     * @param dutyOn fraction of each period that is "on", in {@code [0, 1]}
     * @param startOn whether each period starts with its "on" part
     * @throws IllegalArgumentException if a parameter is outside its range, or both factors are 0
     */
    public SquareWaveRate(double baseRate, double highFactor, double lowFactor, double periodSeconds,
            double dutyOn, boolean startOn) {
        this.baseRate = Checks.positive(baseRate, "arrival rate", "requests/s");
        this.high = Checks.nonNegative(highFactor, "square-wave high factor", "");
        this.low = Checks.nonNegative(lowFactor, "square-wave low factor", "");
        this.period = Checks.positive(periodSeconds, "square-wave period", "seconds");
        this.dutyOn = Checks.inRange(dutyOn, 0, 1, "square-wave duty cycle (fraction on)");
        if (maxFactor() == 0) {
            throw new IllegalArgumentException("square-wave factors must not both be 0, were high "
                    + highFactor + " and low " + lowFactor);
        }
        this.onLength = dutyOn * periodSeconds;
        this.startOn = startOn;
    }

    private double maxFactor() {
        return Math.max(high, low);
    }

    /**
     * @param t time in seconds
     * @return {@code true} if {@code t} falls in an "on" phase
     */
    public boolean isOn(double t) {
        double phase = t - Math.floor(t / period) * period;
        return startOn ? phase < onLength : phase >= period - onLength;
    }

    /** @return λ·highFactor or λ·lowFactor in requests/s */
    @Override
    public double rate(double t) {
        return baseRate * (isOn(t) ? high : low);
    }

    /** @return λ·max(highFactor, lowFactor) in requests/s */
    @Override
    public double maxRate() {
        return baseRate * Math.max(high, low);
    }

    /** @return λ·(dutyOn·highFactor + (1−dutyOn)·lowFactor) in requests/s */
    @Override
    public double meanRate() {
        return baseRate * (dutyOn * high + (1 - dutyOn) * low);
    }

    /** @return a one-line description with the parameters and their units, for logs and reports */
    @Override
    public String toString() {
        return "SquareWaveRate[" + baseRate + " requests/s, x" + high + " on / x" + low + " off, period "
                + period + " s, duty " + dutyOn + (startOn ? ", starts on]" : ", starts off]");
    }
}
