package org.loadlab.app.build;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.typesafe.config.ConfigFactory;
import org.junit.jupiter.api.Test;

/**
 * {@link CompactReferenceConf} drops whole comment lines and blank lines only: values, comments
 * after a value and triple-quoted strings (even lines in them that look like comments) stay,
 * and the text parses to the same configuration.
 */
class CompactReferenceConfTest {
    private static final String TEXT = String.join("\n",
            "# a comment",
            "  // another one",
            "",
            "pekko {",
            "   # indented comment",
            "  loglevel = \"INFO\" # a comment after a value stays",
            "  url = \"http://host/#x\"",
            "  text = \"\"\"first line",
            "# not a comment: inside the triple quotes",
            "",
            "last line\"\"\"",
            "  after = ${pekko.loglevel}",
            "}",
            "");

    @Test
    void onlyWholeCommentAndBlankLinesGo() {
        assertEquals(String.join("\n",
                "pekko {",
                "  loglevel = \"INFO\" # a comment after a value stays",
                "  url = \"http://host/#x\"",
                "  text = \"\"\"first line",
                "# not a comment: inside the triple quotes",
                "",
                "last line\"\"\"",
                "  after = ${pekko.loglevel}",
                "}",
                ""), CompactReferenceConf.compact(TEXT));
    }

    @Test
    void theCompactTextParsesToTheSameConfiguration() {
        assertEquals(ConfigFactory.parseString(TEXT).resolve(), ConfigFactory.parseString(CompactReferenceConf.compact(TEXT)).resolve());
        assertEquals("first line\n# not a comment: inside the triple quotes\n\nlast line",
                ConfigFactory.parseString(CompactReferenceConf.compact(TEXT)).getString("pekko.text"));
    }
}
