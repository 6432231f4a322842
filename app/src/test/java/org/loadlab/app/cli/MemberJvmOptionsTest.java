package org.loadlab.app.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The member JVMs LoadLab starts get a 256 MB first metadata threshold (no full collection for
 * "Metadata GC Threshold" in the middle of an experiment), unless the user sets one.
 */
class MemberJvmOptionsTest {
    @Test
    void theMetadataThresholdGoesFirstAndTheUsersOptionsFollowInOrder() {
        assertEquals(List.of("-XX:MetaspaceSize=256m", "-Xmx512m", "-XX:+UseParallelGC"),
                MemberJvmOptions.withDefaults(List.of("-Xmx512m", "-XX:+UseParallelGC")));
        assertEquals(List.of("-XX:MetaspaceSize=256m"), MemberJvmOptions.withDefaults(List.of()));
    }

    @Test
    void aThresholdTheUserGivesIsTheOnlyOne() {
        List<String> given = List.of("-Xmx1g", "-XX:MetaspaceSize=64m");
        assertEquals(given, MemberJvmOptions.withDefaults(given));
    }
}
