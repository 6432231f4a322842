package org.loadlab.analysis.campaign;

import java.util.Objects;
import java.util.function.DoubleUnaryOperator;

/**
 * A theoretical curve to draw over measured values, e.g. the M/M/1 mean response time
 * E[T] = (1/μ)/(1 − ρ) against utilisation ρ. The function maps the swept parameter's value (x
 * axis) to the metric's value in the metric's unit (y axis); non-finite results (e.g. at
 * ρ ≥ 1) are not drawn.
 *
 * <p>Source: caller-supplied theory; see docs/validation.md for the queueing formulas used to
 * validate LoadLab.
 *
 * @param name legend text, e.g. {@code M/M/1 (μ = 10/s)}; not blank
 * @param function x ↦ y; must be a pure function (it may be evaluated many times)
 */
public record AnalyticCurve(String name, DoubleUnaryOperator function) {

    /**
     * Creates the curve.
     *
     * @param name see the class comment
     * @param function see the class comment
     * @throws NullPointerException if an argument is null
     * @throws IllegalArgumentException if {@code name} is blank
     */
    public AnalyticCurve {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(function, "function");
        if (name.isBlank()) {
            throw new IllegalArgumentException("analytic curve name: blank; it is shown in the legend");
        }
    }
}
