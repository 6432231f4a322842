package org.loadlab.analysis.campaign;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.SortedMap;
import java.util.TreeMap;
import org.hipparchus.stat.descriptive.moment.Mean;

/**
 * Compares every policy with a reference policy over matched seeds: within each cell
 * (scenario, parameters) that the reference ran in, each other policy's runs are paired with
 * the reference's runs of the same seed; pairs where either value is NaN are dropped. Then
 * {@link PairedTests} gives the paired t and Wilcoxon p-values, and {@link Holm} adjusts them
 * within each metric's family (all its comparisons across scenarios × parameters × policies)
 * but for the {@link PairedComparison#identical() identical} ones, whose p = 1 stays 1 (see
 * {@link PairedComparison}).
 *
 * <p>Cells without the reference give no rows; a policy with no matched seeds gives a row with
 * 0 pairs and NaN statistics, so the gap is visible.
 *
 * <p>Source: DESIGN.md (paired tests); common random numbers make runs with the same seed a
 * matched pair (same arrivals and demands).
 */
public final class PairedComparisons {

    private PairedComparisons() {
    }

    /**
     * Computes the comparisons.
     *
     * @param runs runs in any order
     * @param reference the reference policy variant name
     * @param metrics metrics to compare
     * @return comparisons ordered by the order of {@code metrics}, then scenario, parameters
     *     (numbers as numbers), policy
     * @throws IllegalArgumentException if {@code reference} is not among the runs' policies (the
     *     message lists them), {@code metrics} is empty, or two runs share scenario, parameters,
     *     policy and seed
     * @throws NullPointerException if an argument, a run or a metric is null
     */
    public static List<PairedComparison> compute(List<CampaignRun> runs, String reference, List<Metric> metrics) {
        Objects.requireNonNull(reference, "reference");
        Objects.requireNonNull(metrics, "metrics");
        if (metrics.isEmpty()) {
            throw new IllegalArgumentException("metrics: empty; choose at least one metric");
        }
        metrics.forEach(m -> Objects.requireNonNull(m, "metrics contains null"));
        RunIndex index = RunIndex.of(runs);
        if (!index.policies().contains(reference)) {
            throw new IllegalArgumentException("reference policy: '" + reference
                    + "' did not run; policies in the runs: " + index.policies());
        }
        List<PairedComparison> all = new ArrayList<>();
        for (Metric metric : metrics) {
            all.addAll(family(index, reference, metric));
        }
        return all;
    }

    private static List<PairedComparison> family(RunIndex index, String reference, Metric metric) {
        List<PairedComparison> raw = new ArrayList<>();
        for (Map.Entry<Cell, SortedMap<String, List<CampaignRun>>> cell : index.cells().entrySet()) {
            List<CampaignRun> referenceRuns = cell.getValue().get(reference);
            if (referenceRuns == null) {
                continue;
            }
            SortedMap<Long, Double> referenceBySeed = bySeed(referenceRuns, metric);
            for (Map.Entry<String, List<CampaignRun>> policy : cell.getValue().entrySet()) {
                if (!policy.getKey().equals(reference)) {
                    raw.add(compare(cell.getKey(), reference, policy.getKey(), metric,
                            referenceBySeed, bySeed(policy.getValue(), metric)));
                }
            }
        }
        // identical comparisons (p = 1, never rejected) are not part of the families
        double[] pT = raw.stream().mapToDouble(c -> c.identical() ? Double.NaN : c.pT()).toArray();
        double[] pW = raw.stream().mapToDouble(c -> c.identical() ? Double.NaN : c.pWilcoxon()).toArray();
        double[] holmT = Holm.adjust(pT);
        double[] holmW = Holm.adjust(pW);
        List<PairedComparison> adjusted = new ArrayList<>(raw.size());
        for (int i = 0; i < raw.size(); i++) {
            PairedComparison c = raw.get(i);
            adjusted.add(new PairedComparison(c.scenario(), c.parameters(), c.metric(), c.reference(), c.policy(),
                    c.pairs(), c.referenceMean(), c.policyMean(), c.changePercent(),
                    c.pT(), c.identical() ? 1.0 : holmT[i], c.pWilcoxon(), c.identical() ? 1.0 : holmW[i],
                    c.wilcoxonMethod(), c.identical()));
        }
        return adjusted;
    }

    private static PairedComparison compare(Cell cell, String reference, String policy, Metric metric,
            SortedMap<Long, Double> referenceBySeed, SortedMap<Long, Double> policyBySeed) {
        List<double[]> pairs = new ArrayList<>();
        for (Map.Entry<Long, Double> entry : referenceBySeed.entrySet()) {
            Double other = policyBySeed.get(entry.getKey());
            if (other != null) {
                pairs.add(new double[] {entry.getValue(), other});
            }
        }
        double[] ref = pairs.stream().mapToDouble(p -> p[0]).toArray();
        double[] pol = pairs.stream().mapToDouble(p -> p[1]).toArray();
        double refMean = ref.length == 0 ? Double.NaN : new Mean().evaluate(ref);
        double polMean = pol.length == 0 ? Double.NaN : new Mean().evaluate(pol);
        double change = refMean == 0 || Double.isNaN(refMean) ? Double.NaN : (polMean - refMean) / refMean * 100;
        PairedTests.WilcoxonResult wilcoxon = PairedTests.wilcoxon(ref, pol);
        return new PairedComparison(cell.scenario(), cell.parameters(), metric, reference, policy, ref.length,
                refMean, polMean, change, PairedTests.pairedT(ref, pol), Double.NaN,
                wilcoxon.p(), Double.NaN, wilcoxon.method(), PairedTests.identical(ref, pol));
    }

    /** Seed → defined value of the metric. */
    private static SortedMap<Long, Double> bySeed(List<CampaignRun> runs, Metric metric) {
        SortedMap<Long, Double> values = new TreeMap<>();
        for (CampaignRun run : runs) {
            double value = metric.value(run.metrics());
            if (!Double.isNaN(value)) {
                values.put(run.seed(), value);
            }
        }
        return values;
    }
}
