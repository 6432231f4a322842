/**
 * Analysis of a LoadLab <em>campaign</em>: many runs over scenarios × swept parameter values ×
 * policy variants × seeds.
 *
 * <p>What is here, in the order a report uses it:
 * <ul>
 *   <li>the unit of data, {@link org.loadlab.analysis.campaign.CampaignRun}, and its files:
 *       {@link org.loadlab.analysis.campaign.RunsFile} ({@code runs.jsonl}, JSON Lines, lossless)
 *       and {@link org.loadlab.analysis.campaign.RunsCsv} ({@code runs.csv});</li>
 *   <li>the metrics analysed, {@link org.loadlab.analysis.campaign.Metric};</li>
 *   <li>statistics per group (scenario, parameters, policy):
 *       {@link org.loadlab.analysis.campaign.Summaries} (mean, sd, Student-t and bootstrap 95%
 *       CIs) and {@link org.loadlab.analysis.campaign.PairedComparisons} (paired t and Wilcoxon
 *       signed-rank tests against a reference policy over matched seeds, Holm–Bonferroni
 *       adjusted per metric), written by {@link org.loadlab.analysis.campaign.SummaryCsv} and
 *       {@link org.loadlab.analysis.campaign.PairwiseCsv};</li>
 *   <li>plots with XChart, PNG and SVG: {@link org.loadlab.analysis.campaign.BoxPlot},
 *       {@link org.loadlab.analysis.campaign.SweepPlot}, {@link org.loadlab.analysis.campaign.CdfPlot},
 *       {@link org.loadlab.analysis.campaign.QueuePlot};</li>
 *   <li>the whole report, {@link org.loadlab.analysis.campaign.CampaignReport}: CSV files, plots,
 *       {@code report.md} and a self-contained {@code report.html}, rebuildable from
 *       {@code runs.jsonl} and {@code campaign-meta.json}.</li>
 * </ul>
 *
 * <p>Everything is deterministic: the same runs (in any order) and the same metadata give
 * byte-identical files. Runs are put in a canonical order (scenario, parameters with numbers
 * compared as numbers, policy, seed), numbers are formatted without the default locale, the
 * bootstrap uses a fixed seed and no file holds a timestamp.
 *
 * <p>Source: DESIGN.md (analysis module: summaries, confidence intervals, paired tests, plots,
 * reports); Hipparchus 3.1 for all distributions and tests; XChart 3.8.8 for plots.
 */
package org.loadlab.analysis.campaign;
