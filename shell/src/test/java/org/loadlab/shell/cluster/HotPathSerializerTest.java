package org.loadlab.shell.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.NotSerializableException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.junit.jupiter.api.Test;
import org.loadlab.kernel.BalancerId;
import org.loadlab.node.protocol.BalancerMessage;
import org.loadlab.node.protocol.NodeMessage;
import org.loadlab.node.protocol.ResponseStatus;

/** Bytes that are no message of their manifest are refused by name, never read as another message. */
class HotPathSerializerTest {
    private final HotPathSerializer serializer = new HotPathSerializer(null);

    @Test
    void bytesCutShortAreRefusedNamingTheManifest() {
        byte[] probe = serializer.toBinary(new NodeMessage.Probe(17L, new BalancerId(2)));
        assertEquals(12, probe.length, "a probe is its id and its balancer's index");
        byte[] cut = java.util.Arrays.copyOf(probe, 10);
        NotSerializableException e = assertThrows(NotSerializableException.class, () -> serializer.fromBinary(cut, "P"));
        assertTrue(e.getMessage().contains("bytes of manifest 'P' are no such LoadLab message"), e.getMessage());
    }

    @Test
    void valuesTheMessageRefusesAreRefused() {
        byte[] response = serializer.toBinary(new BalancerMessage.Response(17L, 3, 3.5, ResponseStatus.ERROR, 4.0));
        response[8 + 4 + 8] = 42; // the status
        NotSerializableException status = assertThrows(NotSerializableException.class, () -> serializer.fromBinary(response, "S"));
        assertTrue(status.getMessage().contains("response status 42 is not 0..6"), status.getMessage());
        byte[] probe = ByteBuffer.allocate(12).order(ByteOrder.LITTLE_ENDIAN).putLong(1).putInt(-3).array();
        NotSerializableException balancer = assertThrows(NotSerializableException.class, () -> serializer.fromBinary(probe, "P"));
        assertTrue(balancer.getMessage().contains("balancer index must be >= 0, was -3"), balancer.getMessage());
    }

    @Test
    void anUnknownManifestOrMessageIsNamed() {
        NotSerializableException manifest = assertThrows(NotSerializableException.class,
                () -> serializer.fromBinary(new byte[12], "Z"));
        assertTrue(manifest.getMessage().contains("unknown manifest 'Z'") && manifest.getMessage().contains("allowed: A, P, R, Q, S, L, H"),
                manifest.getMessage());
        IllegalArgumentException message = assertThrows(IllegalArgumentException.class,
                () -> serializer.manifest(new NodeMessage.Fail()));
        assertTrue(message.getMessage().contains("does not serialize org.loadlab.node.protocol.NodeMessage$Fail"),
                message.getMessage());
    }
}
