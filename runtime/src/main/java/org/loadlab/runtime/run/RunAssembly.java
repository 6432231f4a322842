package org.loadlab.runtime.run;

import java.util.ArrayList;
import java.util.List;
import org.loadlab.balancer.core.BalancerLogic;
import org.loadlab.balancer.core.InformationModel;
import org.loadlab.balancer.policy.AsmfSettings;
import org.loadlab.balancer.policy.PolicyCatalog;
import org.loadlab.balancer.policy.PolicyParameters;
import org.loadlab.node.backend.BackendNode;
import org.loadlab.node.backend.FeedbackSettings;
import org.loadlab.node.backend.NodeSettings;
import org.loadlab.node.kernel.Address;
import org.loadlab.node.kernel.BalancerId;
import org.loadlab.node.kernel.ClusterView;
import org.loadlab.node.kernel.LoadSnapshot;
import org.loadlab.node.kernel.Message;
import org.loadlab.node.kernel.NodeId;
import org.loadlab.node.protocol.NodeMessage;
import org.loadlab.workload.driver.WorkloadDriver;
import org.loadlab.workload.scenario.Scenario;
import org.loadlab.workload.scenario.WorkloadBuilder;

/**
 * The logic cores of one run (scenario × policy × seed), built the same way for the
 * simulation shell and the live Pekko shell: nodes, balancers, the workload driver and
 * the scripted events. Both shells then only differ in how they deliver messages.
 *
 * @param spec what is run
 * @param topology μ_j and allowed sets
 * @param nodes one backend node per index
 * @param balancers one balancer per index
 * @param driver the workload driver (client 0)
 * @param events scripted node events in time order
 * @param workload the workload (arrival rate, offered utilisation)
 */
public record RunAssembly(RunSpec spec, Topology topology, BackendNode[] nodes, BalancerLogic[] balancers,
                          WorkloadDriver driver, List<ScheduledEvent> events, WorkloadBuilder.Workload workload) {

    /**
     * A message an event script delivers at a fixed time.
     *
     * @param at time, seconds
     * @param to receiver
     * @param message what it receives
     */
    public record ScheduledEvent(double at, Address to, Message message) {
    }

    /** Builds the cores of {@code spec}. */
    public static RunAssembly build(RunSpec spec) {
        Scenario s = spec.scenario();
        Topology topology = Topology.of(s);
        int n = s.nodes().count();
        int b = s.balancers().count();
        List<BalancerId> balancerIds = new ArrayList<>();
        for (int i = 0; i < b; i++) {
            balancerIds.add(new BalancerId(i));
        }
        Scenario.Information info = s.information();
        boolean cached = info.model().equals("cached");
        Scenario.Asmf a = s.policy().asmf();
        FeedbackSettings feedback = PolicyCatalog.usesFeedback(spec.policy())
                ? new FeedbackSettings(a.eta(), a.cMin(), a.cMax(), a.window())
                : FeedbackSettings.OFF;
        NodeSettings nodeSettings = new NodeSettings(s.nodes().servers(), s.nodes().queueCapacity(),
                s.nodes().resourcePeriod(), cached ? info.reportPeriod() : 0, info.reportDelay(), balancerIds, feedback);
        BackendNode[] nodes = new BackendNode[n];
        for (int j = 0; j < n; j++) {
            nodes[j] = new BackendNode(NodeId.of(j), topology.serviceRates()[j], nodeSettings);
        }

        PolicyParameters params = new PolicyParameters(s.policy().k(),
                new AsmfSettings(a.k(), a.alpha(), a.beta(), a.gamma(), a.delta(), a.tau(), true, true, true),
                s.policy().stickyLazy().threshold());
        InformationModel model = new InformationModel(switch (info.model()) {
            case "cached" -> InformationModel.Kind.CACHED;
            case "oracle" -> InformationModel.Kind.ORACLE;
            default -> InformationModel.Kind.PROBE;
        }, info.probeTimeout());
        BalancerLogic[] balancers = new BalancerLogic[b];
        for (int i = 0; i < b; i++) {
            balancers[i] = new BalancerLogic(balancerIds.get(i), topology.allowed()[i], n,
                    PolicyCatalog.instantiate(spec.policy(), params, topology.serviceRates()), model, rejection(s));
        }

        WorkloadBuilder.Workload workload = WorkloadBuilder.build(s, topology.capacity(s.nodes().servers()), spec.seed());
        WorkloadDriver driver = new WorkloadDriver(workload.arrivals(), workload.demand(), workload.split(), b);

        List<ScheduledEvent> events = new ArrayList<>();
        for (Scenario.Event e : s.events()) {
            Message m = switch (e.type()) {
                case "fail" -> new NodeMessage.Fail();
                case "recover" -> new NodeMessage.Recover();
                case "degrade" -> new NodeMessage.Degrade(e.factor());
                default -> null; // spikes act on the arrival process
            };
            if (m != null) {
                for (int node : e.nodes()) {
                    events.add(new ScheduledEvent(e.at(), NodeId.of(node), m));
                }
            }
        }
        return new RunAssembly(spec, topology, nodes, balancers, driver, List.copyOf(events), workload);
    }

    private static org.loadlab.balancer.core.RejectionSettings rejection(Scenario s) {
        Scenario.Rejection r = s.policy().rejection();
        return r.mode().equals("delay")
                ? new org.loadlab.balancer.core.RejectionSettings(true, r.buffer(), r.backoff(), r.multiplier(), r.attempts())
                : org.loadlab.balancer.core.RejectionSettings.REJECT;
    }

    /** The oracle view over these nodes at the time {@code clock} tells. */
    public ClusterView oracle(java.util.function.DoubleSupplier clock) {
        return new ClusterView() {
            @Override
            public int nodeCount() {
                return nodes.length;
            }

            @Override
            public LoadSnapshot load(int index) {
                return nodes[index].snapshot(clock.getAsDouble());
            }
        };
    }
}
