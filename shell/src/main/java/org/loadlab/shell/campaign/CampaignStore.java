package org.loadlab.shell.campaign;

import com.typesafe.config.Config;
import java.nio.file.Path;
import java.util.Map;
import org.loadlab.shell.persistence.JdbcJournal;

/**
 * Where campaign journals live, as Pekko configuration for pekko-persistence-jdbc:
 * an embedded H2 file database under the campaign's output directory by default (zero
 * setup), or PostgreSQL when {@code LOADLAB_JDBC_URL} (and {@code LOADLAB_JDBC_USER},
 * {@code LOADLAB_JDBC_PASSWORD}) name one. Tables are created at start if missing.
 */
public final class CampaignStore {
    private CampaignStore() {
    }

    /**
     * Pekko configuration for a campaign whose output directory is {@code dir}.
     *
     * @param dir campaign output directory (the H2 file goes to {@code dir/journal/})
     * @param env the process environment (for PostgreSQL settings)
     */
    public static Config config(Path dir, Map<String, String> env) {
        return JdbcJournal.config(dir, "campaign", env);
    }

    /**
     * True if campaign {@code dir} certainly has nothing stored yet: the embedded H2 journal
     * file does not exist. With PostgreSQL the journal may hold the campaign, so false.
     *
     * @param dir campaign output directory
     * @param env the process environment
     */
    public static boolean isFresh(Path dir, Map<String, String> env) {
        return !JdbcJournal.usesPostgres(env) && !java.nio.file.Files.exists(JdbcJournal.h2File(dir, "campaign"));
    }

    /**
     * Creates the embedded H2 journal of a fresh campaign {@code dir} ({@link #isFresh}) and
     * its tables, without an actor system ({@link JdbcJournal#createH2Tables}).
     *
     * @param dir campaign output directory
     * @throws IllegalStateException if the file or a table cannot be created
     */
    public static void createTables(Path dir) {
        JdbcJournal.createH2Tables(dir, "campaign");
    }

    /** A human description of where the journal is. */
    public static String describe(Path dir, Map<String, String> env) {
        return JdbcJournal.describe(dir, "campaign", env);
    }
}
