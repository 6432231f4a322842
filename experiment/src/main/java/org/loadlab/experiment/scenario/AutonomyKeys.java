package org.loadlab.experiment.scenario;

import java.util.ArrayList;
import java.util.List;
import org.loadlab.balancer.autoscale.AutoscalerSettings;
import org.loadlab.balancer.core.QosShedding;
import org.loadlab.balancer.guardrail.FailOpen;
import org.loadlab.balancer.lints.LinTsSettings;
import org.loadlab.balancer.policy.PolicyCatalog;
import org.loadlab.node.profile.NodeProfile;
import org.loadlab.node.protocol.Endpoints;

/**
 * Reads and checks the scenario keys of seed 003's autonomous balancer ({@link Autonomy}),
 * recording every problem with the key, the value and what is allowed.
 */
final class AutonomyKeys {
    private AutonomyKeys() {
    }

    /** Reads the keys of a merged scenario tree; defaults where a key is invalid (its problem is recorded). */
    static Autonomy read(ConfigReader r, int nodeCount) {
        double sla = r.positive("sla.latency", "seconds");
        ConfigReader nodes = r.at("nodes");
        String model = nodes.oneOf("model", List.of("queue", "profiles"));
        List<NodeProfile> profiles = new ArrayList<>();
        List<String> names = nodes.strings("profiles");
        String extra = nodes.string("extra-profile");
        boolean extraChecked = false; // every node past the list has the extra profile: one problem, not one per node
        for (int j = 0; j < nodeCount && model.equals("profiles"); j++) {
            String name = j < names.size() ? names.get(j) : extra;
            String key = j < names.size() ? "profiles[" + j + "]" : "extra-profile";
            NodeProfile p = NodeProfile.find(name).orElse(null);
            if (p == null) {
                if (j < names.size() || !extraChecked) {
                    nodes.badValue(key, "'" + name + "'", "one of " + NodeProfile.names());
                }
                p = NodeProfile.AUTOSCALED;
            }
            extraChecked |= j >= names.size();
            profiles.add(p);
        }
        ConfigReader ep = r.at("endpoints");
        double[] mix = new double[Endpoints.NAMES.size()];
        for (int i = 0; i < mix.length; i++) {
            mix[i] = ep.nonNegative(Endpoints.NAMES.get(i), "share of the requests");
        }
        ConfigReader sh = r.at("shedding");
        int beforeShedding = r.problems().size();
        boolean shed = sh.bool("enabled");
        double shedCpu = sh.between("cpu-above", 0, 1, "CPU share");
        String priority = sh.oneOf("priority", Endpoints.PRIORITY_NAMES);
        // A bad value is recorded above, with the other problems; the record would only throw it again, alone.
        QosShedding shedding = r.problems().size() > beforeShedding ? QosShedding.OFF
                : new QosShedding(shed, shedCpu, Math.max(0, Endpoints.PRIORITY_NAMES.indexOf(priority)));
        String fail = r.oneOf("guardrails.fail-open", List.of("panic", "least-connections"));
        FailOpen failOpen = fail.equals("least-connections") ? FailOpen.LEAST_CONNECTIONS : FailOpen.PANIC;
        double staleWeights = r.positive("guardrails.weights-stale-after", "seconds");
        LinTsSettings linTs = linTs(r.at("lin-ts"), sla);
        AutoscalerSettings autoscaler = autoscaler(r.at("autoscaler"));
        return new Autonomy(sla, model, List.copyOf(profiles), mix, shedding, failOpen, staleWeights, linTs, autoscaler);
    }

    private static LinTsSettings linTs(ConfigReader r, double sla) {
        int before = r.problems().size();
        double interval = r.positive("interval", "seconds");
        double exploration = r.nonNegative("exploration", "");
        double annealing = r.number("annealing");
        if (!(annealing > 0 && annealing <= 1)) {
            r.badValue("annealing", annealing, "a factor in (0, 1]");
        }
        double floor = r.nonNegative("exploration-floor", "");
        double temperature = r.positive("temperature", "");
        double errorWeight = r.nonNegative("error-weight", "");
        double slaWeight = r.nonNegative("sla-weight", "");
        double rewardFloor = r.number("reward-floor");
        if (!(rewardFloor <= 0)) {
            r.badValue("reward-floor", rewardFloor, "must be <= 0 (rewards are penalties)");
        }
        double feedback = r.positive("feedback-period", "seconds");
        if (r.problems().size() > before) {
            return LinTsSettings.DEFAULTS;
        }
        return new LinTsSettings(interval, sla, exploration, annealing, floor, temperature, errorWeight, slaWeight, rewardFloor,
                feedback);
    }

    private static AutoscalerSettings autoscaler(ConfigReader r) {
        int before = r.problems().size();
        boolean enabled = r.bool("enabled");
        double period = r.positive("period", "seconds");
        double up = r.between("scale-up-above", 0, 1, "CPU share");
        double down = r.between("scale-down-below", 0, 1, "CPU share");
        if (down >= up) {
            r.badValue("scale-down-below", down, "below scale-up-above = " + up);
        }
        int upChecks = (int) r.integer("up-checks", 1, 1_000_000);
        int downChecks = (int) r.integer("down-checks", 1, 1_000_000);
        double decay = r.nonNegative("decay", "counts per check");
        int min = (int) r.integer("min-nodes", 1, 1_000_000);
        int max = (int) r.integer("max-nodes", 1, 1_000_000);
        if (max < min) {
            r.badValue("max-nodes", max, ">= min-nodes = " + min);
        }
        if (r.problems().size() > before) {
            return AutoscalerSettings.OFF;
        }
        return new AutoscalerSettings(enabled, period, up, down, upChecks, downChecks, decay, min, max);
    }

    /** Checks across keys, once every key is valid on its own. */
    static void crossCheck(ConfigReader r, Autonomy a, List<String> policies, String model, int nodeCount,
                           boolean loadSharingOnly) {
        boolean reference = model.equals("reference");
        if (reference && (a.profileNodes() || a.endpoints() || a.shedding().enabled() || a.autoscaler().enabled())) {
            r.problem("model", "'reference' (the ASMF seed's time-stepped model) has no profile nodes, endpoints, shedding"
                    + " or autoscaler; use model = message");
        }
        if (loadSharingOnly && (a.shedding().enabled() || a.autoscaler().enabled())) {
            r.problem("policies", "shedding and the autoscaler act through the balancers; the load-sharing protocols have none");
        }
        if (a.shedding().enabled() && !a.endpoints()) {
            r.badValue("shedding.enabled", true, "shedding refuses low-priority endpoints: give the requests endpoints"
                    + " (endpoints { auth = 0.2, ..., logs = 0.1 })");
        }
        if (a.autoscaler().enabled()) {
            AutoscalerSettings s = a.autoscaler();
            if (nodeCount != s.maxNodes()) {
                r.badValue("nodes.count", nodeCount, "with the autoscaler on, the run holds autoscaler.max-nodes = "
                        + s.maxNodes() + " node slots (nodes min-nodes.. start stopped): set nodes.count = " + s.maxNodes());
            }
        }
        for (String p : policies) {
            if (PolicyCatalog.needsControlPlane(p) && Scenario.isLoadSharing(p)) {
                r.problem("policies", "'" + p + "' cannot be a load-sharing protocol");
            }
        }
    }
}
