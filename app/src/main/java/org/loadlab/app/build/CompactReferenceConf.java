package org.loadlab.app.build;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import com.typesafe.config.ConfigResolveOptions;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A build step (app/pom.xml runs it on the shaded jar after the shade plugin): drops the
 * comment lines and blank lines of the jar's {@code reference.conf}, the concatenation of every
 * library's defaults (Pekko, Kamon, Slick, ...; about 470 kB and 10,800 lines, four fifths
 * of them comments). Every command that starts an actor system parses all of it with
 * Typesafe Config, whose tokenizer walks the comments character by character and is then hot
 * enough for the JIT to compile at start; the compact text (about 100 kB) parses to the same
 * configuration (checked here, the build fails otherwise). Measured in docs/performance.md
 * ("Campaigns", "The start").
 *
 * <p>Only whole lines go: a line whose first non-blank characters are {@code #} or
 * {@code //}, or that is blank, outside a triple-quoted string. A comment after a value stays.
 */
public final class CompactReferenceConf {
    private static final String TRIPLE_QUOTE = "\"\"\"";

    private CompactReferenceConf() {
    }

    /**
     * Rewrites {@code reference.conf} inside the jar {@code args[0]}.
     *
     * @param args the jar's path
     * @throws IOException if the jar cannot be read or written
     * @throws IllegalStateException if the compact text would parse to a different configuration, or the jar has no
     *     reference.conf
     */
    public static void main(String[] args) throws IOException {
        try (FileSystem jar = FileSystems.newFileSystem(Path.of(args[0]))) {
            Path reference = jar.getPath("reference.conf");
            if (!Files.exists(reference)) {
                throw new IllegalStateException(args[0] + " has no reference.conf");
            }
            String text = Files.readString(reference, StandardCharsets.UTF_8);
            String compact = compact(text);
            if (!parsed(text).equals(parsed(compact))) {
                throw new IllegalStateException("the compact reference.conf of " + args[0] + " parses differently");
            }
            Files.writeString(reference, compact, StandardCharsets.UTF_8);
            System.out.printf("reference.conf: %,d -> %,d characters%n", text.length(), compact.length());
        }
    }

    /**
     * {@code text} without its whole-line comments and blank lines (outside triple-quoted strings).
     *
     * @param text HOCON text
     * @return the remaining lines, each ending in a newline
     */
    static String compact(String text) {
        StringBuilder out = new StringBuilder(text.length() / 4);
        boolean inTripleQuotes = false;
        for (String line : text.split("\n", -1)) {
            String trimmed = line.strip();
            boolean dropped = !inTripleQuotes && (trimmed.isEmpty() || trimmed.startsWith("#") || trimmed.startsWith("//"));
            if (!dropped) {
                out.append(line).append('\n');
            }
            if (countTripleQuotes(line) % 2 == 1) {
                inTripleQuotes = !inTripleQuotes;
            }
        }
        return out.toString();
    }

    private static int countTripleQuotes(String line) {
        int n = 0;
        for (int i = line.indexOf(TRIPLE_QUOTE); i >= 0; i = line.indexOf(TRIPLE_QUOTE, i + TRIPLE_QUOTE.length())) {
            n++;
        }
        return n;
    }

    private static Config parsed(String text) {
        return ConfigFactory.parseString(text).resolve(ConfigResolveOptions.defaults().setAllowUnresolved(true));
    }
}
