package org.loadlab.studies.stickylazy;

/**
 * What the campaign definition says about one run's variant: the catalog policy it runs and
 * its Sticky-Lazy threshold.
 *
 * @param policy catalog policy name (e.g. {@code sticky-lazy} for a variant {@code sl-t8})
 * @param threshold T in effect for the run (scenario, sweep and variant overrides applied)
 */
record RunInfo(String policy, int threshold) {
}
