package org.loadlab.app.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * Entry point of the {@code loadlab} executable: a picocli command with one subcommand
 * per job. Exit codes: 0 success, 1 a run failed, 2 bad input (usage, scenario or flag).
 */
@Command(name = "loadlab", mixinStandardHelpOptions = true, version = "LoadLab 0.1.0",
        description = "Study and run load-balancing algorithms: deterministic simulation and live Pekko actors.",
        subcommands = {SimulateCommand.class, ScenariosCommand.class, PoliciesCommand.class, ValidateCommand.class,
                BenchCommand.class, CampaignCommand.class, ReportCommand.class, PlotCommand.class, CompareCommand.class, TuneCommand.class, org.loadlab.app.cli.ClusterCommand.class,
                org.loadlab.app.cli.LocalClusterCommand.class, ClusterBenchCommand.class, MessagingBaselineCommand.class,
                org.loadlab.app.cli.StickyLazyCheck.class, StudyCommand.class, OpeCommand.class, GatewayCommand.class, LoadGenCommand.class, LinTsBenchCommand.class,
                CommandLine.HelpCommand.class})
public final class LoadLabCli implements java.util.concurrent.Callable<Integer> {
    /** Exit code for bad input (usage, scenario or flag). */
    public static final int BAD_INPUT = 2;

    @CommandLine.Spec
    private CommandLine.Model.CommandSpec spec;

    /**
     * Without a subcommand: prints the usage to stderr and exits with {@link #BAD_INPUT}, so
     * that a script calling {@code loadlab} with nothing to do fails visibly.
     */
    @Override
    public Integer call() {
        spec.commandLine().usage(spec.commandLine().getErr());
        spec.commandLine().getErr().println();
        spec.commandLine().getErr().println("error: name a command, e.g. `loadlab simulate --scenario quickstart`");
        return BAD_INPUT;
    }

    /** Builds the command line with LoadLab's error handling. */
    public static CommandLine commandLine() {
        CommandLine cli = new CommandLine(new LoadLabCli());
        cli.setExecutionExceptionHandler(new CliErrors());
        cli.setParameterExceptionHandler(CliErrors::onParameterError);
        return cli;
    }

    /**
     * Runs the CLI.
     *
     * @param args command-line arguments
     */
    public static void main(String[] args) {
        // Initialise logging before any library logs from another thread (else SLF4J warns
        // on stderr that it replayed early calls).
        // SLF4J 2 reports at INFO which provider it connected to; a user has no use for that line.
        if (System.getProperty("slf4j.internal.verbosity") == null) {
            System.setProperty("slf4j.internal.verbosity", "WARN");
        }
        org.slf4j.LoggerFactory.getILoggerFactory();
        System.exit(commandLine().execute(args));
    }
}
