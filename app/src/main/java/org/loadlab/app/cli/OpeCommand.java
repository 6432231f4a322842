package org.loadlab.app.cli;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.loadlab.analysis.ope.OffPolicyEstimate;
import org.loadlab.experiment.ope.DecisionLogFile;
import org.loadlab.experiment.ope.OffPolicyEvaluation;
import org.loadlab.experiment.ope.TargetPolicies;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code loadlab ope LOG... --policy NAME}: estimates how policy NAME would have done on the
 * decisions logged by {@code simulate --decision-log}, with IPS and SNIPS and their 95 %
 * intervals, per log and over all of them.
 */
@Command(name = "ope", mixinStandardHelpOptions = true,
        description = "Off-policy evaluation: estimate another policy's value on a decision log (IPS and SNIPS, 95%% intervals).")
final class OpeCommand implements Callable<Integer> {
    @Parameters(arity = "1..*", paramLabel = "LOG", description = "Decision logs (CSV) written by simulate --decision-log.")
    private List<Path> logs;

    @Option(names = "--policy", required = true, paramLabel = "NAME",
            description = "Target policy: random, round-robin (as its stateless uniform shares), p2c, least-connections.")
    private String policy;

    @Option(names = "--reward", defaultValue = "sla", paramLabel = "sla|latency",
            description = "sla: 1 if served within --sla seconds, else 0 (default); latency: minus the response time (s).")
    private String reward;

    @Option(names = "--sla", defaultValue = "0.2", paramLabel = "SECONDS", description = "SLA latency for --reward sla (default 0.2).")
    private double sla;

    @picocli.CommandLine.Spec
    private picocli.CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws java.io.IOException {
        if (!TargetPolicies.NAMES.contains(policy)) {
            throw new BadInputException("--policy = '" + policy + "': allowed " + String.join(", ", TargetPolicies.NAMES));
        }
        if (!OffPolicyEvaluation.REWARDS.contains(reward)) {
            throw new BadInputException("--reward = '" + reward + "': allowed " + String.join(", ", OffPolicyEvaluation.REWARDS));
        }
        if (!(sla > 0)) {
            throw new BadInputException("--sla = " + sla + ": allowed > 0 seconds");
        }
        if (!reward.equals("sla") && spec.commandLine().getParseResult().hasMatchedOption("--sla")) {
            // it was ignored: the latency reward has no threshold
            throw new BadInputException("--sla = " + sla + ": only --reward sla reads it (--reward " + reward
                    + " is minus the response time, with no threshold); leave --sla out or give --reward sla");
        }
        List<List<DecisionLogFile.Entry>> all = new ArrayList<>();
        java.util.Map<Path, Path> seen = new java.util.HashMap<>();
        for (Path log : logs) {
            if (Files.isDirectory(log)) {
                throw new BadInputException("LOG = " + log + ": is a directory; ope takes decision-log files (decisions-*.csv),"
                        + " e.g. " + log.resolve("decisions-p2c-101.csv") + " or " + log + "/decisions-*.csv");
            }
            if (!Files.isRegularFile(log)) {
                throw new BadInputException("LOG = " + log + ": no such file (write one with simulate --decision-log DIR)");
            }
            // the same file twice would count each of its decisions twice in "all logs" (narrower intervals for nothing)
            Path earlier = seen.putIfAbsent(log.toRealPath(), log);
            if (earlier != null) {
                throw new BadInputException("LOG = " + log + ": is given twice (also as " + earlier + "); give each log once");
            }
            try {
                all.add(DecisionLogFile.read(log));
            } catch (IllegalArgumentException e) {
                throw new BadInputException("LOG = " + e.getMessage());
            } catch (java.io.UncheckedIOException e) {
                // e.g. a file without read permission: one line naming it, exit code 2, as for a malformed log
                throw new BadInputException("LOG = " + log + ": " + e.getMessage());
            }
        }
        System.out.printf(Locale.ROOT, "Off-policy estimate of %s (reward %s%s); 95%% intervals: IPS normal, SNIPS bootstrap%n",
                policy, reward, reward.equals("sla") ? " = served within " + sla + " s" : " = -response time (s)");
        System.out.printf(Locale.ROOT, "%-40s %8s %8s %10s %22s %10s %22s %10s %8s%n", "log", "used", "skipped", "logged",
                "IPS [95% CI]", "", "SNIPS [95% CI]", "", "ESS");
        List<DecisionLogFile.Entry> pooled = new ArrayList<>();
        for (int i = 0; i < logs.size(); i++) {
            pooled.addAll(all.get(i));
            print(logs.get(i).getFileName().toString(), all.get(i));
        }
        if (logs.size() > 1) {
            print("all logs", pooled);
        }
        return 0;
    }

    private void print(String name, List<DecisionLogFile.Entry> log) {
        OffPolicyEvaluation.Result r;
        try {
            r = OffPolicyEvaluation.evaluate(log, policy, reward, sla);
        } catch (IllegalArgumentException e) {
            throw new BadInputException("LOG = " + name + ": " + e.getMessage());
        }
        OffPolicyEstimate e = r.estimate();
        System.out.printf(Locale.ROOT, "%-40s %8d %8d %10.4f %10.4f [%.4f, %.4f] %10.4f [%.4f, %.4f] %8.1f%n", name, e.n(),
                r.skipped(), e.loggedValue(), e.ips(), e.ipsLow(), e.ipsHigh(), e.snips(), e.snipsLow(), e.snipsHigh(),
                e.effectiveSampleSize());
    }
}
