package org.loadlab.app.cli;

import java.io.PrintWriter;
import java.io.StringWriter;
import picocli.CommandLine;

/** Runs the LoadLab command line in-process and captures what it prints (tests only). */
final class CliCapture {
    private CliCapture() {
    }

    /**
     * Executes {@code args} as {@code loadlab args...}.
     *
     * @return exit code, stdout, stderr
     */
    static String[] run(String... args) {
        CommandLine cli = LoadLabCli.commandLine();
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        cli.setOut(new PrintWriter(out));
        cli.setErr(new PrintWriter(err));
        int code = cli.execute(args);
        return new String[] {String.valueOf(code), out.toString(), err.toString()};
    }
}
