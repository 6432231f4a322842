package org.loadlab.app.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code campaign run --cluster} refuses, with exit code 2 and a message naming the flag,
 * before any work starts (nothing written, not even the output directory): an unknown
 * campaign, options that cannot apply with --cluster (--workers), cluster options without
 * --cluster, a malformed seed, and a cluster that does not answer.
 */
class ClusterCampaignBadInputTest {
    @TempDir
    Path tmp;

    private Path campaign() throws Exception {
        Path f = tmp.resolve("tiny.conf");
        Files.writeString(f, """
                name = tiny
                seeds = "101:102"
                scenarios = [ { scenario = quickstart, set { duration = 100 } } ]
                policies = [random, p2c]
                reference = p2c
                """);
        return f;
    }

    private record Result(int exit, String err) {
    }

    private static Result run(String... args) {
        StringWriter err = new StringWriter();
        picocli.CommandLine cli = LoadLabCli.commandLine();
        cli.setErr(new PrintWriter(err));
        int code = cli.execute(args);
        return new Result(code, err.toString());
    }

    @Test
    void anUnknownCampaignIsRefusedBeforeTheClusterIsAsked() {
        Path out = tmp.resolve("out");
        Result r = run("campaign", "run", "no-such-campaign", "--cluster", "--out", out.toString());
        assertEquals(2, r.exit(), r.err());
        assertTrue(r.err().contains("no-such-campaign"), r.err());
        assertFalse(Files.exists(out));
    }

    @Test
    void workersDoNotApplyWithCluster() throws Exception {
        Path out = tmp.resolve("out");
        Result r = run("campaign", "run", campaign().toString(), "--cluster", "--workers", "2", "--out", out.toString());
        assertEquals(2, r.exit(), r.err());
        assertTrue(r.err().contains("--workers = 2: does not apply with --cluster"), r.err());
        assertFalse(Files.exists(out));
    }

    @Test
    void clusterOptionsNeedCluster() throws Exception {
        Result seeds = run("campaign", "run", campaign().toString(), "--seed-nodes", "127.0.0.1:2551");
        assertEquals(2, seeds.exit(), seeds.err());
        assertTrue(seeds.err().contains("--seed-nodes = 127.0.0.1:2551: only with --cluster"), seeds.err());
        Result timeout = run("campaign", "resume", "tiny-0", "--cluster-timeout", "5");
        assertEquals(2, timeout.exit(), timeout.err());
        assertTrue(timeout.err().contains("--cluster-timeout = 5: only with --cluster"), timeout.err());
    }

    @Test
    void aMalformedSeedOrTimeoutIsRefused() throws Exception {
        Result seed = run("campaign", "run", campaign().toString(), "--cluster", "--seed-nodes", "nohost");
        assertEquals(2, seed.exit(), seed.err());
        assertTrue(seed.err().contains("--seed-nodes = 'nohost': neither host:port"), seed.err());
        Result timeout = run("campaign", "run", campaign().toString(), "--cluster", "--cluster-timeout", "0");
        assertEquals(2, timeout.exit(), timeout.err());
        assertTrue(timeout.err().contains("--cluster-timeout = 0: must be in [1, 600]"), timeout.err());
    }

    @Test
    void noClusterAnsweringIsRefusedAndNothingIsWritten() throws Exception {
        int port = ClusterAcceptanceTest.freeRange(1);
        Path out = tmp.resolve("out");
        long t0 = System.nanoTime();
        Result r = run("campaign", "run", campaign().toString(), "--cluster", "--seed-nodes", "127.0.0.1:" + port,
                "--cluster-timeout", "2", "--out", out.toString());
        assertEquals(2, r.exit(), r.err());
        assertTrue(r.err().contains("--cluster: no LoadLab cluster answered at 127.0.0.1:" + port + " within 2 s"), r.err());
        assertTrue((System.nanoTime() - t0) / 1e9 < 30, "refused after the timeout, not hanging");
        assertFalse(Files.exists(out), "nothing written");
    }
}
