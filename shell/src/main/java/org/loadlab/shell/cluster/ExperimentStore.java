package org.loadlab.shell.cluster;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import com.typesafe.config.ConfigValueFactory;
import java.nio.file.Path;
import java.util.Map;

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

    /** Environment variable naming a PostgreSQL JDBC URL, e.g. jdbc:postgresql://127.0.0.1:5432/loadlab. */
    public static final String URL_ENV = "LOADLAB_JDBC_URL";

    /**
     * Persistence configuration of a gateway whose results go to {@code resultsDir}.
     *
     * @param resultsDir the gateway's results directory (the H2 file goes to {@code resultsDir/journal/})
     * @param env the process environment (for PostgreSQL settings)
     */
    public static Config config(Path resultsDir, Map<String, String> env) {
        String url = env.get(URL_ENV);
        Config db;
        if (url != null && !url.isBlank()) {
            db = ConfigFactory.empty()
                    .withValue("profile", ConfigValueFactory.fromAnyRef("slick.jdbc.PostgresProfile$"))
                    .withValue("db.url", ConfigValueFactory.fromAnyRef(url))
                    .withValue("db.user", ConfigValueFactory.fromAnyRef(env.getOrDefault("LOADLAB_JDBC_USER", "loadlab")))
                    .withValue("db.password", ConfigValueFactory.fromAnyRef(env.getOrDefault("LOADLAB_JDBC_PASSWORD", "")))
                    .withValue("db.driver", ConfigValueFactory.fromAnyRef("org.postgresql.Driver"));
        } else {
            // WRITE_DELAY=0: an event written right before a SIGKILL is on disk.
            String file = resultsDir.toAbsolutePath().resolve("journal").resolve("experiments").toString().replace('\\', '/');
            db = ConfigFactory.empty()
                    .withValue("profile", ConfigValueFactory.fromAnyRef("slick.jdbc.H2Profile$"))
                    .withValue("db.url", ConfigValueFactory.fromAnyRef("jdbc:h2:file:" + file + ";WRITE_DELAY=0;AUTO_SERVER=TRUE"))
                    .withValue("db.user", ConfigValueFactory.fromAnyRef("sa"))
                    .withValue("db.password", ConfigValueFactory.fromAnyRef(""))
                    .withValue("db.driver", ConfigValueFactory.fromAnyRef("org.h2.Driver"));
        }
        Config pool = ConfigFactory.parseString("""
                db { numThreads = 2, maxConnections = 2, minConnections = 1, connectionTimeout = 30000 }
                """);
        return ConfigFactory.parseString("""
                        pekko.persistence.journal.plugin = "jdbc-journal"
                        pekko.persistence.snapshot-store.plugin = "jdbc-snapshot-store"
                        jdbc-journal.use-shared-db = "experiments"
                        jdbc-snapshot-store.use-shared-db = "experiments"
                        jdbc-read-journal.use-shared-db = "experiments"
                        """)
                .withValue("pekko-persistence-jdbc.shared-databases.experiments", db.withFallback(pool).root());
    }

    /** Where the journal is, in words. */
    public static String describe(Path resultsDir, Map<String, String> env) {
        String url = env.get(URL_ENV);
        return url != null && !url.isBlank() ? "PostgreSQL " + url
                : "H2 file " + resultsDir.toAbsolutePath().resolve("journal").resolve("experiments.mv.db");
    }
}
