package org.loadlab.studies.asmf;

/**
 * The ASMF seed's stability metrics of its trace of the mean queue length (SPEC.md §4;
 * {@code LoadBalancingSimulator.run} in the seed's {@code simulator.py}), with the seed's
 * floating-point operations: convergence time (the time of the first trace point, once 12
 * exist, at which max |v − window mean| over the last 12 points divided by max(|mean|, 1)
 * is at most 0.05; the duration if never), the population variance of the trace as numpy's
 * {@code np.var} computes it (pairwise summation), and the oscillation index (mean absolute
 * successive difference, summed left to right as CPython 3.11's {@code sum}).
 *
 * @param convergenceMillis milliseconds from the start
 * @param variance work units² per backend²; 0 for fewer than two points, as in the seed
 * @param oscillation work units per backend; 0 for fewer than two points
 */
record TraceStatistics(double convergenceMillis, double variance, double oscillation) {
    static final int WINDOW = 12;
    static final double TOLERANCE = 0.05;
    /** numpy's block size below which pairwise summation adds eight interleaved partial sums. */
    private static final int PAIRWISE_BLOCK = 128;

    /**
     * @param trace mean queue per backend at each trace point (the first {@code m} entries)
     * @param timesMillis time of each trace point, ms
     * @param m number of trace points
     * @param durationMillis the run's duration, reported when the trace never converges
     */
    static TraceStatistics of(double[] trace, long[] timesMillis, int m, long durationMillis) {
        double convergence = durationMillis;
        for (int i = WINDOW - 1; i < m; i++) {
            double sum = 0;
            for (int k = i - WINDOW + 1; k <= i; k++) {
                sum += trace[k];
            }
            double mean = sum / WINDOW;
            double maxDeviation = 0;
            for (int k = i - WINDOW + 1; k <= i; k++) {
                maxDeviation = Math.max(maxDeviation, Math.abs(trace[k] - mean));
            }
            if (maxDeviation / Math.max(Math.abs(mean), 1.0) <= TOLERANCE) {
                convergence = timesMillis[i];
                break;
            }
        }
        if (m < 2) {
            return new TraceStatistics(convergence, 0, 0);
        }
        double mean = pairwiseSum(trace, 0, m) / m;
        double[] squares = new double[m];
        for (int i = 0; i < m; i++) {
            double d = trace[i] - mean;
            squares[i] = d * d;
        }
        double variance = pairwiseSum(squares, 0, m) / m;
        double steps = 0;
        for (int i = 1; i < m; i++) {
            steps += Math.abs(trace[i] - trace[i - 1]);
        }
        return new TraceStatistics(convergence, variance, steps / (m - 1));
    }

    /**
     * numpy's pairwise summation of {@code a[from, from + n)} ({@code DOUBLE_pairwise_sum},
     * numpy/_core/src/umath/loops_utils.h.src): a plain loop below 8 elements, eight
     * interleaved partial sums up to 128, otherwise the two halves (split at a multiple of 8)
     * summed recursively.
     */
    static double pairwiseSum(double[] a, int from, int n) {
        if (n < 8) {
            double res = 0.;
            for (int i = 0; i < n; i++) {
                res += a[from + i];
            }
            return res;
        }
        if (n <= PAIRWISE_BLOCK) {
            double r0 = a[from];
            double r1 = a[from + 1];
            double r2 = a[from + 2];
            double r3 = a[from + 3];
            double r4 = a[from + 4];
            double r5 = a[from + 5];
            double r6 = a[from + 6];
            double r7 = a[from + 7];
            int i;
            for (i = 8; i < n - (n % 8); i += 8) {
                r0 += a[from + i];
                r1 += a[from + i + 1];
                r2 += a[from + i + 2];
                r3 += a[from + i + 3];
                r4 += a[from + i + 4];
                r5 += a[from + i + 5];
                r6 += a[from + i + 6];
                r7 += a[from + i + 7];
            }
            double res = ((r0 + r1) + (r2 + r3)) + ((r4 + r5) + (r6 + r7));
            for (; i < n; i++) {
                res += a[from + i];
            }
            return res;
        }
        int n2 = n / 2;
        n2 -= n2 % 8;
        return pairwiseSum(a, from, n2) + pairwiseSum(a, from + n2, n - n2);
    }
}
