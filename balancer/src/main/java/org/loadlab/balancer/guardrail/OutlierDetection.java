package org.loadlab.balancer.guardrail;

/**
 * Passive outlier ejection (scenario block {@code outlier-detection}), Envoy's form, from
 * the outcomes of the requests a balancer sends. A node is ejected
 * <ul>
 *   <li>after {@code consecutiveErrors} failed attempts in a row (5xx, timeouts, resets; a
 *       429 shed is the node protecting itself and counts as a success), or</li>
 *   <li>at the end of an {@code interval}, when at least {@code successRateMinimumHosts}
 *       nodes had {@code successRateRequestVolume} attempts in it and its success rate is
 *       below mean − {@code successRateStdevFactor} × standard deviation of those rates.</li>
 * </ul>
 * An ejection lasts {@code baseEjectionTime} × the node's number of ejections, at most
 * {@code maxEjectionTime}; the count drops by one for every interval the node spends
 * un-ejected. Ejected nodes return at the first interval tick after their time. Ejections go
 * into the guardrails' ledger ({@link NodeHealth}) and respect its cap
 * (⌊{@code guardrails.max-ejection-share} × |allowed|⌋ nodes at once) and panic threshold.
 *
 * @param enabled false: no ejections
 * @param consecutiveErrors failures in a row that eject, ≥ 0 (0: off)
 * @param interval seconds between success-rate evaluations and ejection checks, &gt; 0
 * @param baseEjectionTime seconds, &gt; 0
 * @param maxEjectionTime seconds, ≥ baseEjectionTime
 * @param successRate true to run the success-rate test
 * @param successRateMinimumHosts nodes with enough volume the test needs, ≥ 1
 * @param successRateRequestVolume attempts in an interval a node needs to be judged, ≥ 1
 * @param successRateStdevFactor how many standard deviations below the mean ejects, ≥ 0
 *     <p>Source: Envoy, "Outlier detection" (arch overview) and
 *     {@code envoy.config.cluster.v3.OutlierDetection} defaults (5 consecutive 5xx, 10 s
 *     interval, 30 s base ejection, 300 s max, success rate: 5 hosts, 100 requests, 1.9σ).
 */
public record OutlierDetection(boolean enabled, int consecutiveErrors, double interval, double baseEjectionTime,
                               double maxEjectionTime, boolean successRate, int successRateMinimumHosts,
                               int successRateRequestVolume, double successRateStdevFactor) {
    /** Off, with Envoy's defaults for when it is turned on. */
    public static final OutlierDetection OFF = new OutlierDetection(false, 5, 10, 30, 300, true, 5, 100, 1.9);

    /** Validates. @throws IllegalArgumentException naming the key, the value and what is allowed */
    public OutlierDetection {
        check(consecutiveErrors >= 0, "consecutive-errors", consecutiveErrors, ">= 0 (0: off)");
        check(interval > 0 && interval < Double.POSITIVE_INFINITY, "interval", interval, "> 0 s");
        check(baseEjectionTime > 0 && baseEjectionTime < Double.POSITIVE_INFINITY, "base-ejection-time", baseEjectionTime, "> 0 s");
        check(maxEjectionTime >= baseEjectionTime && maxEjectionTime < Double.POSITIVE_INFINITY, "max-ejection-time",
                maxEjectionTime, ">= base-ejection-time = " + baseEjectionTime + " s");
        check(successRateMinimumHosts >= 1, "success-rate.minimum-hosts", successRateMinimumHosts, ">= 1");
        check(successRateRequestVolume >= 1, "success-rate.request-volume", successRateRequestVolume, ">= 1");
        check(successRateStdevFactor >= 0, "success-rate.stdev-factor", successRateStdevFactor, ">= 0");
    }

    private static void check(boolean ok, String key, Object value, String allowed) {
        if (!ok) {
            throw new IllegalArgumentException("outlier-detection." + key + " = " + value + ": allowed " + allowed);
        }
    }

    /** Seconds an ejection lasts when it is the node's {@code ejections}-th (counting this one). */
    public double ejectionTime(int ejections) {
        return Math.min(maxEjectionTime, baseEjectionTime * Math.max(1, ejections));
    }
}
