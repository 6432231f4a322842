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
        return config(dir, name, env, false);
    }

    /**
     * The persistence configuration of the journal {@code name} under {@code dir}.
     *
     * @param dir where the H2 file goes ({@code dir/journal/name.mv.db})
     * @param name the database's name (also the H2 file's)
     * @param env the process environment (for PostgreSQL settings)
     * @param writesDuringJvmExit true if events are still written while the JVM exits (the cluster gateway journals its
     *     experiments' ends during CoordinatedShutdown, which SIGTERM runs in a JVM shutdown hook): the H2 file is then
     *     not closed by H2's own shutdown hook, which runs at the same time and made those writes fail with "Database is
     *     already closed"; each commit is on disk anyway (WRITE_DELAY=0). H2 refuses that together with AUTO_SERVER, so
     *     such a journal is this process's alone: another process opening the file while it runs is refused (H2's file
     *     lock), which also keeps two gateways from writing one journal
     */
    public static Config config(Path dir, String name, Map<String, String> env, boolean writesDuringJvmExit) {
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
            db = ConfigFactory.empty()
                    .withValue("profile", ConfigValueFactory.fromAnyRef("slick.jdbc.H2Profile$"))
                    .withValue("db.url", ConfigValueFactory.fromAnyRef(writesDuringJvmExit ? h2UrlWrittenAtExit(dir, name)
                            : h2Url(dir, name)))
                    .withValue("db.user", ConfigValueFactory.fromAnyRef(H2_USER))
                    .withValue("db.password", ConfigValueFactory.fromAnyRef(H2_PASSWORD))
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

    /**
     * The JDBC URL of the embedded H2 journal {@code name} under {@code dir}. WRITE_DELAY=0:
     * an event written right before a SIGKILL is on disk; AUTO_SERVER: another LoadLab
     * process (e.g. {@code campaign status}) can read the file while this one writes it.
     */
    static String h2Url(Path dir, String name) {
        String file = journalDir(dir).resolve(name).toString().replace('\\', '/');
        return "jdbc:h2:file:" + file + ";WRITE_DELAY=0;AUTO_SERVER=TRUE";
    }

    /**
     * The JDBC URL of an embedded H2 journal that is written while the JVM exits: WRITE_DELAY=0 as
     * {@link #h2Url}, DB_CLOSE_ON_EXIT=FALSE (H2's shutdown hook would close it under the writes),
     * and so without AUTO_SERVER, which H2 does not allow with it.
     */
    static String h2UrlWrittenAtExit(Path dir, String name) {
        String file = journalDir(dir).resolve(name).toString().replace('\\', '/');
        return "jdbc:h2:file:" + file + ";WRITE_DELAY=0;DB_CLOSE_ON_EXIT=FALSE";
    }

    /**
     * Creates the H2 file of journal {@code name} under {@code dir} and its tables, with
     * plain JDBC and pekko-persistence-jdbc's own H2 script (the one its
     * {@code SchemaUtils.createIfNotExists} runs). Unlike SchemaUtils it needs no actor
     * system, so a fresh campaign creates its tables while the actor system starts
     * (docs/performance.md, "Campaigns"). For a journal file that does not exist yet only:
     * the script's index statement has no IF NOT EXISTS.
     *
     * @param dir where the H2 file goes ({@code dir/journal/name.mv.db})
     * @param name the database's name
     * @throws IllegalStateException if the file cannot be created or a statement fails
     */
    public static void createH2Tables(Path dir, String name) {
        String script;
        try (java.io.InputStream in = JdbcJournal.class.getResourceAsStream(H2_SCHEMA)) {
            if (in == null) {
                throw new IllegalStateException("pekko-persistence-jdbc's " + H2_SCHEMA + " is not on the class path");
            }
            script = new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        } catch (java.io.IOException e) {
            throw new IllegalStateException("cannot read " + H2_SCHEMA + ": " + e.getMessage(), e);
        }
        java.util.Properties login = new java.util.Properties();
        login.setProperty("user", H2_USER);
        login.setProperty("password", H2_PASSWORD);
        try (java.sql.Connection c = new org.h2.Driver().connect(h2Url(dir, name), login);
             java.sql.Statement st = c.createStatement()) {
            for (String statement : script.split(";")) {
                if (!statement.isBlank()) {
                    st.execute(statement);
                }
            }
        } catch (java.sql.SQLException e) {
            throw new IllegalStateException("cannot create the journal tables in " + h2File(dir, name) + ": " + e.getMessage(), e);
        }
    }

    /** pekko-persistence-jdbc's schema script for H2 (in its jar). */
    private static final String H2_SCHEMA = "/schema/h2/h2-create-schema.sql";
    /** The embedded journal's login (a local file: H2's default administrator, no password). */
    private static final String H2_USER = "sa";
    private static final String H2_PASSWORD = "";

    /** Where the embedded H2 journals of {@code dir} live. */
    private static Path journalDir(Path dir) {
        return dir.toAbsolutePath().resolve("journal");
    }

    /** True if {@code env} names a PostgreSQL journal ({@value #URL_ENV} set and not blank). */
    public static boolean usesPostgres(Map<String, String> env) {
        String url = env.get(URL_ENV);
        return url != null && !url.isBlank();
    }

    /** The H2 file of journal {@code name} under {@code dir}. */
    public static Path h2File(Path dir, String name) {
        return journalDir(dir).resolve(name + ".mv.db");
    }

    /** Where the journal is, in words: "PostgreSQL URL" or "H2 file PATH". */
    public static String describe(Path dir, String name, Map<String, String> env) {
        return usesPostgres(env) ? "PostgreSQL " + env.get(URL_ENV) : "H2 file " + h2File(dir, name);
    }
}
