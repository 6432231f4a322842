package org.loadlab.app.cli;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
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

    /** What a command printed: its exit code, standard output ({@code System.out}) and picocli's error stream. */
    record Printed(int code, String out, String err) {
    }

    /**
     * Executes {@code args} as {@code loadlab args...}, capturing {@code System.out}, where
     * {@code simulate}, {@code plot}, {@code compare} and {@code campaign} print, and picocli's
     * own output stream (help). One call at a time: it swaps the global stream.
     *
     * @return exit code, what went to picocli's output and then to System.out, picocli's stderr
     */
    static synchronized Printed runCapturingSystemOut(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        PrintStream before = System.out;
        // Replaced before the command line is built: picocli's default execution strategy keeps the
        // System.out of that moment and, if it has changed by execute(), prints help there instead.
        System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
        try {
            CommandLine cli = LoadLabCli.commandLine();
            StringWriter help = new StringWriter();
            StringWriter err = new StringWriter();
            cli.setOut(new PrintWriter(help));
            cli.setErr(new PrintWriter(err));
            int code = cli.execute(args);
            return new Printed(code, help + out.toString(StandardCharsets.UTF_8), err.toString());
        } finally {
            System.setOut(before);
        }
    }
}
