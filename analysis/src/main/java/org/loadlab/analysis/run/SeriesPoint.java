package org.loadlab.analysis.run;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;

/**
 * One point of a run's time series: a summary of the interval
 * {@code (timeSeconds − interval, timeSeconds]} (the first interval also contains time 0;
 * the last one may be shorter and ends at the run's end time).
 *
 * <p>The series covers the whole run from time 0, including the warm-up, so that
 * convergence can be seen.
 *
 * <p>Source: SPEC.md §4 (1 s trace of the mean queue).
 *
 * @param timeSeconds end of the interval, seconds since the start of the run
 * @param meanQueue time-averaged mean queue length over the interval, (1/n)·∫Σ_j q_j dt / length,
 *     requests per node
 * @param maxQueue largest q_j of any node seen in the interval (including the value in effect
 *     when the interval began), requests
 * @param throughputRps completions in the interval divided by the interval's length, requests/s
 */
@JsonPropertyOrder({"timeSeconds", "meanQueue", "maxQueue", "throughputRps"})
public record SeriesPoint(double timeSeconds, double meanQueue, int maxQueue, double throughputRps) {
}
