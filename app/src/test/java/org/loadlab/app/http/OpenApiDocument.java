package org.loadlab.app.http;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaLocation;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.dialect.Dialects;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The control API's OpenAPI document, the YAML block under "OpenAPI description" in
 * docs/http-api.md, for tests that check an answer against the schema it promises. Schemas
 * are read in the OpenAPI 3.0 dialect ({@code nullable}, {@code $ref} to
 * {@code #/components/schemas/...}) by networknt's validator.
 */
final class OpenApiDocument {
    /** Where the document lives, from the app module's directory (the tests' working directory). */
    static final Path FILE = Path.of("..", "docs", "http-api.md");
    // The document's id for the validator, which loads it from memory (never from the network):
    // schemas are addressed as fragments of it, so their $refs to #/components/... resolve.
    private static final String BASE = "https://loadlab.invalid/docs/http-api.json";

    private final JsonNode document;
    private final SchemaRegistry registry;

    private OpenApiDocument(JsonNode document) {
        this.document = document;
        this.registry = SchemaRegistry.withDefaultDialect(Dialects.getOpenApi30(),
                builder -> builder.schemas(java.util.Map.of(BASE, document.toString())));
    }

    /** Reads the document from docs/http-api.md. */
    static OpenApiDocument load() {
        try {
            String md = Files.readString(FILE, StandardCharsets.UTF_8);
            int heading = md.indexOf("## OpenAPI description");
            int start = md.indexOf("```yaml\n", heading);
            int end = md.indexOf("\n```", start + 8);
            if (heading < 0 || start < 0 || end < 0) {
                throw new IllegalStateException(FILE + " has no ```yaml block under '## OpenAPI description'");
            }
            return new OpenApiDocument(new YAMLMapper().readTree(md.substring(start + 8, end + 1)));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The document as a tree. */
    JsonNode tree() {
        return document;
    }

    /**
     * What is wrong with {@code body} as the answer of {@code method path} with {@code status}.
     *
     * @return one line per violation (the body's JSON path and what the schema wants); empty when it conforms
     * @throws IllegalArgumentException if the document has no JSON schema for that answer
     */
    List<String> violations(String method, String path, int status, JsonNode body) {
        String pointer = "/paths/" + escape(path) + "/" + method.toLowerCase(java.util.Locale.ROOT) + "/responses/" + status
                + "/content/application~1json/schema";
        if (document.at(pointer).isMissingNode()) {
            throw new IllegalArgumentException(FILE + " has no schema at " + pointer);
        }
        Schema schema = registry.getSchema(SchemaLocation.of(BASE + "#" + pointer));
        return schema.validate(body).stream().map(Object::toString).toList();
    }

    private static String escape(String segment) {
        return segment.replace("~", "~0").replace("/", "~1");
    }
}
