package org.loadlab.workload.driver;

import org.loadlab.kernel.BalancerId;
import org.loadlab.kernel.Env;
import org.loadlab.kernel.Logic;
import org.loadlab.kernel.Message;
import org.loadlab.kernel.NodeId;
import org.loadlab.node.protocol.BalancerMessage;
import org.loadlab.node.sharing.SharingMessage;
import org.loadlab.workload.arrival.ArrivalProcess;
import org.loadlab.workload.demand.DemandDistribution;
import org.loadlab.workload.keys.KeySequence;
import org.loadlab.workload.split.BalancerSplit;

/**
 * The client side of a run (an open system): at each instant of the arrival process it
 * creates a request with a service demand and hands it to one balancer, chosen by the
 * balancer split. Request ids are 0, 1, 2, ... in arrival order.
 *
 * <p>Arrival times, demands and the split each draw from their own random stream (given
 * through the constructor), so changing the policy never changes the workload.
 *
 * <p>In a load-sharing run ({@link #toNodes}) there is no balancer: each task goes straight to
 * a node as a {@link SharingMessage.Arrival}, the split choosing the node.
 *
 * <p>Source: DESIGN.md (client/driver logic), SPEC.md §4 (Zipf split over frontends), §7
 * (Poisson arrivals at each node).
 */
public final class WorkloadDriver implements Logic<Message> {
    private static final Object ARRIVAL_TIMER = "next-arrival";
    private static final DriverMessage.NextArrival NEXT = new DriverMessage.NextArrival();

    private final ArrivalProcess arrivals;
    private final DemandDistribution demand;
    private final BalancerSplit split;
    private final BalancerId[] balancers;
    private final NodeId[] nodes;
    private final KeySequence keys;
    private org.loadlab.workload.keys.EndpointMix endpoints = org.loadlab.workload.keys.EndpointMix.NONE;
    // Single writer (the driver's handler); a live launcher's thread reads it. A release store
    // publishes it without the full fence a volatile store costs on every request.
    private long generated;
    private static final java.lang.invoke.VarHandle GENERATED;

    static {
        try {
            GENERATED = java.lang.invoke.MethodHandles.lookup().findVarHandle(WorkloadDriver.class, "generated", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }
    private volatile boolean finished;

    /**
     * @param arrivals arrival instants (absolute seconds), ending with +∞
     * @param demand demand of requests whose arrival carries none, work units
     * @param split chooses the balancer of each arrival
     * @param balancerCount number of balancers (must match the split)
     */
    public WorkloadDriver(ArrivalProcess arrivals, DemandDistribution demand, BalancerSplit split, int balancerCount) {
        this(arrivals, demand, split, balancerCount, KeySequence.NONE);
    }

    /**
     * @param arrivals arrival instants (absolute seconds), ending with +∞
     * @param demand demand of requests whose arrival carries none, work units
     * @param split chooses the balancer of each arrival
     * @param balancerCount number of balancers (must match the split)
     * @param keys the requests' affinity keys (their own random stream)
     */
    public WorkloadDriver(ArrivalProcess arrivals, DemandDistribution demand, BalancerSplit split, int balancerCount,
                          KeySequence keys) {
        this.keys = keys;
        this.arrivals = arrivals;
        this.demand = demand;
        this.split = split;
        this.balancers = new BalancerId[balancerCount];
        for (int i = 0; i < balancerCount; i++) {
            balancers[i] = new BalancerId(i);
        }
        this.nodes = null;
    }

    private WorkloadDriver(ArrivalProcess arrivals, DemandDistribution demand, NodeId[] nodes, BalancerSplit split) {
        this.arrivals = arrivals;
        this.demand = demand;
        this.split = split;
        this.balancers = null;
        this.nodes = nodes;
        this.keys = KeySequence.NONE;
    }

    /**
     * A driver for a load-sharing run: every task goes straight to the node the split picks
     * (split over the n nodes; a Poisson stream split at random gives each node a Poisson stream).
     *
     * @param arrivals arrival instants (absolute seconds), ending with +∞
     * @param demand demand of tasks whose arrival carries none, work units
     * @param split chooses the node of each arrival, over {@code nodeCount} nodes
     * @param nodeCount number of nodes n (must match the split)
     * @throws IllegalArgumentException if the split's size is not {@code nodeCount}
     */
    public static WorkloadDriver toNodes(ArrivalProcess arrivals, DemandDistribution demand, BalancerSplit split, int nodeCount) {
        if (split.balancers() != nodeCount) {
            throw new IllegalArgumentException("the node split has " + split.balancers() + " targets, the run " + nodeCount + " nodes");
        }
        NodeId[] ids = new NodeId[nodeCount];
        for (int j = 0; j < nodeCount; j++) {
            ids[j] = NodeId.of(j);
        }
        return new WorkloadDriver(arrivals, demand, ids, split);
    }

    @Override
    public void onStart(Env env) {
        scheduleNext(env);
    }

    @Override
    public void on(Message message, Env env) {
        // Every message is its own arrival timer (DriverMessage.NextArrival; nothing else is
        // sent to a driver). Typed Logic<Message> on purpose: a Logic<DriverMessage> adds a
        // bridge cast to a second interface, and on JDK 17 alternating checks of one class
        // against two interfaces miss the class's one-entry secondary-super cache every time
        // (JDK-8180450; with parallel campaign workers the cache line also bounces between cores).
        double d = arrivals.attachedDemand();
        if (Double.isNaN(d)) {
            d = demand.sample();
        }
        if (nodes != null) {
            SharingMessage.Arrival task = new SharingMessage.Arrival(generated, d, env.now());
            GENERATED.setRelease(this, generated + 1);
            env.send(nodes[split.pick()], task);
            scheduleNext(env);
            return;
        }
        BalancerMessage.Arrival a = new BalancerMessage.Arrival(generated, d, env.now(), keys.next(), endpoints.next());
        GENERATED.setRelease(this, generated + 1);
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

    /**
     * Gives the requests endpoints drawn from {@code mix} (seed 003). Call before the run starts.
     *
     * @param mix the endpoint mix (its own random stream)
     * @return this
     */
    public WorkloadDriver endpoints(org.loadlab.workload.keys.EndpointMix mix) {
        this.endpoints = mix;
        return this;
    }

    /** Requests generated so far. */
    public long generated() {
        return (long) GENERATED.getAcquire(this);
    }

    /** True once the arrival process is exhausted (no more requests will come). */
    public boolean finished() {
        return finished;
    }
}
