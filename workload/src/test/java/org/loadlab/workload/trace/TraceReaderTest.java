package org.loadlab.workload.trace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.StringReader;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Reading the bundled Azure traces, the generic layout, and error messages naming file, line, column. */
class TraceReaderTest {

    @TempDir
    Path dir;

    static void assertSorted(Trace t) {
        assertEquals(0.0, t.offset(0));
        for (int i = 1; i < t.size(); i++) {
            assertTrue(t.offset(i) >= t.offset(i - 1), "record " + i + " out of order");
        }
    }

    @Test
    void readsAzureCodeTrace() {
        Trace t = TraceReader.readResource(TraceReader.AZURE_CODE);
        assertEquals(8_819, t.size());
        assertSorted(t);
        assertEquals(3_436, t.spanSeconds(), 1.0);
        assertEquals(2.57, t.meanRate(), 0.01);
        assertEquals(4808, t.contextTokens(0));
        assertEquals(10, t.generatedTokens(0));
        assertEquals(0.052, t.offset(1), 1e-9); // 18:17:03.9799600 -> 18:17:04.0319600
        assertEquals(549, t.contextTokens(t.size() - 1));
        assertEquals(173, t.generatedTokens(t.size() - 1));
        assertEquals("classpath:" + TraceReader.AZURE_CODE, t.source());
    }

    @Test
    void readsAzureConversationTrace() {
        Trace t = TraceReader.readResource(TraceReader.AZURE_CONV);
        assertEquals(19_366, t.size());
        assertSorted(t);
        assertEquals(3_502, t.spanSeconds(), 1.0);
        assertEquals(5.53, t.meanRate(), 0.01);
        assertEquals(374, t.contextTokens(0));
        assertEquals(44, t.generatedTokens(0));
        assertEquals(4.3145790, t.offset(1), 1e-9); // 18:15:46.6805900 -> 18:15:50.9951690
    }

    @Test
    void readsFromPathWithGenericLayout() throws IOException {
        Path f = dir.resolve("generic.csv");
        Files.writeString(f, "id,timestamp,size\na,100.5,12\nb,101.0,0\n\nc,103.5,7.0\n");
        Trace t = TraceReader.read(f);
        assertEquals(3, t.size());
        assertEquals(0.5, t.offset(1), 1e-12);
        assertEquals(3.0, t.offset(2), 1e-12);
        assertEquals(12, t.contextTokens(0));
        assertEquals(7, t.contextTokens(2));
        assertEquals(0, t.generatedTokens(2));
        assertEquals(f.toString(), t.source());
    }

    @Test
    void acceptsZeroToSevenFractionalDigitsAndBom() {
        Trace t = TraceReader.read(new StringReader("\uFEFFtimestamp,contexttokens,generatedtokens\n"
                + "2023-11-16 23:59:59,1,1\n2023-11-17 00:00:00.5,2,2\n2023-11-17 00:00:01.0000001,3,3\n"), "s");
        assertEquals(1.5, t.offset(1), 1e-12);
        assertEquals(2.0000001, t.offset(2), 1e-12);
    }

    @Test
    void malformedTokenCountNamesFileLineAndColumn() throws IOException {
        Path f = dir.resolve("bad.csv");
        Files.writeString(f, "TIMESTAMP,ContextTokens,GeneratedTokens\n"
                + "2023-11-16 18:17:03.9799600,4808,10\n"
                + "2023-11-16 18:17:04.0319600,3180,8\n"
                + "2023-11-16 18:17:05.0000000,abc,8\n");
        TraceFormatException e = assertThrows(TraceFormatException.class, () -> TraceReader.read(f));
        assertEquals(f + " line 4, column ContextTokens: must be an integer >= 0, was 'abc'", e.getMessage());
        assertEquals(4, e.line());
        assertEquals("ContextTokens", e.column());
    }

    @Test
    void otherErrorsNameTheLine() {
        String header = "TIMESTAMP,ContextTokens,GeneratedTokens\n";
        TraceFormatException e = assertThrows(TraceFormatException.class, () -> TraceReader.read(new StringReader(header
                + "2023-11-16 18:17:05,1,1\n2023-11-16 18:17:04,1,1\n"), "x.csv"));
        assertEquals("x.csv line 3, column TIMESTAMP: timestamps must be non-decreasing (sorted), was "
                + "'2023-11-16 18:17:04' after '2023-11-16 18:17:05'", e.getMessage());
        e = assertThrows(TraceFormatException.class, () -> TraceReader.read(new StringReader(header
                + "2023-11-16 18:17:05,1,1\n2023-11-16 18:17:06.123456789,1,1\n"), "x.csv"));
        assertTrue(e.getMessage().startsWith("x.csv line 3, column TIMESTAMP: must be a date-time"), e.getMessage());
        e = assertThrows(TraceFormatException.class, () -> TraceReader.read(new StringReader(header
                + "2023-11-16 18:17:05,1,1\n2023-11-16 18:17:06,1\n"), "x.csv"));
        assertEquals("x.csv line 3: record must have 3 fields like the header, had 2", e.getMessage());
        e = assertThrows(TraceFormatException.class, () -> TraceReader.read(new StringReader(header
                + "2023-11-16 18:17:05,1,-4\n"), "x.csv"));
        assertEquals("x.csv line 2, column GeneratedTokens: must be an integer >= 0, was '-4'", e.getMessage());
        e = assertThrows(TraceFormatException.class, () -> TraceReader.read(new StringReader(
                "timestamp,size\n1.0,2\n2.0,2.5\n"), "g.csv"));
        assertEquals("g.csv line 3, column size: must be an integer >= 0 and <= 2147483647, was '2.5'", e.getMessage());
        e = assertThrows(TraceFormatException.class, () -> TraceReader.read(new StringReader(
                "TIMESTAMP,ContextTokens\n1.0,2\n"), "h.csv"));
        assertTrue(e.getMessage().startsWith("h.csv line 1, column GeneratedTokens: header must have both"), e.getMessage());
        e = assertThrows(TraceFormatException.class, () -> TraceReader.read(new StringReader(header), "e.csv"));
        assertEquals("e.csv: must have >= 1 record after the header, had 0", e.getMessage());
    }

    @Test
    void missingResourceIsNamed() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> TraceReader.readResource("traces/nope.csv"));
        assertTrue(e.getMessage().startsWith("trace resource must exist on the classpath, was 'traces/nope.csv'"));
    }
}
