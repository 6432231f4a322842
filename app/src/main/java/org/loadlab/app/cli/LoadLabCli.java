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
                BenchCommand.class, CampaignCommand.class, ReportCommand.class, TuneCommand.class, org.loadlab.app.cli.ClusterCommand.class,
                org.loadlab.app.cli.LocalClusterCommand.class, org.loadlab.app.cli.StickyLazyCheck.class, StudyCommand.class,
                CommandLine.HelpCommand.class})
public final class LoadLabCli implements Runnable {
    /** Exit code for bad input (usage, scenario or flag). */
    public static final int BAD_INPUT = 2;

    @CommandLine.Spec
    private CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(System.out);
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
        org.slf4j.LoggerFactory.getILoggerFactory();
        System.exit(commandLine().execute(args));
    }
}
