package org.loadlab.app.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.loadlab.experiment.scenario.ScenarioException;
import picocli.CommandLine;

/**
 * Turns failures into one clear message on stderr and an exit code: 2 for bad input
 * (a wrong flag, scenario key or file), 1 for a run that failed. A Java exception's class
 * name never reaches the user: file-system errors are said in words ("permission denied:
 * /path"), and an unexpected failure prints its message and where its stack trace was
 * saved for a bug report.
 */
final class CliErrors implements CommandLine.IExecutionExceptionHandler {

    /** Set once the JVM is shutting down (Ctrl-C): failures of the interrupted work are not news then. */
    static volatile boolean interrupted;

    /**
     * Marks the process as interrupted and silences logging: while the JVM shuts down, the
     * libraries still at work (the journal, Pekko) log the failures of being stopped, which
     * say nothing to the user.
     */
    static void interrupted() {
        interrupted = true;
        org.slf4j.ILoggerFactory factory = org.slf4j.LoggerFactory.getILoggerFactory();
        if (factory instanceof ch.qos.logback.classic.LoggerContext context) {
            context.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME).setLevel(ch.qos.logback.classic.Level.OFF);
        }
    }

    @Override
    public int handleExecutionException(Exception e, CommandLine cli, CommandLine.ParseResult parsed) {
        if (interrupted) {
            return 130; // the shutdown hook has said what was kept; the work's own failure is its consequence
        }
        // An IllegalArgumentException a command throws itself is an argument it refused.
        boolean refused = e instanceof IllegalArgumentException && e.getCause() == null;
        if (e instanceof ScenarioException || e instanceof BadInputException || refused) {
            cli.getErr().println("error: " + e.getMessage());
            return LoadLabCli.BAD_INPUT;
        }
        if (e instanceof CommandFailedException) {
            cli.getErr().println("error: " + e.getMessage());
            return 1;
        }
        if (rootCause(e) instanceof OutOfMemoryError) {
            cli.getErr().println("error: out of memory; give the JVM more heap, e.g. LOADLAB_JAVA_OPTS=\"-Xmx8g -XX:+UseParallelGC\","
                    + " or make the scenario smaller (nodes.count, series-interval, seeds)");
            return 1;
        }
        Throwable io = firstOf(e, IOException.class);
        if (io != null) {
            cli.getErr().println("error: " + describe((IOException) io));
            return 1;
        }
        cli.getErr().println("error: " + message(e));
        Path trace = saveStackTrace(e);
        cli.getErr().println(trace != null
                ? "  (an unexpected failure: its details are in " + trace + "; please include that file in a bug report)"
                : "  (an unexpected failure)");
        return 1;
    }

    /** The failure in words: file-system errors name the file and the reason, others give their message. */
    static String describe(IOException e) {
        String file = e instanceof FileSystemException f && f.getFile() != null ? f.getFile() : null;
        if (e instanceof AccessDeniedException) {
            return "permission denied: " + file;
        }
        if (e instanceof NoSuchFileException) {
            return "no such file or directory: " + file;
        }
        if (e instanceof NotDirectoryException) {
            return "not a directory: " + file;
        }
        if (e instanceof FileAlreadyExistsException) {
            return "already exists: " + file;
        }
        if (e instanceof FileSystemException f) {
            return (file != null ? file + ": " : "") + (f.getReason() != null ? f.getReason() : "file-system error");
        }
        return e.getMessage() != null ? e.getMessage() : "input/output error";
    }

    /** The most telling message in a cause chain: the outermost one that is not just a wrapped exception's toString. */
    static String message(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            String m = t.getMessage();
            if (m != null && !m.isBlank() && (t.getCause() == null || !m.equals(String.valueOf(t.getCause())))) {
                return stripClassNames(m);
            }
        }
        return "something went wrong";
    }

    /** Removes "java.lang.IllegalStateException: " style prefixes that wrapped messages carry along. */
    static String stripClassNames(String m) {
        return m.replaceAll("\\b(?:[a-z][a-z0-9_]*\\.)+[A-Z][A-Za-z0-9_$]*(?:Exception|Error): ", "");
    }

    private static Throwable firstOf(Throwable e, Class<? extends Throwable> type) {
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (type.isInstance(t)) {
                return t;
            }
        }
        return null;
    }

    private static Throwable rootCause(Throwable t) {
        while (t.getCause() != null && t.getCause() != t) {
            t = t.getCause();
        }
        return t;
    }

    private static Path saveStackTrace(Throwable e) {
        try {
            Path f = Files.createTempFile("loadlab-error-", ".txt");
            StringWriter w = new StringWriter();
            e.printStackTrace(new PrintWriter(w));
            Files.writeString(f, w.toString());
            return f;
        } catch (IOException | RuntimeException ignored) {
            return null;
        }
    }

    /**
     * A wrong flag or argument: the message, the nearest valid name for a mistyped option
     * or command, and where the options are listed.
     */
    static int onParameterError(CommandLine.ParameterException e, String[] args) {
        CommandLine cli = e.getCommandLine();
        CommandLine.Model.CommandSpec spec = cli.getCommandSpec();
        List<String> unknown = new ArrayList<>();
        if (e instanceof CommandLine.UnmatchedArgumentException u && !u.getUnmatched().isEmpty()) {
            unknown.add(u.getUnmatched().get(0)); // what follows it is usually its value
        }
        // picocli names a missing required option first; a mistyped one is the likelier cause.
        for (String a : args) {
            String name = a.contains("=") ? a.substring(0, a.indexOf('=')) : a;
            if (name.startsWith("-") && spec.findOption(name) == null && !unknown.contains(name)
                    && !(e instanceof CommandLine.UnmatchedArgumentException) && isOptionPosition(args, a, spec)) {
                unknown.add(name);
            }
        }
        if (unknown.isEmpty()) {
            cli.getErr().println("error: " + lowerFirst(e.getMessage()));
        }
        for (String u : unknown.subList(0, Math.min(1, unknown.size()))) {
            boolean option = u.startsWith("-");
            List<String> names = new ArrayList<>();
            // Hidden options and commands are plumbing (e.g. the JVMs cluster-bench starts): never offered.
            if (option) {
                spec.options().stream().filter(o -> !o.hidden()).forEach(o -> names.addAll(List.of(o.names())));
            } else {
                spec.subcommands().forEach((name, sub) -> {
                    if (!sub.getCommandSpec().usageMessage().hidden()) {
                        names.add(name);
                    }
                });
            }
            String nearest = nearest(u, names);
            String kind = option ? "option" : spec.subcommands().isEmpty() ? "argument" : "command";
            cli.getErr().println("error: unknown " + kind + " '" + u + "'"
                    + (nearest != null ? "; did you mean " + nearest + "?" : "")
                    + (!option && !spec.subcommands().isEmpty() ? " (commands: " + String.join(", ", visible(spec)) + ")" : ""));
        }
        cli.getErr().println("Try '" + spec.qualifiedName() + " --help' for the options.");
        return LoadLabCli.BAD_INPUT;
    }

    /**
     * picocli's own messages start with a capital ("Missing required parameter: 'FILE'",
     * "Invalid value for option ..."); after "error: " LoadLab's start in lower case, so the
     * first word of such a message is lowered. A message starting with a name or a quote is
     * left as it is.
     */
    static String lowerFirst(String m) {
        if (m != null && m.length() > 1 && Character.isUpperCase(m.charAt(0)) && Character.isLowerCase(m.charAt(1))) {
            return Character.toLowerCase(m.charAt(0)) + m.substring(1);
        }
        return m;
    }

    /** True unless {@code a} is the value of the option before it (e.g. {@code --set -x}). */
    private static boolean isOptionPosition(String[] args, String a, CommandLine.Model.CommandSpec spec) {
        for (int i = 1; i < args.length; i++) {
            if (args[i] == a) { // identity: this occurrence
                CommandLine.Model.OptionSpec before = spec.findOption(args[i - 1]);
                return before == null || before.arity().max() == 0;
            }
        }
        return true;
    }

    /** The commands {@code --help} lists: no aliases, no {@code help}, no hidden ones. */
    private static List<String> visible(CommandLine.Model.CommandSpec spec) {
        List<String> out = new ArrayList<>();
        spec.subcommands().forEach((name, sub) -> {
            if (!name.equals("help") && sub.getCommandSpec().name().equals(name) && !sub.getCommandSpec().usageMessage().hidden()) {
                out.add(name);
            }
        });
        return out;
    }

    /** The valid name closest to {@code typed} (edit distance at most a third of its length, at least 2), or null. */
    static String nearest(String typed, List<String> names) {
        String best = null;
        int bestDistance = Integer.MAX_VALUE;
        for (String n : names) {
            int d = distance(typed.toLowerCase(java.util.Locale.ROOT), n.toLowerCase(java.util.Locale.ROOT));
            if (n.startsWith(typed) && typed.length() >= 3) {
                d = Math.min(d, 1);
            }
            if (d < bestDistance) {
                bestDistance = d;
                best = n;
            }
        }
        return bestDistance <= Math.max(2, typed.length() / 3) ? best : null;
    }

    /** Levenshtein distance. */
    static int distance(String a, String b) {
        int[] prev = new int[b.length() + 1];
        int[] cur = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            prev[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            cur[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                cur[j] = Math.min(Math.min(cur[j - 1] + 1, prev[j] + 1), prev[j - 1] + cost);
            }
            int[] t = prev;
            prev = cur;
            cur = t;
        }
        return prev[b.length()];
    }
}
