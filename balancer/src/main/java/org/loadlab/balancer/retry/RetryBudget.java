package org.loadlab.balancer.retry;

/**
 * Envoy's retry budget: at most max(min concurrency, percent × active requests) retries
 * active at once. A retry is active from the moment it is granted (so while it waits in
 * backoff) until its attempt ends; envoyproxy/envoy#30205 was a budget that counted retries
 * only once they were sent, letting a burst of retries scheduled in backoff overrun it.
 *
 * @param enabled false: every retry the attempts allow is granted
 * @param percent share of active requests, in [0, 100]
 * @param minConcurrency retries allowed whatever the share, ≥ 0
 *     <p>Source: Envoy cluster circuit breakers, {@code retry_budget}
 *     ({@code budget_percent} 20 %, {@code min_retry_concurrency} 3); envoyproxy/envoy#30738.
 */
public record RetryBudget(boolean enabled, double percent, int minConcurrency) {
    /**
     * Retries that may be active at once with {@code activeRequests} requests active.
     *
     * @param activeRequests requests in flight or waiting in backoff, ≥ 0
     * @return the limit (Integer.MAX_VALUE when the budget is off)
     */
    public int limit(int activeRequests) {
        if (!enabled) {
            return Integer.MAX_VALUE;
        }
        return Math.max(minConcurrency, (int) Math.floor(percent / 100.0 * activeRequests + 1e-9));
    }

    /**
     * True if one more retry may start now.
     *
     * @param activeRetries retries granted and not ended (in backoff or in flight)
     * @param activeRequests requests in flight or waiting in backoff
     */
    public boolean allows(int activeRetries, int activeRequests) {
        return activeRetries < limit(activeRequests);
    }
}
