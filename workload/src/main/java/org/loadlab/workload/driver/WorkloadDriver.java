package org.loadlab.workload.driver;

import org.loadlab.node.kernel.BalancerId;
import org.loadlab.node.kernel.Env;
import org.loadlab.node.kernel.Logic;
import org.loadlab.node.protocol.BalancerMessage;
import org.loadlab.workload.arrival.ArrivalProcess;
import org.loadlab.workload.demand.DemandDistribution;
import org.loadlab.workload.split.BalancerSplit;

/**
 * The client side of a run (an open system): at each instant of the arrival process it
 * creates a request with a service demand and hands it to one balancer, chosen by the
 * balancer split. Request ids are 0, 1, 2, ... in arrival order.
 *
 * <p>Arrival times, demands and the split each draw from their own random stream (given
 * through the constructor), so changing the policy never changes the workload.
 *
 * <p>Source: DESIGN.md (client/driver logic), SPEC.md §4 (Zipf split over frontends).
 */
public final class WorkloadDriver implements Logic<DriverMessage> {
    private static final Object ARRIVAL_TIMER = "next-arrival";
    private static final DriverMessage.NextArrival NEXT = new DriverMessage.NextArrival();

    private final ArrivalProcess arrivals;
    private final DemandDistribution demand;
    private final BalancerSplit split;
    private final BalancerId[] balancers;
    private volatile long generated;
    private volatile boolean finished;

    /**
     * @param arrivals arrival instants (absolute seconds), ending with +∞
     * @param demand demand of requests whose arrival carries none, work units
     * @param split chooses the balancer of each arrival
     * @param balancerCount number of balancers (must match the split)
     */
    public WorkloadDriver(ArrivalProcess arrivals, DemandDistribution demand, BalancerSplit split, int balancerCount) {
        this.arrivals = arrivals;
        this.demand = demand;
        this.split = split;
        this.balancers = new BalancerId[balancerCount];
        for (int i = 0; i < balancerCount; i++) {
            balancers[i] = new BalancerId(i);
        }
    }

    @Override
    public void onStart(Env env) {
        scheduleNext(env);
    }

    @Override
    public void on(DriverMessage message, Env env) {
        double d = arrivals.attachedDemand();
        if (Double.isNaN(d)) {
            d = demand.sample();
        }
        BalancerMessage.Arrival a = new BalancerMessage.Arrival(generated, d, env.now());
        generated = generated + 1; // single writer; volatile so a live launcher can watch it
        env.send(balancers[split.pick()], a);
        scheduleNext(env);
    }

    private void scheduleNext(Env env) {
        double t = arrivals.next();
        if (t == Double.POSITIVE_INFINITY) {
            finished = true;
            return;
        }
        env.startTimer(ARRIVAL_TIMER, t - env.now(), NEXT);
    }

    /** Requests generated so far. */
    public long generated() {
        return generated;
    }

    /** True once the arrival process is exhausted (no more requests will come). */
    public boolean finished() {
        return finished;
    }
}
