package org.loadlab.shell.cluster;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.databind.ser.std.StdSerializer;
import java.io.IOException;

/**
 * JSON numbers for the HTTP control API and the statuses it serves: a number with no value
 * (NaN: a score the policy does not compute, the CPU of a node with no load view, a percentile
 * of no samples; or an infinity) is written as JSON {@code null}. Jackson's default writes
 * the strings {@code "NaN"} and {@code "Infinity"}, which a JSON client reads as text where
 * the schema says number, so every client had to special-case them.
 */
public final class JsonNumbers {
    private JsonNumbers() {
    }

    /** Writes a finite double or float as a number (a float as a float), NaN and the infinities as {@code null}. */
    private static final class FiniteOrNull extends StdSerializer<Number> {
        private static final long serialVersionUID = 1L;

        FiniteOrNull() {
            super(Number.class);
        }

        @Override
        public void serialize(Number v, JsonGenerator gen, SerializerProvider provider) throws IOException {
            if (!Double.isFinite(v.doubleValue())) {
                gen.writeNull();
            } else if (v instanceof Float f) {
                gen.writeNumber(f);
            } else {
                gen.writeNumber(v.doubleValue());
            }
        }
    }

    /**
     * The Jackson module that writes non-finite {@code double}, {@code Double}, {@code float}
     * and {@code Float} values (fields, map values, list elements) as {@code null}; register
     * it on an {@code ObjectMapper} with {@code registerModule}.
     */
    public static SimpleModule nonFiniteAsNull() {
        SimpleModule m = new SimpleModule("loadlab-non-finite-as-null");
        FiniteOrNull finiteOrNull = new FiniteOrNull();
        for (Class<? extends Number> type : java.util.List.of(Double.class, Double.TYPE, Float.class, Float.TYPE)) {
            m.addSerializer(type, finiteOrNull);
        }
        return m;
    }
}
