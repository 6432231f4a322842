package org.loadlab.app.cli;

import org.loadlab.experiment.scenario.ScenarioException;
import picocli.CommandLine;

/**
 * Turns failures into one clear message on stderr and an exit code: 2 for bad input
 * (a wrong flag, scenario key or file), 1 for a run that failed.
 */
final class CliErrors implements CommandLine.IExecutionExceptionHandler {

    @Override
    public int handleExecutionException(Exception e, CommandLine cli, CommandLine.ParseResult parsed) {
        // An IllegalArgumentException a command throws itself is an argument it refused.
        boolean refused = e instanceof IllegalArgumentException && e.getCause() == null;
        if (e instanceof ScenarioException || e instanceof BadInputException || refused) {
            cli.getErr().println("error: " + e.getMessage());
            return LoadLabCli.BAD_INPUT;
        }
        if (rootCause(e) instanceof OutOfMemoryError) {
            cli.getErr().println("error: out of memory; give the JVM more heap, e.g. LOADLAB_JAVA_OPTS=\"-Xmx8g -XX:+UseParallelGC\","
                    + " or make the scenario smaller (nodes.count, series-interval, seeds)");
            return 1;
        }
        cli.getErr().println("error: " + e);
        Throwable cause = e.getCause();
        while (cause != null) {
            cli.getErr().println("  caused by: " + cause);
            cause = cause.getCause();
        }
        return 1;
    }

    private static Throwable rootCause(Throwable t) {
        while (t.getCause() != null && t.getCause() != t) {
            t = t.getCause();
        }
        return t;
    }

    static int onParameterError(CommandLine.ParameterException e, String[] args) {
        CommandLine cli = e.getCommandLine();
        cli.getErr().println("error: " + e.getMessage());
        cli.getErr().println("Try '" + cli.getCommandSpec().qualifiedName() + " --help' for the options.");
        return LoadLabCli.BAD_INPUT;
    }
}
