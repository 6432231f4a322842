package org.loadlab.experiment.campaign;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.ser.std.StdSerializer;
import java.io.IOException;
import org.loadlab.analysis.run.SeriesPoint;

/**
 * Writes a {@link SeriesPoint} as Jackson's bean serializer does (the same four fields in
 * {@code SeriesPoint}'s {@code @JsonPropertyOrder}, the same number formatting), without its
 * reflective accessor call and property writer per field: a campaign run's series has one
 * point per second, so these were most of the reflection in a run's result JSON
 * ({@link CampaignResults#encode}). Registered only on the campaign's mapper; the test
 * {@code SeriesPointJsonTest} checks the text against the bean serializer's.
 *
 * <p>Source: Jackson databind 2.x ({@code BeanSerializer}, {@code NumberSerializers}).
 */
final class SeriesPointJson extends StdSerializer<SeriesPoint> {

    SeriesPointJson() {
        super(SeriesPoint.class);
    }

    /**
     * Writes one point.
     *
     * @param point the point, not null
     * @param gen the generator
     * @param provider unused
     * @throws IOException if the generator cannot write
     */
    @Override
    public void serialize(SeriesPoint point, JsonGenerator gen, SerializerProvider provider) throws IOException {
        gen.writeStartObject(point);
        gen.writeNumberField("timeSeconds", point.timeSeconds());
        gen.writeNumberField("meanQueue", point.meanQueue());
        gen.writeNumberField("maxQueue", point.maxQueue());
        gen.writeNumberField("throughputRps", point.throughputRps());
        gen.writeEndObject();
    }
}
