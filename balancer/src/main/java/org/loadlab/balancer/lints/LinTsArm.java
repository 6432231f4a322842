package org.loadlab.balancer.lints;

import java.util.random.RandomGenerator;
import org.ejml.data.DMatrixRMaj;
import org.ejml.dense.row.CommonOps_DDRM;
import org.ejml.dense.row.factory.DecompositionFactory_DDRM;
import org.ejml.dense.row.factory.LinearSolverFactory_DDRM;
import org.ejml.interfaces.decomposition.CholeskyDecomposition_F64;
import org.ejml.interfaces.linsol.LinearSolverDense;

/**
 * One node's Bayesian linear regression of Linear Thompson Sampling: the precision matrix
 * B = I + Σ x xᵀ, the vector f = Σ r x and the posterior mean θ̂ = B⁻¹f, found by solving
 * B θ̂ = f (Cholesky; B is symmetric positive definite), never by inverting B.
 *
 * <p>A posterior draw θ̃ ~ N(θ̂, v²(B⁻¹ + 10⁻⁶ I)) also avoids the inverse: with B = RᵀR
 * (Cholesky, R upper triangular) and z ~ N(0, I), the solution u of R u = z has covariance
 * R⁻¹R⁻ᵀ = B⁻¹, so θ̃ = θ̂ + v·u + v·10⁻³·z′ for a second independent z′.
 *
 * <p>Source: Agrawal and Goyal, "Thompson Sampling for Contextual Bandits with Linear
 * Payoffs" (ICML 2013); seed 003 ({@code agent.py}), SPEC.md §6.
 */
public final class LinTsArm {
    /** The ridge added to B⁻¹ in a draw (SPEC.md §6). */
    public static final double JITTER = 1e-6;

    private final int d;
    private final DMatrixRMaj b;
    private final DMatrixRMaj f;
    private final DMatrixRMaj theta;
    private DMatrixRMaj factor;
    private final LinearSolverDense<DMatrixRMaj> solver;
    private final CholeskyDecomposition_F64<DMatrixRMaj> cholesky;
    private boolean factored;

    /** A new arm of dimension {@code d}: B = I, f = 0, θ̂ = 0. @throws IllegalArgumentException if d &lt; 1 */
    public LinTsArm(int d) {
        if (d < 1) {
            throw new IllegalArgumentException("context dimension must be >= 1, was " + d);
        }
        this.d = d;
        this.b = CommonOps_DDRM.identity(d);
        this.f = new DMatrixRMaj(d, 1);
        this.theta = new DMatrixRMaj(d, 1);
        this.solver = LinearSolverFactory_DDRM.chol(d);
        this.cholesky = DecompositionFactory_DDRM.chol(d, false);
    }

    /**
     * Adds one observation: B += x xᵀ, f += r x, then θ̂ = B⁻¹f by solving.
     *
     * @param context x, length d
     * @param reward r
     * @throws IllegalArgumentException if the context's length is not d
     */
    public void update(double[] context, double reward) {
        checkLength(context);
        for (int i = 0; i < d; i++) {
            double xi = context[i];
            f.data[i] += reward * xi;
            for (int j = 0; j < d; j++) {
                b.data[i * d + j] += xi * context[j];
            }
        }
        solveTheta();
    }

    private void solveTheta() {
        if (!solver.setA(b.copy())) {
            throw new IllegalStateException("B is not positive definite (cannot happen for I + sum x x^T)");
        }
        solver.solve(f, theta);
        factored = false;
    }

    /**
     * A posterior draw θ̃ ~ N(θ̂, v²(B⁻¹ + 10⁻⁶ I)).
     *
     * @param v2 the variance scale v² ≥ 0
     * @param rng where the normal variates come from (2d of them, in a fixed order)
     * @return a new array of length d
     */
    public double[] sample(double v2, RandomGenerator rng) {
        if (!factored) {
            if (!cholesky.decompose(b.copy())) {
                throw new IllegalStateException("B is not positive definite (cannot happen for I + sum x x^T)");
            }
            factor = cholesky.getT(null);
            factored = true;
        }
        // factor is R: upper triangular, B = R^T R.
        double[] z = new double[d];
        for (int i = 0; i < d; i++) {
            z[i] = rng.nextGaussian();
        }
        double[] u = new double[d];
        for (int i = d - 1; i >= 0; i--) { // back substitution: R u = z
            double s = z[i];
            for (int j = i + 1; j < d; j++) {
                s -= factor.get(i, j) * u[j];
            }
            u[i] = s / factor.get(i, i);
        }
        double v = Math.sqrt(v2);
        double ridge = Math.sqrt(JITTER);
        double[] out = new double[d];
        for (int i = 0; i < d; i++) {
            out[i] = theta.data[i] + v * u[i] + v * ridge * rng.nextGaussian();
        }
        return out;
    }

    /** x·θ for a context x. */
    public static double dot(double[] context, double[] theta) {
        double s = 0;
        for (int i = 0; i < context.length; i++) {
            s += context[i] * theta[i];
        }
        return s;
    }

    /** θ̂, a copy. */
    public double[] mean() {
        return theta.data.clone();
    }

    /** B, row-major, a copy. */
    public double[] precision() {
        return b.data.clone();
    }

    /** f, a copy. */
    public double[] accumulated() {
        return f.data.clone();
    }

    /**
     * Replaces B and f (a restored snapshot) and solves θ̂ again.
     *
     * @param precision B row-major, d·d values, symmetric positive definite
     * @param accumulated f, d values
     * @throws IllegalArgumentException if a length is wrong or B is not positive definite
     */
    public void restore(double[] precision, double[] accumulated) {
        if (precision.length != d * d || accumulated.length != d) {
            throw new IllegalArgumentException("a snapshot of a " + d + "-dimensional arm has " + (d * d) + " + " + d
                    + " values, got " + precision.length + " + " + accumulated.length);
        }
        DMatrixRMaj candidate = new DMatrixRMaj(d, d, true, precision);
        if (!LinearSolverFactory_DDRM.chol(d).setA(candidate.copy())) {
            throw new IllegalArgumentException("the restored B is not symmetric positive definite");
        }
        System.arraycopy(precision, 0, b.data, 0, d * d);
        System.arraycopy(accumulated, 0, f.data, 0, d);
        solveTheta();
    }

    /** The context dimension d. */
    public int dimension() {
        return d;
    }

    private void checkLength(double[] context) {
        if (context.length != d) {
            throw new IllegalArgumentException("context has " + context.length + " values, the arm " + d);
        }
    }
}
