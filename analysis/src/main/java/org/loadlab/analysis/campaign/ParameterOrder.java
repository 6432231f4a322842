package org.loadlab.analysis.campaign;

import java.math.BigDecimal;
import java.util.Comparator;
import java.util.Iterator;
import java.util.Map;
import java.util.SortedMap;

/**
 * Orders parameter values and maps so that numbers sort as numbers ({@code 0.9 < 10}) and
 * everything else as text; a total, deterministic order (never hash order).
 */
final class ParameterOrder {

    /**
     * Values: numbers (anything {@link BigDecimal} parses) before text; numbers by value, then
     * by text (so {@code 0.7} and {@code 0.70} are distinct but adjacent); text by
     * {@link String#compareTo}.
     */
    static final Comparator<String> VALUES = ParameterOrder::compareValues;

    /**
     * Maps: entry by entry in key order (key text, then value by {@link #VALUES}); a map that is
     * a prefix of the other sorts first.
     */
    static final Comparator<SortedMap<String, String>> MAPS = ParameterOrder::compareMaps;

    /**
     * Names (scenarios): runs of digits by their value, the text between them by
     * {@link String#compareTo}, so {@code autonomous-100 < autonomous-500 < autonomous-1000};
     * names equal so (e.g. {@code x-01}, {@code x-1}) by their text.
     */
    static final Comparator<String> NAMES = ParameterOrder::compareNames;

    private ParameterOrder() {
    }

    private static int compareNames(String a, String b) {
        int i = 0;
        int j = 0;
        while (i < a.length() && j < b.length()) {
            boolean digitA = Character.isDigit(a.charAt(i));
            boolean digitB = Character.isDigit(b.charAt(j));
            int endA = chunkEnd(a, i, digitA);
            int endB = chunkEnd(b, j, digitB);
            int c;
            if (digitA && digitB) {
                c = new java.math.BigInteger(a.substring(i, endA)).compareTo(new java.math.BigInteger(b.substring(j, endB)));
            } else {
                c = a.substring(i, endA).compareTo(b.substring(j, endB));
            }
            if (c != 0) {
                return c;
            }
            i = endA;
            j = endB;
        }
        int byRest = Boolean.compare(i < a.length(), j < b.length());
        return byRest != 0 ? byRest : a.compareTo(b);
    }

    private static int chunkEnd(String s, int from, boolean digits) {
        int k = from;
        while (k < s.length() && Character.isDigit(s.charAt(k)) == digits) {
            k++;
        }
        return k;
    }

    /**
     * @param text a parameter value
     * @return its numeric value, or null when it is not a plain decimal number
     */
    static BigDecimal number(String text) {
        try {
            return new BigDecimal(text.strip());
        } catch (NumberFormatException e) {
            return null;
        }
    }

    private static int compareValues(String a, String b) {
        BigDecimal x = number(a);
        BigDecimal y = number(b);
        if (x != null && y != null) {
            int byValue = x.compareTo(y);
            return byValue != 0 ? byValue : a.compareTo(b);
        }
        if (x != null) {
            return -1;
        }
        if (y != null) {
            return 1;
        }
        return a.compareTo(b);
    }

    private static int compareMaps(SortedMap<String, String> a, SortedMap<String, String> b) {
        Iterator<Map.Entry<String, String>> i = a.entrySet().iterator();
        Iterator<Map.Entry<String, String>> j = b.entrySet().iterator();
        while (i.hasNext() && j.hasNext()) {
            Map.Entry<String, String> x = i.next();
            Map.Entry<String, String> y = j.next();
            int byKey = x.getKey().compareTo(y.getKey());
            if (byKey != 0) {
                return byKey;
            }
            int byValue = compareValues(x.getValue(), y.getValue());
            if (byValue != 0) {
                return byValue;
            }
        }
        return Boolean.compare(i.hasNext(), j.hasNext());
    }
}
