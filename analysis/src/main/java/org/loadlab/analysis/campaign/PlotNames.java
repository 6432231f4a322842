package org.loadlab.analysis.campaign;

import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Map;
import java.util.SortedMap;
import java.util.StringJoiner;
import java.util.zip.CRC32;

/**
 * File-system-safe, deterministic base names for plot files. A name part keeps letters,
 * digits, {@code .}, {@code _} and {@code -}; any other character becomes {@code -} and a
 * CRC-32 of the original text is appended so different names cannot collide.
 */
final class PlotNames {

    private static final int MAX_PART_LENGTH = 60;

    private PlotNames() {
    }

    /**
     * @param text any name, e.g. a scenario name
     * @return a safe file-name part
     */
    static String part(String text) {
        StringBuilder safe = new StringBuilder(text.length());
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            boolean ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
                    || c == '.' || c == '_' || c == '-';
            safe.append(ok ? c : '-');
        }
        String result = safe.toString();
        if (!result.equals(text) || result.length() > MAX_PART_LENGTH || result.isEmpty()) {
            CRC32 crc = new CRC32();
            crc.update(text.getBytes(StandardCharsets.UTF_8));
            String head = result.length() > MAX_PART_LENGTH ? result.substring(0, MAX_PART_LENGTH) : result;
            result = head + "-" + String.format(Locale.ROOT, "%08x", crc.getValue());
        }
        return result;
    }

    /**
     * @param parameters swept keys and values
     * @return {@code key-value_key2-value2}, or empty when there are none
     */
    static String parameters(SortedMap<String, String> parameters) {
        StringJoiner joiner = new StringJoiner("_");
        for (Map.Entry<String, String> entry : parameters.entrySet()) {
            joiner.add(part(entry.getKey()) + "-" + part(entry.getValue()));
        }
        return joiner.toString();
    }

    /**
     * @param cell a scenario and parameters
     * @return {@code scenario} or {@code scenario_key-value...}
     */
    static String cell(Cell cell) {
        String parameters = parameters(cell.parameters());
        return parameters.isEmpty() ? part(cell.scenario()) : part(cell.scenario()) + "_" + parameters;
    }
}
