/**
 * Summary statistics over repeated runs (seeds): mean, sample standard deviation,
 * Student-t 95% confidence half-width, and Jain's fairness index.
 *
 * <p>Source: SPEC.md §4 (summaries with mean, sd, 95% CI); Hipparchus for the t distribution.
 */
package org.loadlab.analysis.stats;
