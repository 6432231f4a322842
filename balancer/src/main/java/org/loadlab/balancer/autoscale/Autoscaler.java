package org.loadlab.balancer.autoscale;

import java.util.List;
import org.loadlab.balancer.control.ControlMessage;
import org.loadlab.balancer.control.FleetView;
import org.loadlab.kernel.BalancerId;
import org.loadlab.kernel.Env;
import org.loadlab.kernel.Logic;
import org.loadlab.kernel.NodeId;
import org.loadlab.node.protocol.BalancerMessage;
import org.loadlab.node.protocol.LoadSnapshot;
import org.loadlab.node.protocol.NodeMessage;

/**
 * Seed 003's horizontal autoscaler as a control service: every {@code period} it takes the
 * mean CPU of the active nodes from the balancers' reports and runs the {@link ScalingRule}.
 * Nodes 0..min−1 are always active; a scale-up starts node {@code active} (it was held
 * stopped, {@code Recover}) and tells every balancer it joined; a scale-down tells the
 * balancers that the last added node is leaving (no new requests; those in flight complete),
 * and the node idles until a later scale-up starts it again. Counters {@code autoscaler_scale_ups}, {@code autoscaler_scale_downs}.
 *
 * <p>The simulation reserves the slots of nodes min..max−1 from the start (its entity table is
 * fixed); a reserved node is stopped and silent until the autoscaler starts it, as a
 * scheduled-but-not-yet-running pod is.
 *
 * <p>Source: seed 003 ({@code autoscaler.py}), SPEC.md §6.
 */
public final class Autoscaler implements Logic<ControlMessage> {
    /** Counter: nodes added. */
    public static final String SCALE_UPS = "autoscaler_scale_ups";
    /** Counter: nodes removed. */
    public static final String SCALE_DOWNS = "autoscaler_scale_downs";

    private static final ControlMessage.Tick TICK = new ControlMessage.Tick();

    private final AutoscalerSettings settings;
    private final ScalingRule rule;
    private final FleetView fleet;
    private final List<BalancerId> balancers;
    private int active;

    /**
     * @param settings thresholds, counts, bounds
     * @param balancers the balancers to tell about joins and departures (they report to it)
     */
    public Autoscaler(AutoscalerSettings settings, List<BalancerId> balancers) {
        this.settings = settings;
        this.rule = new ScalingRule(settings);
        this.fleet = new FleetView(settings.maxNodes(), balancers.size());
        this.balancers = List.copyOf(balancers);
        this.active = settings.minNodes();
    }

    @Override
    public void onStart(Env env) {
        env.startTimer(TICK, settings.period(), TICK);
    }

    @Override
    public void on(ControlMessage message, Env env) {
        if (message instanceof ControlMessage.Feedback f) {
            fleet.update(f);
        } else if (message instanceof ControlMessage.Tick) {
            env.startTimer(TICK, settings.period(), TICK);
            check(env);
        }
    }

    private void check(Env env) {
        double sum = 0;
        int known = 0;
        for (int j = 0; j < active; j++) {
            LoadSnapshot s = fleet.load(j);
            if (s != null) {
                sum += s.cpu();
                known++;
            }
        }
        if (known == 0) {
            return;
        }
        int verdict = rule.check(sum / known, active);
        double now = env.now();
        if (verdict == ScalingRule.UP) {
            int node = active++;
            env.send(NodeId.of(node), new NodeMessage.Recover());
            for (BalancerId b : balancers) {
                env.send(b, new BalancerMessage.NodeJoined(node));
            }
            env.metrics().count(now, SCALE_UPS, 1);
        } else if (verdict == ScalingRule.DOWN) {
            int node = --active;
            for (BalancerId b : balancers) {
                env.send(b, new BalancerMessage.NodeLeaving(node));
            }
            env.metrics().count(now, SCALE_DOWNS, 1);
        }
    }

    /** Nodes active now. */
    public int active() {
        return active;
    }

    /** The hysteresis counters. */
    public ScalingRule rule() {
        return rule;
    }
}
