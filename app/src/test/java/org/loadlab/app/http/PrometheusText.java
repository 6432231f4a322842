package org.loadlab.app.http;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A Prometheus text exposition (format 0.0.4) read into samples, for tests that check what
 * GET /metrics serves: {@code name{label="value",...} number} lines; comments skipped. A line
 * that is neither is an error, so a malformed exposition fails the test.
 */
final class PrometheusText {
    private static final Pattern SAMPLE = Pattern.compile("([a-zA-Z_:][a-zA-Z0-9_:]*)(\\{([^}]*)\\})?\\s+(\\S+)");
    private static final Pattern LABEL = Pattern.compile("([a-zA-Z_][a-zA-Z0-9_]*)=\"([^\"]*)\"");

    /** One sample: metric name, labels, value. */
    record Sample(String name, Map<String, String> labels, double value) {
    }

    private final List<Sample> samples = new ArrayList<>();

    PrometheusText(String text) {
        for (String line : text.split("\n")) {
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            Matcher m = SAMPLE.matcher(line.trim());
            if (!m.matches()) {
                throw new AssertionError("not a Prometheus sample line: " + line);
            }
            Map<String, String> labels = new LinkedHashMap<>();
            if (m.group(3) != null) {
                Matcher l = LABEL.matcher(m.group(3));
                while (l.find()) {
                    labels.put(l.group(1), l.group(2));
                }
            }
            samples.add(new Sample(m.group(1), labels, Double.parseDouble(m.group(4))));
        }
    }

    /** Every sample. */
    List<Sample> samples() {
        return samples;
    }

    /** Whether some sample has metric name {@code name}. */
    boolean has(String name) {
        return samples.stream().anyMatch(s -> s.name().equals(name));
    }

    /**
     * The sum of the samples of {@code name} whose labels include {@code labels} (pairs: key, value, ...); 0 when none
     * match (Prometheus shows a counter only once it has counted).
     */
    double sum(String name, String... labels) {
        double total = 0;
        for (Sample s : samples) {
            boolean match = s.name().equals(name);
            for (int i = 0; match && i < labels.length; i += 2) {
                match = labels[i + 1].equals(s.labels().get(labels[i]));
            }
            total += match ? s.value() : 0;
        }
        return total;
    }
}
