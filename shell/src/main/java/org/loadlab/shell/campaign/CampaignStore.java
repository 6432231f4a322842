package org.loadlab.shell.campaign;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import com.typesafe.config.ConfigValueFactory;
import java.nio.file.Path;
import java.util.Map;

/**
 * Where campaign journals live, as Pekko configuration for pekko-persistence-jdbc:
 * an embedded H2 file database under the campaign's output directory by default (zero
 * setup), or PostgreSQL when {@code LOADLAB_JDBC_URL} (and {@code LOADLAB_JDBC_USER},
 * {@code LOADLAB_JDBC_PASSWORD}) name one. Tables are created at start if missing.
 */
public final class CampaignStore {
    private CampaignStore() {
    }

    /** Environment variable naming a PostgreSQL JDBC URL, e.g. jdbc:postgresql://127.0.0.1:5432/loadlab. */
    public static final String URL_ENV = "LOADLAB_JDBC_URL";

    /**
     * Pekko configuration for a campaign whose output directory is {@code dir}.
     *
     * @param dir campaign output directory (the H2 file goes to {@code dir/journal/})
     * @param env the process environment (for PostgreSQL settings)
     */
    public static Config config(Path dir, Map<String, String> env) {
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
            // WRITE_DELAY=0: a stored run must survive a SIGKILL right after its event is written.
            String file = dir.toAbsolutePath().resolve("journal").resolve("campaign").toString().replace('\\', '/');
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
                        jdbc-journal.use-shared-db = "campaign"
                        jdbc-snapshot-store.use-shared-db = "campaign"
                        jdbc-read-journal.use-shared-db = "campaign"
                        """)
                .withValue("pekko-persistence-jdbc.shared-databases.campaign", db.withFallback(pool).root());
    }

    /**
     * True if campaign {@code dir} certainly has nothing stored yet: the embedded H2 journal
     * file does not exist. With PostgreSQL the journal may hold the campaign, so false.
     *
     * @param dir campaign output directory
     * @param env the process environment
     */
    public static boolean isFresh(Path dir, Map<String, String> env) {
        String url = env.get(URL_ENV);
        return (url == null || url.isBlank()) && !java.nio.file.Files.exists(dir.resolve("journal").resolve("campaign.mv.db"));
    }

    /** A human description of where the journal is. */
    public static String describe(Path dir, Map<String, String> env) {
        String url = env.get(URL_ENV);
        return url != null && !url.isBlank() ? "PostgreSQL " + url : "H2 file " + dir.resolve("journal").resolve("campaign.mv.db");
    }
}
