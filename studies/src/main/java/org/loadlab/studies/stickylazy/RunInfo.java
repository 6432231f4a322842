package org.loadlab.studies.stickylazy;

import org.loadlab.balancer.policy.StickyCache;

/**
 * What the campaign definition says about one run's variant: the catalog policy it runs,
 * its Sticky-Lazy threshold and credit rule.
 *
 * @param policy catalog policy name (e.g. {@code sticky-lazy} for a variant {@code sl-t8})
 * @param threshold T in effect for the run (scenario, sweep and variant overrides applied)
 * @param credit the credit rule in effect (T − q or T − q − 1)
 */
record RunInfo(String policy, int threshold, StickyCache.Credit credit) {
}
