package org.loadlab.workload.arrival;

import java.util.Arrays;
import java.util.Objects;
import java.util.random.RandomGenerator;
import org.hipparchus.util.FastMath;

/**
 * Diurnal rate with burst windows: λ(t) = λ̄·(1 + A·sin(2πt/H)), multiplied by
 * {@code burstFactor} while {@code t} lies in a burst window.
 *
 * <p>Burst windows are given as fractions of the period H: window {@code i} covers
 * {@code [s_i·H, (s_i + w)·H)} with start fractions {@code s_i} in {@code [0, 1)}, width fraction
 * {@code w}, sorted, non-overlapping and inside the period ({@code s_last + w <= 1}). λ(t) is
 * periodic with period H: both the sine and the windows repeat (t is taken modulo H), so
 * {@link #meanRate()} (the average over one period) is the exact long-run mean. Because windows
 * are fractions of H, {@code meanRate()/λ̄} does not depend on H.
 *
 * <p>Window placement: {@link #evenWindows(int, double)} centres window {@code i} of {@code k} at
 * fraction {@code (i + ½)/k}; {@link #randomWindows(int, double, RandomGenerator)} places them
 * uniformly at random without overlap. Source: SPEC.md §5 (seed 001: A = 0.5, H = horizon,
 * three windows of ×3 each 2% of H; see {@link #seed001(double, double, double[])}).
 */
public final class DiurnalRate implements RateFunction {

    private static final double TWO_PI = 2 * Math.PI;

    private final double baseRate;
    private final double amplitude;
    private final double period;
    private final double[] windowStarts;
    private final double windowWidth;
    private final double burstFactor;
    private final double maxRate;
    private final double meanRate;

    /**
     * @param baseRate λ̄ in requests/s, finite and {@code > 0}
     * @param amplitude A in {@code [0, 1]} (λ(t) stays {@code >= 0})
     * @param periodSeconds H in seconds, finite and {@code > 0}
     * @param windowStartFractions start of each burst window as a fraction of H, each in
     *     {@code [0, 1)}, strictly increasing, windows not overlapping and ending by 1; may be empty
     * @param windowWidthFraction width w of every window as a fraction of H, in {@code (0, 1]}
     *     (ignored, but still validated, when there are no windows)
     * @param burstFactor multiplier inside windows, finite and {@code > 0}
     * @throws IllegalArgumentException naming the offending parameter if any is out of range
     * @throws NullPointerException if {@code windowStartFractions} is {@code null}
     */
    public DiurnalRate(double baseRate, double amplitude, double periodSeconds, double[] windowStartFractions,
            double windowWidthFraction, double burstFactor) {
        this.baseRate = Checks.positive(baseRate, "diurnal mean arrival rate", "requests/s");
        this.amplitude = Checks.inRange(amplitude, 0, 1, "diurnal amplitude A");
        this.period = Checks.positive(periodSeconds, "diurnal period H", "seconds");
        Objects.requireNonNull(windowStartFractions, "windowStartFractions");
        if (!(windowWidthFraction > 0 && windowWidthFraction <= 1)) {
            throw new IllegalArgumentException("burst window width must be a fraction of the period in (0, 1], was "
                    + windowWidthFraction);
        }
        this.windowWidth = windowWidthFraction;
        this.burstFactor = Checks.positive(burstFactor, "burst factor", "");
        this.windowStarts = windowStartFractions.clone();
        double previousEnd = 0;
        for (int i = 0; i < windowStarts.length; i++) {
            double s = windowStarts[i];
            if (!(s >= 0 && s < 1)) {
                throw new IllegalArgumentException("burst window start[" + i
                        + "] must be a fraction of the period in [0, 1), was " + s);
            }
            if (s < previousEnd - 1e-12) {
                throw new IllegalArgumentException("burst window start[" + i + "] must be >= the end of window "
                        + (i - 1) + " (" + previousEnd + "; windows sorted, not overlapping), was " + s);
            }
            previousEnd = s + windowWidth;
            if (previousEnd > 1 + 1e-12) {
                throw new IllegalArgumentException("burst window " + i + " must end within the period (start + width <= 1), was "
                        + s + " + " + windowWidth + " = " + previousEnd);
            }
        }
        double factor = windowStarts.length > 0 ? Math.max(1, burstFactor) : 1;
        this.maxRate = baseRate * (1 + amplitude) * factor;
        double extra = 0;
        for (double s : windowStarts) {
            double e = s + windowWidth;
            // ∫_s^e (1 + A sin 2πx) dx over period fractions
            extra += windowWidth + amplitude / TWO_PI * (FastMath.cos(TWO_PI * s) - FastMath.cos(TWO_PI * e));
        }
        this.meanRate = baseRate * (1 + (burstFactor - 1) * extra);
    }

    /**
     * SPEC.md §5's rate: A = 0.5, period = horizon, windows of width 2% of the horizon with
     * burst factor 3.
     *
     * @param baseRate λ̄ in requests/s, finite and {@code > 0}
     * @param horizonSeconds the horizon H in seconds, finite and {@code > 0}
     * @param windowStartFractions window starts as fractions of H, e.g. {@code evenWindows(3, 0.02)}
     * @return the rate function
     * @throws IllegalArgumentException as the constructor
     */
    public static DiurnalRate seed001(double baseRate, double horizonSeconds, double[] windowStartFractions) {
        return new DiurnalRate(baseRate, 0.5, horizonSeconds, windowStartFractions, 0.02, 3.0);
    }

    /**
     * Places {@code k} windows of width {@code widthFraction} evenly: window {@code i} is centred
     * at fraction {@code (i + ½)/k} of the period, so it starts at {@code (i + ½)/k − w/2}.
     * For k = 3, w = 0.02 the starts are 0.15667, 0.49, 0.82333.
     *
     * @param k number of windows, {@code >= 0}
     * @param widthFraction window width as a fraction of the period, in {@code (0, 1/k]}
     * @return the start fractions, sorted
     * @throws IllegalArgumentException if {@code k < 0} or the windows cannot fit
     */
    public static double[] evenWindows(int k, double widthFraction) {
        checkWindows(k, widthFraction);
        double[] starts = new double[k];
        for (int i = 0; i < k; i++) {
            starts[i] = (i + 0.5) / k - widthFraction / 2;
        }
        return starts;
    }

    /**
     * Places {@code k} non-overlapping windows of width {@code widthFraction} uniformly at random
     * inside the period: draws {@code k} uniforms on the free length {@code 1 − k·w}, sorts them
     * ({@code u_(1) <= … <= u_(k)}) and starts window {@code i} at {@code u_(i) + i·w}. This is the
     * uniform distribution over non-overlapping placements. Consumes exactly {@code k} doubles
     * from {@code rng}.
     *
     * @param k number of windows, {@code >= 0}
     * @param widthFraction window width as a fraction of the period, in {@code (0, 1/k]}
     * @param rng the random stream (e.g. the scenario's arrival stream)
     * @return the start fractions, sorted
     * @throws IllegalArgumentException if {@code k < 0} or the windows cannot fit
     * @throws NullPointerException if {@code rng} is {@code null}
     */
    public static double[] randomWindows(int k, double widthFraction, RandomGenerator rng) {
        checkWindows(k, widthFraction);
        Objects.requireNonNull(rng, "rng");
        double free = 1 - k * widthFraction;
        double[] starts = new double[k];
        for (int i = 0; i < k; i++) {
            starts[i] = rng.nextDouble() * free;
        }
        Arrays.sort(starts);
        for (int i = 0; i < k; i++) {
            starts[i] = Math.min(starts[i] + i * widthFraction, Math.nextDown(1.0));
        }
        return starts;
    }

    private static void checkWindows(int k, double widthFraction) {
        if (k < 0) {
            throw new IllegalArgumentException("number of burst windows must be >= 0, was " + k);
        }
        if (!(widthFraction > 0) || k * widthFraction > 1) {
            throw new IllegalArgumentException("burst window width must be a fraction of the period in (0, 1/"
                    + k + "] so " + k + " windows fit, was " + widthFraction);
        }
    }

    /**
     * @param t time in seconds
     * @return {@code true} if {@code t} (modulo H) lies in a burst window
     */
    public boolean inBurst(double t) {
        if (windowStarts.length == 0) {
            return false;
        }
        double x = t / period;
        x -= Math.floor(x);
        int i = Arrays.binarySearch(windowStarts, x);
        if (i >= 0) {
            return true;
        }
        int before = -i - 2; // last window starting before x
        return before >= 0 && x < windowStarts[before] + windowWidth;
    }

    /** @return λ̄(1 + A sin(2πt/H)), times the burst factor inside a window, in requests/s */
    @Override
    public double rate(double t) {
        double r = baseRate * (1 + amplitude * FastMath.sin(TWO_PI * t / period));
        return inBurst(t) ? r * burstFactor : r;
    }

    /** @return λ̄(1 + A)·max(1, burstFactor) in requests/s (an upper bound) */
    @Override
    public double maxRate() {
        return maxRate;
    }

    /**
     * The exact average over one period:
     * λ̄·(1 + (f − 1)·Σ_i [w + A/(2π)(cos 2πs_i − cos 2π(s_i + w))]).
     *
     * @return the long-run mean rate in requests/s
     */
    @Override
    public double meanRate() {
        return meanRate;
    }

    /**
     * Returns the same shape with λ̄ rescaled so that {@link #meanRate()} equals {@code targetMeanRate}
     * (e.g. the λ that gives utilisation ρ: {@code ρ·Σμ/E[D]}).
     *
     * @param targetMeanRate the long-run mean rate in requests/s, finite and {@code > 0}
     * @return a new rate function
     * @throws IllegalArgumentException if {@code targetMeanRate} is not finite and {@code > 0}
     */
    public DiurnalRate withMeanRate(double targetMeanRate) {
        Checks.positive(targetMeanRate, "target mean arrival rate", "requests/s");
        return new DiurnalRate(baseRate * targetMeanRate / meanRate, amplitude, period, windowStarts, windowWidth,
                burstFactor);
    }

    /** @return λ̄ in requests/s */
    public double baseRate() {
        return baseRate;
    }

    /** @return H in seconds */
    public double periodSeconds() {
        return period;
    }

    /** @return a copy of the window start fractions */
    public double[] windowStartFractions() {
        return windowStarts.clone();
    }

    /** @return window width as a fraction of H */
    public double windowWidthFraction() {
        return windowWidth;
    }

    /** @return a one-line description with the parameters and their units, for logs and reports */
    @Override
    public String toString() {
        return "DiurnalRate[base " + baseRate + " requests/s, A " + amplitude + ", H " + period + " s, windows "
                + Arrays.toString(windowStarts) + " x" + windowWidth + ", burst x" + burstFactor + "]";
    }
}
