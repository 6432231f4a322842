package org.loadlab.analysis.io;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TimeseriesCsvTest {

    @TempDir
    Path dir;

    @Test
    void oneRowPerRunAndInterval() throws Exception {
        Path file = dir.resolve("timeseries.csv");
        TimeseriesCsv.write(file, SampleRuns.runs());
        List<String> lines = Files.readAllLines(file);
        assertEquals("scenario,policy,seed,time_s,mean_queue,max_queue,throughput_rps", lines.get(0));
        assertEquals(1 + 5 * 3, lines.size()); // 5 runs × 3 one-second intervals
        // first run: completions at 1.00, 1.01, ..., 1.09 s; intervals are (k, k+1], so the one
        // at exactly 1 s belongs to the first interval; node 0 holds 2 requests of 2 nodes → mean 1
        assertEquals("poisson_small,p2c,101,1,1,2,1", lines.get(1));
        assertEquals("poisson_small,p2c,101,2,1,2,9", lines.get(2));
        assertEquals("poisson_small,p2c,101,3,1,2,0", lines.get(3));
    }

    @Test
    void sameRunsGiveByteIdenticalFiles() throws Exception {
        Path a = dir.resolve("a.csv");
        Path b = dir.resolve("b.csv");
        TimeseriesCsv.write(a, SampleRuns.runs());
        TimeseriesCsv.write(b, SampleRuns.runs());
        assertArrayEquals(Files.readAllBytes(a), Files.readAllBytes(b));
    }
}
