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
     * {@code simulate}, {@code plot} and {@code compare} print (one call at a time: it swaps
     * the global stream).
     *
     * @return exit code, what went to System.out, picocli's stderr
     */
    static synchronized Printed runCapturingSystemOut(String... args) {
        CommandLine cli = LoadLabCli.commandLine();
        StringWriter err = new StringWriter();
        cli.setErr(new PrintWriter(err));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        PrintStream before = System.out;
        System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
        try {
            int code = cli.execute(args);
            return new Printed(code, out.toString(StandardCharsets.UTF_8), err.toString());
        } finally {
            System.setOut(before);
        }
    }
}
