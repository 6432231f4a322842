package org.loadlab.shell.persistence;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import com.typesafe.config.ConfigValueFactory;
import java.nio.file.Path;
import java.util.Map;

/**
 * A Pekko Persistence journal on pekko-persistence-jdbc, as Pekko configuration: an
 * embedded H2 file database {@code <dir>/journal/<name>.mv.db} by default (zero setup), or
 * PostgreSQL when {@code LOADLAB_JDBC_URL} (and {@code LOADLAB_JDBC_USER},
 * {@code LOADLAB_JDBC_PASSWORD}) name one. The journal, snapshot store and read journal
 * share one database named {@code name}; tables are created at start if missing. Campaigns
 * ({@code CampaignStore}), the cluster's experiments ({@code ExperimentStore}) and the
 * gateway's LinTS posteriors use it.
 */
public final class JdbcJournal {
    private JdbcJournal() {
    }

    /** Environment variable naming a PostgreSQL JDBC URL, e.g. jdbc:postgresql://127.0.0.1:5432/loadlab. */
    public static final String URL_ENV = "LOADLAB_JDBC_URL";

    /**
     * The persistence configuration of the journal {@code name} under {@code dir}.
     *
     * @param dir where the H2 file goes ({@code dir/journal/name.mv.db})
     * @param name the database's name (also the H2 file's)
     * @param env the process environment (for PostgreSQL settings)
     */
    public static Config config(Path dir, String name, Map<String, String> env) {
        String url = env.get(URL_ENV);
        Config db;
        if (usesPostgres(env)) {
            db = ConfigFactory.empty()
                    .withValue("profile", ConfigValueFactory.fromAnyRef("slick.jdbc.PostgresProfile$"))
                    .withValue("db.url", ConfigValueFactory.fromAnyRef(url))
                    .withValue("db.user", ConfigValueFactory.fromAnyRef(env.getOrDefault("LOADLAB_JDBC_USER", "loadlab")))
                    .withValue("db.password", ConfigValueFactory.fromAnyRef(env.getOrDefault("LOADLAB_JDBC_PASSWORD", "")))
                    .withValue("db.driver", ConfigValueFactory.fromAnyRef("org.postgresql.Driver"));
        } else {
            // WRITE_DELAY=0: an event written right before a SIGKILL is on disk.
            String file = dir.toAbsolutePath().resolve("journal").resolve(name).toString().replace('\\', '/');
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
        return ConfigFactory.parseString(String.format("""
                        pekko.persistence.journal.plugin = "jdbc-journal"
                        pekko.persistence.snapshot-store.plugin = "jdbc-snapshot-store"
                        jdbc-journal.use-shared-db = "%1$s"
                        jdbc-snapshot-store.use-shared-db = "%1$s"
                        jdbc-read-journal.use-shared-db = "%1$s"
                        """, name))
                .withValue("pekko-persistence-jdbc.shared-databases." + name, db.withFallback(pool).root());
    }

    /** True if {@code env} names a PostgreSQL journal ({@value #URL_ENV} set and not blank). */
    public static boolean usesPostgres(Map<String, String> env) {
        String url = env.get(URL_ENV);
        return url != null && !url.isBlank();
    }

    /** The H2 file of journal {@code name} under {@code dir}. */
    public static Path h2File(Path dir, String name) {
        return dir.toAbsolutePath().resolve("journal").resolve(name + ".mv.db");
    }

    /** Where the journal is, in words: "PostgreSQL URL" or "H2 file PATH". */
    public static String describe(Path dir, String name, Map<String, String> env) {
        return usesPostgres(env) ? "PostgreSQL " + env.get(URL_ENV) : "H2 file " + h2File(dir, name);
    }
}
