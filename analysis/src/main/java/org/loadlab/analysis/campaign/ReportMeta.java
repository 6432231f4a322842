package org.loadlab.analysis.campaign;

import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * What a campaign report is about and what it shows; stored as {@code campaign-meta.json} so
 * that {@link CampaignReport#rebuild(java.nio.file.Path)} can regenerate the report.
 *
 * <p>Analytic curves are drawn on the sweep plots of {@link Metric#RESPONSE_MEAN} against the
 * <em>first</em> swept parameter, so order {@code sweptParameters} with the curve's x variable
 * first (e.g. {@code arrivals.utilisation}). They are tabulated once when the report is written
 * (see {@link CampaignReport}), which is what the meta file stores.
 *
 * <p>Source: DESIGN.md (campaigns; reports).
 *
 * @param name campaign name, e.g. {@code asmf-vs-p2c}; not blank
 * @param description free text shown under the title; may be empty
 * @param referencePolicy the policy variant every other policy is compared with; must be
 *     among the runs' policies when the report is written
 * @param sweptParameters the swept scenario keys, e.g. {@code [arrivals.utilisation]}; every
 *     run's parameter keys must be among them; may be empty
 * @param analyticCurves theory curves for the mean-response-time sweep plots; may be empty
 * @param metrics metrics for summaries, comparisons and plots, in display order; not empty
 * @param bootstrapCi whether {@code summary.csv} gets percentile-bootstrap intervals
 *     (B = {@value BootstrapCi#RESAMPLES}, fixed seed) besides the Student-t ones
 */
public record ReportMeta(
        String name,
        String description,
        String referencePolicy,
        List<String> sweptParameters,
        List<AnalyticCurve> analyticCurves,
        List<Metric> metrics,
        boolean bootstrapCi) {

    /**
     * Creates the metadata, copying the lists.
     *
     * @param name see the class comment
     * @param description see the class comment
     * @param referencePolicy see the class comment
     * @param sweptParameters see the class comment
     * @param analyticCurves see the class comment
     * @param metrics see the class comment
     * @param bootstrapCi see the class comment
     * @throws NullPointerException if an argument or a list element is null
     * @throws IllegalArgumentException if {@code name}, {@code referencePolicy} or a swept key is
     *     blank, a swept key or metric is repeated, or {@code metrics} is empty
     */
    public ReportMeta {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(description, "description");
        Objects.requireNonNull(referencePolicy, "referencePolicy");
        sweptParameters = List.copyOf(Objects.requireNonNull(sweptParameters, "sweptParameters"));
        analyticCurves = List.copyOf(Objects.requireNonNull(analyticCurves, "analyticCurves"));
        metrics = List.copyOf(Objects.requireNonNull(metrics, "metrics"));
        if (name.isBlank()) {
            throw new IllegalArgumentException("name: blank; a campaign report needs a name");
        }
        if (referencePolicy.isBlank()) {
            throw new IllegalArgumentException("referencePolicy: blank; name the policy to compare against");
        }
        Set<String> keys = new HashSet<>();
        for (String key : sweptParameters) {
            if (key.isBlank()) {
                throw new IllegalArgumentException("sweptParameters: blank key in " + sweptParameters);
            }
            if (!keys.add(key)) {
                throw new IllegalArgumentException("sweptParameters: '" + key + "' appears twice in " + sweptParameters);
            }
        }
        if (metrics.isEmpty()) {
            throw new IllegalArgumentException("metrics: empty; choose at least one metric, e.g. Metric.HEADLINE");
        }
        if (new HashSet<>(metrics).size() != metrics.size()) {
            throw new IllegalArgumentException("metrics: a metric appears twice in " + metrics);
        }
    }

    /**
     * Metadata with the defaults: {@link Metric#HEADLINE} metrics, no analytic curves,
     * bootstrap intervals on.
     *
     * @param name campaign name
     * @param description free text; may be empty
     * @param referencePolicy the reference policy variant
     * @param sweptParameters the swept scenario keys; may be empty
     * @return the metadata
     * @throws NullPointerException if an argument is null
     * @throws IllegalArgumentException as the canonical constructor
     */
    public static ReportMeta of(String name, String description, String referencePolicy, List<String> sweptParameters) {
        return new ReportMeta(name, description, referencePolicy, sweptParameters, List.of(), Metric.HEADLINE, true);
    }

    /**
     * A copy with other analytic curves.
     *
     * @param curves the curves
     * @return the new metadata
     * @throws NullPointerException if {@code curves} or an element is null
     */
    public ReportMeta withAnalyticCurves(List<AnalyticCurve> curves) {
        return new ReportMeta(name, description, referencePolicy, sweptParameters, curves, metrics, bootstrapCi);
    }

    /**
     * A copy with other metrics.
     *
     * @param newMetrics the metrics, in display order
     * @return the new metadata
     * @throws NullPointerException if {@code newMetrics} or an element is null
     * @throws IllegalArgumentException if empty or repeated
     */
    public ReportMeta withMetrics(List<Metric> newMetrics) {
        return new ReportMeta(name, description, referencePolicy, sweptParameters, analyticCurves, newMetrics, bootstrapCi);
    }
}
