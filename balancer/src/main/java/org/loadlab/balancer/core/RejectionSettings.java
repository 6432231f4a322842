package org.loadlab.balancer.core;

/**
 * What a balancer does when its policy refuses a request (ASMF below τ, no usable probe
 * reply): reject it at once, or — delay mode, the alternative seed 000 names — hold it in
 * a bounded buffer and decide again after a backoff, rejecting it only when the buffer is
 * full or the attempts are used up. Attempt a (0-based) waits {@code backoff·multiplier^a}
 * seconds.
 *
 * @param delay true for delay mode, false to reject at once
 * @param buffer requests a balancer may hold back at once, ≥ 1
 * @param backoff first wait, seconds, > 0
 * @param multiplier growth of the wait per attempt, ≥ 1
 * @param attempts retries per request, ≥ 1
 */
public record RejectionSettings(boolean delay, int buffer, double backoff, double multiplier, int attempts) {
    /** Reject at once (the default). */
    public static final RejectionSettings REJECT = new RejectionSettings(false, 1, 1, 1, 1);

    /** Validates. @throws IllegalArgumentException naming the field */
    public RejectionSettings {
        if (buffer < 1 || attempts < 1) {
            throw new IllegalArgumentException("policy.rejection buffer and attempts must be >= 1, were " + buffer + ", " + attempts);
        }
        if (!(backoff > 0) || !(multiplier >= 1)) {
            throw new IllegalArgumentException("policy.rejection needs backoff > 0 s and multiplier >= 1, were "
                    + backoff + ", " + multiplier);
        }
    }

    /** Seconds before retry number {@code attempt} (0-based). */
    public double waitBefore(int attempt) {
        return backoff * Math.pow(multiplier, attempt);
    }
}
