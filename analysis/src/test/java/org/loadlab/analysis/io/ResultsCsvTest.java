package org.loadlab.analysis.io;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ResultsCsvTest {

    @TempDir
    Path dir;

    @Test
    void headerStartsWithTheHeadlineColumns() throws Exception {
        Path file = dir.resolve("results.csv");
        ResultsCsv.write(file, SampleRuns.runs());
        List<String> lines = Files.readAllLines(file);
        assertTrue(lines.get(0).startsWith("scenario,policy,seed,requests_completed,requests_rejected,"
                + "throughput_rps,response_mean_s,response_p50_s,response_p99_s,wait_mean_s,"
                + "queries_per_decision,max_queue,requests_arrived,requests_lost,response_p95_s,"
                + "response_p999_s,response_max_s,backlog_area,mean_queue,max_cluster_queue,"), lines.get(0));
        assertEquals(String.join(",", ResultsCsv.HEADER), lines.get(0));
        assertEquals(1 + 5, lines.size());
    }

    @Test
    void rowHoldsTheRunsValuesInPlainDecimals() throws Exception {
        Path file = dir.resolve("results.csv");
        ResultsCsv.write(file, SampleRuns.runs());
        String[] header = Files.readAllLines(file).get(0).split(",");
        String[] row = Files.readAllLines(file).get(2).split(",");
        assertEquals(header.length, row.length);
        assertEquals("poisson_small", row[0]);
        assertEquals("p2c", row[1]);
        assertEquals("102", row[2]);
        assertEquals("12", row[3]);    // completed
        assertEquals("1", row[4]);     // rejected
        assertEquals("4", row[5]);     // throughput 12 / 3 s
        assertEquals("0.12", row[6]);  // mean response
        assertEquals("0.06", row[9]);  // mean wait
        assertEquals("2", row[10]);    // queries per decision
        assertEquals("2", row[11]);    // max queue
        List<String> columns = List.of(header);
        assertEquals("1;0", row[columns.indexOf("node_request_share")]);
        assertEquals("1;0", row[columns.indexOf("node_utilisation")]);
    }

    @Test
    void fieldsWithCommasAreQuoted() throws Exception {
        Path file = dir.resolve("results.csv");
        ResultsCsv.write(file, SampleRuns.runs());
        assertTrue(Files.readAllLines(file).get(5).startsWith("\"bursty, medium\",p2c,101,"));
    }

    @Test
    void sameRunsGiveByteIdenticalFiles() throws Exception {
        Path a = dir.resolve("a.csv");
        Path b = dir.resolve("b.csv");
        ResultsCsv.write(a, SampleRuns.runs());
        ResultsCsv.write(b, SampleRuns.runs());
        assertArrayEquals(Files.readAllBytes(a), Files.readAllBytes(b));
        assertTrue(!new String(Files.readAllBytes(a)).contains("\r"));
    }

    @Test
    void noRunsGiveHeaderOnly() throws Exception {
        Path file = dir.resolve("sub/dir/empty.csv");
        ResultsCsv.write(file, List.of());
        assertEquals(List.of(String.join(",", ResultsCsv.HEADER)), Files.readAllLines(file));
    }

    @Test
    void numbersAreLocaleIndependentPlainDecimals() {
        assertEquals("0.1", CsvNumbers.format(0.1));
        assertEquals("0.000001", CsvNumbers.format(1e-6));
        assertEquals("123456789000", CsvNumbers.format(1.23456789e11));
        assertEquals("0.3333333333", CsvNumbers.format(1.0 / 3));
        assertEquals("0", CsvNumbers.format(-0.0));
        assertEquals("NaN", CsvNumbers.format(Double.NaN));
        assertEquals("-Infinity", CsvNumbers.format(Double.NEGATIVE_INFINITY));
        assertEquals("1;NaN;2", CsvNumbers.join(List.of(1.0, Double.NaN, 2.0)));
    }
}
