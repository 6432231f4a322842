package org.loadlab.runtime.cli;

import org.loadlab.workload.scenario.ScenarioException;
import picocli.CommandLine;

/**
 * Turns failures into one clear message on stderr and an exit code: 2 for bad input
 * (a wrong flag, scenario key or file), 1 for a run that failed.
 */
final class CliErrors implements CommandLine.IExecutionExceptionHandler {

    @Override
    public int handleExecutionException(Exception e, CommandLine cli, CommandLine.ParseResult parsed) {
        if (e instanceof ScenarioException || e instanceof BadInputException) {
            cli.getErr().println("error: " + e.getMessage());
            return LoadLabCli.BAD_INPUT;
        }
        cli.getErr().println("error: " + e);
        Throwable cause = e.getCause();
        while (cause != null) {
            cli.getErr().println("  caused by: " + cause);
            cause = cause.getCause();
        }
        return 1;
    }

    static int onParameterError(CommandLine.ParameterException e, String[] args) {
        CommandLine cli = e.getCommandLine();
        cli.getErr().println("error: " + e.getMessage());
        cli.getErr().println("Try '" + cli.getCommandSpec().qualifiedName() + " --help' for the options.");
        return LoadLabCli.BAD_INPUT;
    }
}
