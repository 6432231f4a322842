/**
 * The production-balancer studies of issue 14 (docs/production.md): herding on a shared
 * stale view, cold start, slow hosts, retry storms and scale events. Each is a built-in
 * scenario (and a campaign) run here variant by variant with a {@link
 * org.loadlab.experiment.run.RoutingTap} for the time-resolved measures, written as a
 * markdown table, a CSV file and a plot ({@code loadlab study NAME}).
 */
package org.loadlab.studies.production;
