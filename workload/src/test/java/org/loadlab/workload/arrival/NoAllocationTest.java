package org.loadlab.workload.arrival;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.util.SplittableRandom;
import java.util.function.DoubleSupplier;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.loadlab.workload.demand.DemandDistribution;
import org.loadlab.workload.demand.ExponentialDemand;
import org.loadlab.workload.demand.LogNormalDemand;
import org.loadlab.workload.demand.ParetoDemand;
import org.loadlab.workload.demand.SizeMixes;
import org.loadlab.workload.split.BalancerSplit;
import org.loadlab.workload.trace.TokenDemandModel;
import org.loadlab.workload.trace.TraceReader;

/**
 * Sampling must not allocate per call (the simulator targets millions of events/s): one million
 * calls may allocate far less than one small object each (16 MB).
 */
class NoAllocationTest {

    private static final int CALLS = 1_000_000;
    private static final long BUDGET_BYTES = 1_000_000;
    private static final int ROUNDS = 10;

    private static long allocatedBytes() {
        java.lang.management.ThreadMXBean bean = ManagementFactory.getThreadMXBean();
        Assumptions.assumeTrue(bean instanceof com.sun.management.ThreadMXBean);
        return ((com.sun.management.ThreadMXBean) bean).getThreadAllocatedBytes(Thread.currentThread().getId());
    }

    /**
     * Asserts that {@code call} allocates nothing once compiled. The JIT compiles in the
     * background, and only C2's escape analysis removes some short-lived objects (Hipparchus'
     * {@code FastMath.sin} makes one per call for its argument reduction): on a busy machine the
     * measured round may still run the C1 code. So up to {@link #ROUNDS} rounds are measured
     * and the least counts; an allocation the compiled code really makes shows in every round.
     */
    private static void assertNoAllocation(String what, DoubleSupplier call) {
        double sink = 0;
        for (int i = 0; i < 200_000; i++) { // warm up
            sink += call.getAsDouble();
        }
        long least = Long.MAX_VALUE;
        StringBuilder rounds = new StringBuilder();
        for (int round = 0; round < ROUNDS && least >= BUDGET_BYTES; round++) {
            long before = allocatedBytes();
            for (int i = 0; i < CALLS; i++) {
                sink += call.getAsDouble();
            }
            long used = allocatedBytes() - before;
            least = Math.min(least, used);
            rounds.append(rounds.length() == 0 ? "" : ", ").append(used);
        }
        assertTrue(least < BUDGET_BYTES, what + " allocated bytes per " + CALLS + " calls, round by round: " + rounds);
        assertTrue(sink == sink || Double.isNaN(sink)); // keep sink alive
    }

    @Test
    void arrivalProcesses() {
        assertNoAllocation("Poisson", new PoissonArrivals(10, new SplittableRandom(1))::next);
        assertNoAllocation("NHPP diurnal", new NonHomogeneousPoissonArrivals(
                DiurnalRate.seed001(10, 1000, DiurnalRate.evenWindows(3, 0.02)), new SplittableRandom(1))::next);
        assertNoAllocation("NHPP spike/square", new NonHomogeneousPoissonArrivals(new SpikeRate(
                new SquareWaveRate(10, 3, 0.3, 4.5, 0.5, true), 5, 10, 2), new SplittableRandom(1))::next);
        assertNoAllocation("MMPP", new MmppArrivals(10, 1, 1, 2, true, new SplittableRandom(1))::next);
        TraceArrivals trace = new TraceArrivals(TraceReader.readResource(TraceReader.AZURE_CODE), 3, true,
                TokenDemandModel.defaults());
        assertNoAllocation("trace", () -> trace.next() + trace.attachedDemand());
        LimitedArrivals limited = new LimitedArrivals(new PoissonArrivals(10, new SplittableRandom(1)), Long.MAX_VALUE,
                Double.POSITIVE_INFINITY);
        assertNoAllocation("limited", limited::next);
    }

    @Test
    void demandsAndSplit() {
        DemandDistribution[] all = {new ExponentialDemand(1.5, new SplittableRandom(1)),
            new LogNormalDemand(1, 1, new SplittableRandom(1)), new ParetoDemand(1.5, 1, new SplittableRandom(1)),
            SizeMixes.seed001(1, new SplittableRandom(1))};
        for (DemandDistribution d : all) {
            assertNoAllocation(d.toString(), d::sample);
        }
        BalancerSplit zipf = BalancerSplit.zipf(8, 1.35, new SplittableRandom(1));
        assertNoAllocation("zipf split", zipf::pick);
    }
}
