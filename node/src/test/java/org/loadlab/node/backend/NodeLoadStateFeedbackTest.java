package org.loadlab.node.backend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

/** Hand-computed ASMF C_j updates of {@link NodeLoadState}'s feedback correction. */
class NodeLoadStateFeedbackTest {
    private static final double EPS = 1e-12;

    private static NodeLoadState feedback(FeedbackSettings settings) {
        return new NodeLoadState(0.1, settings);
    }

    private static void window(NodeLoadState f, double start, double width, int arrivals, int completions) {
        for (int i = 0; i < arrivals; i++) {
            f.countArrival(start + width * (i + 0.5) / (arrivals + completions + 1));
        }
        for (int i = 0; i < completions; i++) {
            f.countCompletion(start + width * (arrivals + i + 0.5) / (arrivals + completions + 1));
        }
    }

    @Test
    void tenArrivalsFourCompletionsInATwoSecondWindow() {
        NodeLoadState f = feedback(new FeedbackSettings(0.05, 0.3, 2.5, 2.0));
        window(f, 0.0, 2.0, 10, 4);
        assertEquals(1.0, f.correction(), EPS, "window not closed yet");
        f.advanceFeedback(1.99);
        assertEquals(1.0, f.correction(), EPS);
        f.advanceFeedback(2.5);
        // Δ = (10 - 4) / 2 = 3 requests/s, C = 1 - 0.05 * 3 = 0.85.
        assertEquals(3.0, f.lastDelta(), EPS);
        assertEquals(0.85, f.correction(), EPS);
        // An empty window changes nothing.
        f.advanceFeedback(4.5);
        assertEquals(0.0, f.lastDelta(), EPS);
        assertEquals(0.85, f.correction(), EPS);
        // Next window: 8 completions over 2 s: Δ = -4, C = 0.85 + 0.2 = 1.05.
        window(f, 6.0, 2.0, 0, 8);
        f.advanceFeedback(8.0);
        assertEquals(-4.0, f.lastDelta(), EPS);
        assertEquals(1.05, f.correction(), EPS);
    }

    @Test
    void countsOfALongPastWindowAreAppliedOnceWhenTheNextEventComes() {
        NodeLoadState f = feedback(new FeedbackSettings(0.1, 0.3, 2.5, 1.0));
        window(f, 0.0, 1.0, 3, 1); // Δ = 2
        f.countCompletion(7.3); // closes window 0 only; windows 1..6 were empty
        assertEquals(0.8, f.correction(), EPS);
        f.advanceFeedback(8.0); // window 7: 0 arrivals, 1 completion -> Δ = -1
        assertEquals(0.9, f.correction(), EPS);
    }

    @Test
    void clipsAtCminAndCmax() {
        NodeLoadState low = feedback(new FeedbackSettings(1.0, 0.3, 2.5, 1.0));
        window(low, 0.0, 1.0, 10, 4);
        low.advanceFeedback(1.5);
        assertEquals(0.3, low.correction(), EPS); // 1 - 6 clipped

        NodeLoadState high = feedback(new FeedbackSettings(1.0, 0.3, 2.5, 1.0));
        window(high, 0.0, 1.0, 0, 10);
        high.advanceFeedback(1.5);
        assertEquals(2.5, high.correction(), EPS); // 1 + 10 clipped
        window(high, 1.0, 1.0, 4, 0);
        high.advanceFeedback(2.5);
        assertEquals(0.3, high.correction(), EPS); // 2.5 - 4 clipped
    }

    @Test
    void etaZeroKeepsOne() {
        NodeLoadState f = feedback(new FeedbackSettings(0.0, 0.3, 2.5, 1.0));
        window(f, 0.0, 1.0, 10, 4);
        window(f, 1.0, 1.0, 0, 30);
        f.advanceFeedback(10);
        assertEquals(1.0, f.correction(), EPS);
        NodeLoadState off = feedback(FeedbackSettings.OFF);
        window(off, 0.0, 1.0, 10, 4);
        off.advanceFeedback(3);
        assertEquals(1.0, off.correction(), EPS);
    }

    @Test
    void settingsValidation() {
        assertThrows(IllegalArgumentException.class, () -> new FeedbackSettings(-0.1, 0.3, 2.5, 1));
        assertThrows(IllegalArgumentException.class, () -> new FeedbackSettings(0.1, 0, 2.5, 1));
        assertThrows(IllegalArgumentException.class, () -> new FeedbackSettings(0.1, 3, 2.5, 1));
        assertThrows(IllegalArgumentException.class, () -> new FeedbackSettings(0.1, 0.3, 2.5, 0));
    }
}
