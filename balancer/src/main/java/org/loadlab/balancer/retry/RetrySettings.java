package org.loadlab.balancer.retry;

import java.util.EnumSet;
import java.util.Set;
import org.loadlab.node.protocol.ResponseStatus;

/**
 * A balancer's retries (scenario block {@code retry}), Envoy's semantics. An attempt that
 * ends with a status in {@code retryOn} is retried, at most {@code maxRetries} times per
 * request, on a node the request has not tried yet, chosen by {@code policy} (the balancer's
 * own policy, or another catalog policy such as seed 003's least-queue failover). Before
 * retry r (r = 1, 2, ...) the request waits a backoff drawn uniformly from
 * [0, min(backoffMax, backoffBase · 2^(r−1))] (full jitter, applied after the cap). With the
 * budget on, a retry is allowed only while the retries active (waiting in backoff or in
 * flight) are fewer than max(minRetryConcurrency, budgetPercent / 100 × active requests); a
 * refused retry fails the request at once with its last status, counted. An attempt
 * unanswered after {@code perTryTimeout} seconds ends as a timeout; its copy keeps the node
 * busy (nothing cancels work already queued), and a late answer is ignored.
 *
 * @param maxRetries retries per request, ≥ 0 (0: retries off)
 * @param retryOn statuses that are retried: some of ERROR (500), OVERLOADED (429), TIMEOUT
 *     (the per-try timeout), RESET (the node was removed with the attempt in flight)
 * @param perTryTimeout seconds before an attempt times out, ≥ 0 (0: never)
 * @param backoffBase seconds, ≥ 0 (0: retry at once)
 * @param backoffMax seconds, ≥ backoffBase
 * @param budget true to limit concurrent retries by the budget
 * @param budgetPercent share of the active requests that may be retries, in [0, 100]
 * @param minRetryConcurrency retries allowed at once whatever the share, ≥ 0
 * @param policy name of the policy that chooses a retry's node, or {@link #SAME_POLICY}
 *     <p>Source: Envoy route retry policy ({@code num_retries}, {@code retry_on},
 *     {@code per_try_timeout}, {@code retry_back_off}: 25 ms base, 10 × base cap, fully
 *     jittered), cluster circuit breaker retry budgets (20 %, min concurrency 3) and
 *     envoyproxy/envoy#30205 / #30738 (retries scheduled in backoff count against the budget);
 *     the previous-hosts retry predicate; Brooker, "Exponential Backoff And Jitter" (AWS 2015).
 */
public record RetrySettings(int maxRetries, Set<ResponseStatus> retryOn, double perTryTimeout, double backoffBase,
                            double backoffMax, boolean budget, double budgetPercent, int minRetryConcurrency,
                            String policy) {
    /** {@link #policy} value: the balancer's own policy chooses the retry's node. */
    public static final String SAME_POLICY = "same";
    /** The statuses a retry may be configured for. */
    public static final Set<ResponseStatus> RETRIABLE = Set.copyOf(
            EnumSet.of(ResponseStatus.ERROR, ResponseStatus.OVERLOADED, ResponseStatus.TIMEOUT, ResponseStatus.RESET));
    /** Retries off, with Envoy's defaults for when they are turned on. */
    public static final RetrySettings OFF = new RetrySettings(0,
            EnumSet.of(ResponseStatus.ERROR, ResponseStatus.TIMEOUT, ResponseStatus.RESET), 0, 0.025, 0.25, true, 20, 3,
            SAME_POLICY);

    /** Validates. @throws IllegalArgumentException naming the key, the value and what is allowed */
    public RetrySettings {
        check(maxRetries >= 0, "max-retries", maxRetries, ">= 0 (0: off)");
        if (retryOn == null || !RETRIABLE.containsAll(retryOn)) {
            throw new IllegalArgumentException("retry.retry-on = " + retryOn + ": allowed a list of error, overloaded, timeout, reset");
        }
        retryOn = retryOn.isEmpty() ? Set.of() : Set.copyOf(EnumSet.copyOf(retryOn));
        check(perTryTimeout >= 0 && perTryTimeout < Double.POSITIVE_INFINITY, "per-try-timeout", perTryTimeout, ">= 0 s (0: none)");
        check(backoffBase >= 0 && backoffBase < Double.POSITIVE_INFINITY, "backoff.base", backoffBase, ">= 0 s");
        check(backoffMax >= backoffBase && backoffMax < Double.POSITIVE_INFINITY, "backoff.max", backoffMax,
                ">= backoff.base = " + backoffBase + " s");
        check(budgetPercent >= 0 && budgetPercent <= 100, "budget.percent", budgetPercent, "a percentage in [0, 100]");
        check(minRetryConcurrency >= 0, "budget.min-concurrency", minRetryConcurrency, ">= 0");
        if (policy == null || policy.isBlank()) {
            throw new IllegalArgumentException("retry.policy = '" + policy + "': allowed 'same' or a policy name");
        }
    }

    private static void check(boolean ok, String key, Object value, String allowed) {
        if (!ok) {
            throw new IllegalArgumentException("retry." + key + " = " + value + ": allowed " + allowed);
        }
    }

    /** True if requests may be retried. */
    public boolean enabled() {
        return maxRetries > 0;
    }

    /** True if the balancer must follow its requests (retries on, or a per-try timeout to enforce). */
    public boolean tracksRequests() {
        return maxRetries > 0 || perTryTimeout > 0;
    }

    /** True if an attempt that ended with {@code status} may be retried. */
    public boolean retries(ResponseStatus status) {
        return retryOn.contains(status);
    }

    /** True if a separate policy chooses the retries' nodes. */
    public boolean ownPolicy() {
        return !SAME_POLICY.equals(policy);
    }
}
