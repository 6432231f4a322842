/**
 * LoadLab analysis: metrics of simulated and live runs, summary statistics with
 * confidence intervals, and result files (CSV, JSON, terminal tables).
 *
 * <p>Sub-packages: {@link org.loadlab.analysis.run} collects one run's metrics,
 * {@link org.loadlab.analysis.stats} summarises values over seeds,
 * {@link org.loadlab.analysis.io} writes result files. This module depends on no other
 * LoadLab module; it has its own result records.
 *
 * <p>Source: DESIGN.md (modules, metrics).
 */
package org.loadlab.analysis;
