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

    /**
     * What a command printed.
     *
     * @param code its exit code
     * @param out picocli's output stream (help) and then {@code System.out}
     * @param err picocli's error stream (the refusals and failures)
     * @param systemErr {@code System.err} (warnings, progress) if it was captured
     *        ({@link #runCapturingSystemOutAndErr}), else empty
     */
    record Printed(int code, String out, String err, String systemErr) {
    }

    /**
     * Executes {@code args} as {@code loadlab args...}, capturing {@code System.out}, where
     * {@code simulate}, {@code plot}, {@code compare} and {@code campaign} print, and picocli's
     * own output stream (help). One call at a time: it swaps the global stream.
     *
     * @return exit code, what went to picocli's output and then to System.out, picocli's stderr
     */
    static synchronized Printed runCapturingSystemOut(String... args) {
        return capture(false, args);
    }

    /**
     * As {@link #runCapturingSystemOut}, and captures {@code System.err} too (where commands
     * print warnings and progress), which then does not reach the test's log.
     *
     * @return exit code, picocli's output and System.out, picocli's stderr, System.err
     */
    static synchronized Printed runCapturingSystemOutAndErr(String... args) {
        return capture(true, args);
    }

    private static Printed capture(boolean systemErrToo, String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream systemErr = new ByteArrayOutputStream();
        PrintStream outBefore = System.out;
        PrintStream errBefore = System.err;
        // Replaced before the command line is built: picocli's default execution strategy keeps the
        // System.out of that moment and, if it has changed by execute(), prints help there instead.
        System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
        if (systemErrToo) {
            System.setErr(new PrintStream(systemErr, true, StandardCharsets.UTF_8));
        }
        try {
            CommandLine cli = LoadLabCli.commandLine();
            StringWriter help = new StringWriter();
            StringWriter err = new StringWriter();
            cli.setOut(new PrintWriter(help));
            cli.setErr(new PrintWriter(err));
            int code = cli.execute(args);
            return new Printed(code, help + out.toString(StandardCharsets.UTF_8), err.toString(),
                    systemErr.toString(StandardCharsets.UTF_8));
        } finally {
            System.setOut(outBefore);
            System.setErr(errBefore);
        }
    }
}
