/**
 * Result files and terminal output: one {@link org.loadlab.analysis.io.RunResult} per run,
 * written as CSV ({@link org.loadlab.analysis.io.ResultsCsv},
 * {@link org.loadlab.analysis.io.TimeseriesCsv}), JSON ({@link org.loadlab.analysis.io.ResultsJson})
 * or a plain-text table ({@link org.loadlab.analysis.io.SummaryTable}).
 *
 * <p>All output is deterministic: the same runs in the same list order give byte-identical
 * files (no timestamps, sorted maps, {@link java.util.Locale#ROOT} number formatting,
 * {@code \n} line endings).
 */
package org.loadlab.analysis.io;
