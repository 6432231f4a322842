package org.loadlab.workload.arrival;

import java.util.random.RandomGenerator;
import org.hipparchus.random.RandomDataGenerator;
import org.loadlab.workload.demand.HipparchusRandomAdapter;

/**
 * Two-state Markov-modulated Poisson process (on-off bursts): a hidden state alternates between
 * "on" and "off" with exponential sojourn times (means {@code meanOnSeconds},
 * {@code meanOffSeconds}); while in a state, arrivals are Poisson with λ_on or λ_off.
 *
 * <p>Simulated exactly using memorylessness: from the current time, draw the next arrival at the
 * current state's rate; if it falls after the state's end, jump to the switch instant, switch
 * state, draw the new sojourn and repeat. Long-run mean rate
 * λ = (λ_on·m_on + λ_off·m_off)/(m_on + m_off). Source: DESIGN.md workload module ("on-off/MMPP
 * bursts"); Fischer &amp; Meier-Hellstern, "The MMPP cookbook", Perf. Eval. 18 (1993).
 */
public final class MmppArrivals implements ArrivalProcess {

    private final double rateOn;
    private final double rateOff;
    private final double meanOn;
    private final double meanOff;
    private final RandomDataGenerator random;
    private boolean on;
    private double stateEnd;
    private double time;

    /**
     * @param rateOn λ_on in requests/s, finite and {@code >= 0}
     * @param rateOff λ_off in requests/s, finite and {@code >= 0} (0 gives a pure on-off source);
     *     not both 0
     * @param meanOnSeconds mean sojourn in "on" in seconds, finite and {@code > 0}
     * @param meanOffSeconds mean sojourn in "off" in seconds, finite and {@code > 0}
     * @param startOn whether the process starts in "on" (else "off"); the first sojourn is drawn at
     *     construction time
     * @param rng the random stream
     * @throws IllegalArgumentException if a parameter is outside its range or both rates are 0
     * @throws NullPointerException if {@code rng} is {@code null}
     */
    public MmppArrivals(double rateOn, double rateOff, double meanOnSeconds, double meanOffSeconds, boolean startOn,
            RandomGenerator rng) {
        this.rateOn = Checks.nonNegative(rateOn, "MMPP on-state arrival rate", "requests/s");
        this.rateOff = Checks.nonNegative(rateOff, "MMPP off-state arrival rate", "requests/s");
        if (rateOn == 0 && rateOff == 0) {
            throw new IllegalArgumentException("MMPP arrival rates must not both be 0 requests/s, were on "
                    + rateOn + " and off " + rateOff);
        }
        this.meanOn = Checks.positive(meanOnSeconds, "MMPP mean on time", "seconds");
        this.meanOff = Checks.positive(meanOffSeconds, "MMPP mean off time", "seconds");
        this.random = RandomDataGenerator.of(new HipparchusRandomAdapter(rng));
        this.on = startOn;
        this.stateEnd = random.nextExponential(on ? meanOn : meanOff);
    }

    /** @return the next arrival time in seconds (never exhausted) */
    @Override
    public double next() {
        while (true) {
            double r = on ? rateOn : rateOff;
            if (r > 0) {
                double candidate = time + random.nextExponential(1 / r);
                if (candidate < stateEnd) {
                    time = candidate;
                    return time;
                }
            }
            time = stateEnd;
            on = !on;
            stateEnd = time + random.nextExponential(on ? meanOn : meanOff);
        }
    }

    /** @return (λ_on·m_on + λ_off·m_off)/(m_on + m_off) in requests/s */
    @Override
    public double meanRate() {
        return (rateOn * meanOn + rateOff * meanOff) / (meanOn + meanOff);
    }

    /** @return {@code true} if the hidden state at the last returned arrival is "on" */
    public boolean isOn() {
        return on;
    }

    /** @return a one-line description with the parameters and their units, for logs and reports */
    @Override
    public String toString() {
        return "MmppArrivals[on " + rateOn + " requests/s for ~" + meanOn + " s, off " + rateOff
                + " requests/s for ~" + meanOff + " s]";
    }
}
