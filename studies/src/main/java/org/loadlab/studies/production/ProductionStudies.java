package org.loadlab.studies.production;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/**
 * The five production studies by name, as {@code loadlab study NAME} runs them: the grid of
 * variants over the seeds, the table (printed, and written as NAME.md and NAME.csv) and the
 * plot (NAME.png) in the output directory; and {@code hash-remapping}, the hashing structures
 * against theory (a table, no simulation, no seeds).
 */
public final class ProductionStudies {
    /** The study names. */
    public static final List<String> NAMES = List.of("herding", "cold-start", "slow-host", "retry-storm", "scale-event",
            "hash-remapping");

    private ProductionStudies() {
    }

    /**
     * Runs study {@code name}.
     *
     * @param name one of {@link #NAMES}
     * @param seeds the seeds of every variant
     * @param out where the table and the plot go
     * @return the table
     * @throws IllegalArgumentException if the name is unknown (the message lists the names)
     * @throws IOException if the files cannot be written
     */
    public static StudyTable run(String name, List<Long> seeds, Path out) throws IOException {
        List<String> none = List.of();
        StudyTable table;
        switch (name) {
            case "herding" -> {
                List<HerdingStudy.Cell> cells = HerdingStudy.measure(seeds, HerdingStudy.BALANCERS, none);
                table = HerdingStudy.table(cells, HerdingStudy.BALANCERS, 20);
                HerdingStudy.plot(cells, HerdingStudy.BALANCERS, 20, out);
            }
            case "cold-start" -> {
                List<ColdStartStudy.Measure> ms = ColdStartStudy.measure(ColdStartStudy.variants(), seeds, none);
                table = ColdStartStudy.table(ms);
                ColdStartStudy.plot(ms, ms.stream().map(ColdStartStudy.Measure::label).toList(), out);
            }
            case "slow-host" -> {
                List<SlowHostStudy.Measure> ms = SlowHostStudy.measure(SlowHostStudy.variants(), seeds, none);
                table = SlowHostStudy.table(ms, 20);
                SlowHostStudy.plot(ms, 20, out);
            }
            case "retry-storm" -> {
                List<RetryStormStudy.Measure> ms = RetryStormStudy.measure(RetryStormStudy.variants(), seeds, none);
                table = RetryStormStudy.table(ms);
                RetryStormStudy.plot(ms, 75.0, out);
            }
            case "scale-event" -> {
                List<ScaleEventStudy.Measure> ms = ScaleEventStudy.measure(ScaleEventStudy.variants(), seeds, none);
                table = ScaleEventStudy.table(ms);
                ScaleEventStudy.plot(ms, List.of("round-robin", "least-connections", "least-connections + slow start",
                        "least-queue, view 1 s old", "least-queue, view 1 s old + slow start", "p2c, view 1 s old"), out);
            }
            case "hash-remapping" -> table = HashRemapping.table(List.of(10, 20, 100));
            default -> throw new IllegalArgumentException("study '" + name + "' does not exist; allowed: " + String.join(", ", NAMES));
        }
        table.write(out, name);
        return table;
    }
}
