package org.loadlab.studies.asmf;

import java.util.List;

/**
 * The ASMF seed's stability metrics of a 1 s trace of the mean queue length (SPEC.md §4):
 * convergence time (the first point at which the last 12 points all lie within 5% of
 * their mean, in milliseconds; the trace's end if never), the variance of the trace over
 * time (population variance), and the oscillation index (mean absolute successive
 * difference).
 *
 * @param convergenceMillis milliseconds from the start
 * @param variance requests²
 * @param oscillation requests
 */
record TraceStatistics(double convergenceMillis, double variance, double oscillation) {
    static final int WINDOW = 12;
    static final double TOLERANCE = 0.05;

    /** @param trace mean queue length at 1 s, 2 s, ... */
    static TraceStatistics of(List<Double> trace) {
        int m = trace.size();
        if (m == 0) {
            return new TraceStatistics(Double.NaN, Double.NaN, Double.NaN);
        }
        double convergence = m * 1000.0;
        for (int i = WINDOW - 1; i < m; i++) {
            double mean = 0;
            for (int k = i - WINDOW + 1; k <= i; k++) {
                mean += trace.get(k);
            }
            mean /= WINDOW;
            boolean within = true;
            for (int k = i - WINDOW + 1; k <= i && within; k++) {
                within = Math.abs(trace.get(k) - mean) <= TOLERANCE * Math.abs(mean);
            }
            if (within) {
                convergence = (i + 1) * 1000.0;
                break;
            }
        }
        double mean = trace.stream().mapToDouble(Double::doubleValue).average().orElse(Double.NaN);
        double variance = trace.stream().mapToDouble(x -> (x - mean) * (x - mean)).sum() / m;
        double oscillation = 0;
        for (int i = 1; i < m; i++) {
            oscillation += Math.abs(trace.get(i) - trace.get(i - 1));
        }
        oscillation = m > 1 ? oscillation / (m - 1) : 0;
        return new TraceStatistics(convergence, variance, oscillation);
    }
}
