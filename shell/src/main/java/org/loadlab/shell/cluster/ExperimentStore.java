package org.loadlab.shell.cluster;

import com.typesafe.config.Config;
import java.nio.file.Path;
import java.util.Map;
import org.loadlab.shell.persistence.JdbcJournal;

/**
 * Where the gateway journals its experiments ({@link ExperimentEntity}), as Pekko
 * configuration for pekko-persistence-jdbc: an embedded H2 file database under the
 * results directory ({@code <results-dir>/journal/experiments.mv.db}) by default, or
 * PostgreSQL when {@code LOADLAB_JDBC_URL} (and {@code LOADLAB_JDBC_USER},
 * {@code LOADLAB_JDBC_PASSWORD}) name one, as for campaigns (docker-compose sets them).
 * The gateway creates the tables at start if they are missing.
 */
public final class ExperimentStore {
    private ExperimentStore() {
    }

    /**
     * Persistence configuration of a gateway whose results go to {@code resultsDir}.
     *
     * @param resultsDir the gateway's results directory (the H2 file goes to {@code resultsDir/journal/})
     * @param env the process environment (for PostgreSQL settings)
     */
    public static Config config(Path resultsDir, Map<String, String> env) {
        // Written during the JVM's exit: a gateway stopped by SIGTERM journals its experiments' ends then.
        return JdbcJournal.config(resultsDir, "experiments", env, true);
    }

    /** Where the journal is, in words. */
    public static String describe(Path resultsDir, Map<String, String> env) {
        return JdbcJournal.describe(resultsDir, "experiments", env);
    }
}
