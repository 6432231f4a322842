package org.loadlab.experiment.scenario;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigException;
import com.typesafe.config.ConfigFactory;
import com.typesafe.config.ConfigIncludeContext;
import com.typesafe.config.ConfigIncluder;
import com.typesafe.config.ConfigIncluderClasspath;
import com.typesafe.config.ConfigIncluderFile;
import com.typesafe.config.ConfigIncluderURL;
import com.typesafe.config.ConfigObject;
import com.typesafe.config.ConfigOriginFactory;
import com.typesafe.config.ConfigParseable;
import com.typesafe.config.ConfigParseOptions;
import java.io.File;
import java.net.URL;
import java.nio.file.Path;

/**
 * Parse options for scenario and campaign files under which every {@code include} must be
 * found and must parse.
 *
 * <p>HOCON treats a plain {@code include "x.conf"} as optional: Typesafe Config drops it
 * silently when the file is missing, and a file given without a directory ({@code my.conf}
 * in the current directory) never found any of its includes, so even a broken one was
 * skipped without a word. A scenario that silently loses half its keys runs the defaults
 * instead, which is never what its author meant (the guide's bad-input rule: a wrong
 * scenario is refused before any work starts). Under these options a missing include fails
 * with a {@link ConfigException.IO} naming it, and an unparsable one with the parse error of
 * that file and line. Includes are resolved as Typesafe Config resolves them: relative to the
 * including file (or classpath resource, for the
 * built-in scenarios).
 */
public final class StrictIncludes {
    private StrictIncludes() {
    }

    /**
     * Typesafe Config's default parse options with missing files refused, at the top level
     * and in every include.
     *
     * @return the options to parse a scenario or campaign file (or resource) with
     */
    public static ConfigParseOptions options() {
        return ConfigParseOptions.defaults().setAllowMissing(false).setIncluder(new Includer(null));
    }

    /**
     * Parses a scenario or campaign file with {@link #options()}.
     *
     * <p>The file is parsed by its absolute path: Typesafe Config resolves an include
     * relative to the including file's parent directory, and a path without one
     * ({@code my.conf} in the current directory) has none, so its includes were never found.
     *
     * @param file the file, absolute or relative to the current directory
     * @return the parsed file, includes merged in, not resolved
     * @throws ConfigException if the file or one of its includes is missing, unreadable or does not parse
     */
    public static Config parseFile(Path file) {
        return ConfigFactory.parseFile(file.toAbsolutePath().toFile(), options());
    }

    /**
     * Typesafe Config's own includer (its file, classpath and URL rules, the {@code .conf} /
     * {@code .json} / {@code .properties} guesses for a name without extension), called with
     * "missing allowed" off for every include, nested ones too.
     */
    private static final class Includer implements ConfigIncluder, ConfigIncluderFile, ConfigIncluderURL,
            ConfigIncluderClasspath {
        private final ConfigIncluder fallback;

        Includer(ConfigIncluder fallback) {
            this.fallback = fallback;
        }

        @Override
        public ConfigIncluder withFallback(ConfigIncluder fallback) {
            return this.fallback == null ? new Includer(fallback) : this;
        }

        @Override
        public ConfigObject include(ConfigIncludeContext context, String what) {
            try {
                return fallback().include(strict(context), what);
            } catch (ConfigException.IO e) {
                throw notFound(context, what, e);
            }
        }

        /**
         * Typesafe Config reports a plain include it found neither as a file nor as a
         * resource by its last guess ("resource not found on classpath"), which misleads
         * for a file; say that the file is missing instead.
         */
        private static ConfigException notFound(ConfigIncludeContext context, String what, ConfigException.IO e) {
            ConfigParseable meant = context.relativeTo(what);
            if (meant != null && meant.origin() != null && meant.origin().filename() != null) {
                return e; // the file exists but cannot be read: Typesafe Config's message says why
            }
            return new ConfigException.IO(ConfigOriginFactory.newSimple("include \"" + what + "\""),
                    "no such file (an include is read relative to the file that includes it, and must exist)", e);
        }

        @Override
        public ConfigObject includeFile(ConfigIncludeContext context, File file) {
            return ((ConfigIncluderFile) fallback()).includeFile(strict(context), file);
        }

        @Override
        public ConfigObject includeURL(ConfigIncludeContext context, URL url) {
            return ((ConfigIncluderURL) fallback()).includeURL(strict(context), url);
        }

        @Override
        public ConfigObject includeResources(ConfigIncludeContext context, String resource) {
            return ((ConfigIncluderClasspath) fallback()).includeResources(strict(context), resource);
        }

        private ConfigIncluder fallback() {
            if (fallback == null) {
                throw new IllegalStateException("Typesafe Config did not hand its default includer to the strict one");
            }
            return fallback;
        }

        private static ConfigIncludeContext strict(ConfigIncludeContext context) {
            // a plain include's context carries "missing allowed"; the includer (this) is kept
            return context.setParseOptions(context.parseOptions().setAllowMissing(false));
        }
    }
}
