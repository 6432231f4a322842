package org.loadlab.app.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.loadlab.experiment.campaign.CampaignPlan;

/**
 * Campaigns across the cluster ({@code campaign run --cluster}): a gateway JVM and two
 * node JVMs on loopback, this JVM the coordinator. The same campaign run on one machine
 * and on the cluster writes byte-identical files; with a node JVM killed (SIGKILL)
 * mid-campaign, its runs are sent again, land on the surviving member, and the files are
 * still identical.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ClusterCampaignTest {
    /** The split brain resolver's stable-after of the members and of the coordinator: a killed member is removed in seconds. */
    private static final String STABLE_AFTER = "pekko.cluster.split-brain-resolver.stable-after = 3s";
    private static final Pattern PROGRESS = Pattern.compile("(\\d+)/(\\d+) runs");
    private static final Pattern PER_MEMBER = Pattern.compile("runs per member: (.*)");
    private static final List<String> FILES = List.of("runs.jsonl", "runs.csv", "summary.csv", "pairwise.csv", "report.md",
            "report.html", "campaign.json", "campaign-meta.json");
    private static LocalCluster cluster;
    private static Path dir;
    private static Path campaign;
    private static Path oneMachine;
    private static int basePort;

    @BeforeAll
    static void start() throws Exception {
        dir = Files.createTempDirectory("loadlab-cluster-campaign");
        campaign = dir.resolve("spread.conf");
        // 24 runs of about a quarter of a second each.
        Files.writeString(campaign, """
                name = spread
                description = "a campaign spread over the cluster"
                seeds = "101:106"
                scenarios = [ { scenario = quickstart, set { duration = 6000, warmup = 10 } } ]
                sweep { "arrivals.utilisation" = [0.6, 0.9] }
                policies = [random, p2c]
                reference = p2c
                """);
        basePort = ClusterAcceptanceTest.freeRange(3);
        int prometheus = ClusterAcceptanceTest.freeRange(3);
        int http = ClusterAcceptanceTest.freeRange(1);
        String cp = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        cluster = LocalCluster.start(2, basePort, http, prometheus, cp, List.of("-Xmx256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1"),
                List.of("--set", STABLE_AFTER, "--set", "loadlab.cluster.max-lifetime = 170s", "--set", "loadlab.metrics.kamon = off",
                        "--set", "loadlab.cluster.results-dir = \"" + dir.resolve("results").toString().replace("\\", "/") + "\""),
                dir);
        oneMachine = dir.resolve("one-machine");
        assertEquals(0, LoadLabCli.commandLine().execute("campaign", "run", campaign.toString(), "--out", oneMachine.toString(),
                "--workers", "2"));
        assertTrue(cluster.awaitUp(Duration.ofSeconds(90)), "3 members Up; logs in " + dir);
    }

    @AfterAll
    static void stop() {
        if (cluster != null) {
            cluster.close();
        }
    }

    /**
     * Runs {@code body} with this JVM's standard output also copied to {@code sink}, and returns what it printed.
     * For what {@link CliCapture#runCapturingSystemOut} cannot do: call {@code CampaignCommand.execute} with a
     * {@code ClusterTarget} (its environment names the journal), or read the output while the campaign runs.
     */
    private static String capturing(ThrowingRunnable body, ByteArrayOutputStream sink) throws Exception {
        PrintStream old = System.out;
        System.setOut(tee(old, sink));
        try {
            body.run();
        } finally {
            System.setOut(old);
        }
        return sink.toString(StandardCharsets.UTF_8);
    }

    private interface ThrowingRunnable {
        void run() throws Exception;
    }

    /** A stream that writes to {@code out} and to {@code copy}. */
    private static PrintStream tee(PrintStream out, ByteArrayOutputStream copy) {
        return new PrintStream(new java.io.OutputStream() {
            @Override
            public void write(int b) {
                out.write(b);
                synchronized (copy) {
                    copy.write(b);
                }
            }

            @Override
            public void write(byte[] b, int off, int len) {
                out.write(b, off, len);
                synchronized (copy) {
                    copy.write(b, off, len);
                }
            }
        }, true, StandardCharsets.UTF_8);
    }

    private static void assertSameFiles(Path expected, Path actual) throws Exception {
        for (String f : FILES) {
            assertArrayEquals(Files.readAllBytes(expected.resolve(f)), Files.readAllBytes(actual.resolve(f)),
                    f + " of the cluster campaign equals the one-machine campaign's");
        }
        List<String> plots;
        try (Stream<Path> s = Files.list(expected.resolve("plots"))) {
            plots = s.map(p -> p.getFileName().toString()).sorted().toList();
        }
        assertTrue(!plots.isEmpty());
        for (String p : plots) {
            assertArrayEquals(Files.readAllBytes(expected.resolve("plots").resolve(p)),
                    Files.readAllBytes(actual.resolve("plots").resolve(p)), "plots/" + p);
        }
    }

    @Test
    @Order(1)
    void aCampaignSpreadOverTwoMembersWritesTheOneMachineFilesByteForByte() throws Exception {
        Path out = dir.resolve("on-cluster");
        CliCapture.Printed ran = CliCapture.runCapturingSystemOut("campaign", "run", campaign.toString(), "--out", out.toString(),
                "--cluster", "--seed-nodes", "127.0.0.1:" + basePort);
        assertEquals(0, ran.code(), ran.err());
        String printed = ran.out();
        assertSameFiles(oneMachine, out);
        Matcher m = PER_MEMBER.matcher(printed);
        assertTrue(m.find(), printed);
        String perMember = m.group(1);
        assertTrue(perMember.contains(":" + (basePort + 1) + " ") && perMember.contains(":" + (basePort + 2) + " "),
                "both node members ran runs: " + perMember);
    }

    /**
     * The campaign journal on PostgreSQL, when one is given ({@code .ci/run} starts a
     * throwaway instance and sets {@code LOADLAB_TEST_JDBC_URL}): the cluster campaign's
     * runs are journaled there (nothing in the campaign directory's H2 file), the files
     * equal the one-machine campaign's, and running it again reads every run back from
     * PostgreSQL without sending any to the cluster.
     */
    @Test
    @Order(2)
    void onPostgresqlTheClusterCampaignIsJournaledThereAndResumesFromIt() throws Exception {
        String url = System.getenv("LOADLAB_TEST_JDBC_URL");
        org.junit.jupiter.api.Assumptions.assumeTrue(url != null && !url.isBlank(),
                "no PostgreSQL given (LOADLAB_TEST_JDBC_URL; .ci/run starts one)");
        String user = System.getenv().getOrDefault("LOADLAB_TEST_JDBC_USER", "loadlab");
        String password = System.getenv().getOrDefault("LOADLAB_TEST_JDBC_PASSWORD", "");
        String db = "loadlab_campaign_" + System.nanoTime();
        try (java.sql.Connection c = java.sql.DriverManager.getConnection(url, user, password);
             java.sql.Statement st = c.createStatement()) {
            st.execute("CREATE DATABASE " + db);
        }
        java.util.Map<String, String> env = java.util.Map.of("LOADLAB_JDBC_URL", url.substring(0, url.lastIndexOf('/') + 1) + db,
                "LOADLAB_JDBC_USER", user, "LOADLAB_JDBC_PASSWORD", password);
        CampaignPlan plan = CampaignCommand.loader().load(campaign.toString(), null);
        CampaignCommand.ClusterTarget target = new CampaignCommand.ClusterTarget(List.of("127.0.0.1:" + basePort),
                Duration.ofSeconds(30), List.of(STABLE_AFTER), env);
        Path out = dir.resolve("on-postgresql");
        assertEquals(0, CampaignCommand.execute(plan, out, true, null, false, target));
        assertSameFiles(oneMachine, out);
        assertTrue(!Files.exists(out.resolve("journal").resolve("campaign.mv.db")), "journaled in PostgreSQL, not in H2");

        Path again = dir.resolve("on-postgresql-again");
        ByteArrayOutputStream sink = new ByteArrayOutputStream();
        String printed = capturing(() -> assertEquals(0, CampaignCommand.execute(plan, again, true, null, false, target)), sink);
        assertTrue(printed.contains(plan.runs().size() + " runs done (0 now, " + plan.runs().size() + " from the journal)"), printed);
        assertSameFiles(oneMachine, again);
    }

    @Test
    @Order(3)
    void aMemberKilledMidCampaignHasItsRunsRedoneElsewhereAndTheFilesStayIdentical() throws Exception {
        Path out = dir.resolve("killed-member");
        CampaignPlan plan = CampaignCommand.loader().load(campaign.toString(), null);
        CampaignCommand.ClusterTarget target = new CampaignCommand.ClusterTarget(List.of("127.0.0.1:" + basePort),
                Duration.ofSeconds(30), List.of(STABLE_AFTER), System.getenv());
        ByteArrayOutputStream sink = new ByteArrayOutputStream();
        CompletableFuture<Integer> exit = new CompletableFuture<>();
        PrintStream old = System.out;
        System.setOut(tee(old, sink));
        try {
            Thread coordinator = new Thread(() -> {
                try {
                    exit.complete(CampaignCommand.execute(plan, out, true, null, false, target));
                } catch (Throwable t) {
                    exit.completeExceptionally(t);
                }
            }, "cluster-campaign");
            coordinator.start();
            Awaitility.await("a few runs stored before the kill").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(50))
                    .until(() -> stored(sink) >= 2 || exit.isDone());
            int before = stored(sink);
            assertTrue(before < plan.runs().size(), "killed mid-campaign, after " + before + " runs");
            cluster.kill("node-2");
            assertEquals(0, exit.get(120, java.util.concurrent.TimeUnit.SECONDS));
        } finally {
            System.setOut(old);
        }
        String printed = sink.toString(StandardCharsets.UTF_8);
        assertTrue(printed.contains("sent again after their member was lost"), printed);
        Matcher m = PER_MEMBER.matcher(printed);
        assertTrue(m.find(), printed);
        assertSameFiles(oneMachine, out);
    }

    private static int stored(ByteArrayOutputStream sink) {
        String text;
        synchronized (sink) {
            text = sink.toString(StandardCharsets.UTF_8);
        }
        Matcher m = PROGRESS.matcher(text);
        int last = 0;
        while (m.find()) {
            last = Integer.parseInt(m.group(1));
        }
        return last;
    }
}
