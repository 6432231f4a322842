package org.loadlab.shell.cluster;

import java.io.NotSerializableException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.apache.pekko.actor.ExtendedActorSystem;
import org.apache.pekko.serialization.ByteBufferSerializer;
import org.apache.pekko.serialization.SerializerWithStringManifest;
import org.loadlab.kernel.BalancerId;
import org.loadlab.node.protocol.BalancerMessage;
import org.loadlab.node.protocol.LoadSnapshot;
import org.loadlab.node.protocol.NodeMessage;
import org.loadlab.node.protocol.ResponseStatus;

/**
 * Pekko serializer for the messages every routed request sends between members: the
 * {@link BalancerMessage.Arrival}, {@link NodeMessage.Probe}, {@link BalancerMessage.ProbeReply},
 * {@link NodeMessage.Request} and {@link BalancerMessage.Response}, and the nodes' periodic
 * {@link BalancerMessage.LoadReport} and {@link BalancerMessage.Heartbeat}. Each is written as
 * its fields in their declared order, fixed width and little-endian, straight into Artery's
 * buffer ({@link ByteBufferSerializer}); every other message stays Jackson CBOR.
 *
 * <p>Why not CBOR for these: Jackson made a parser or generator with its contexts, buffers
 * and a creator's value buffer for every message, the largest part of what the members
 * allocated per message, and serialization took 15–17% of their CPU samples at the
 * cluster's saturation rate (docs/cluster.md, "The messages on the wire"). The shapes are
 * this class's own (a response's status by its ordinal): members of one cluster must run the
 * same LoadLab version, as for every other message. The serializer is bound in the shell's reference.conf
 * ({@code loadlab-hot-path}), so the cluster and the messaging baseline of
 * {@code cluster-bench} both use it.
 *
 * <p>Source: Pekko's serialization API (SerializerWithStringManifest, ByteBufferSerializer).
 */
public final class HotPathSerializer extends SerializerWithStringManifest implements ByteBufferSerializer {
    /** This serializer's identifier (Pekko reserves 0–40). */
    public static final int IDENTIFIER = 7101;

    private static final String ARRIVAL = "A";
    private static final String PROBE = "P";
    private static final String PROBE_REPLY = "R";
    private static final String REQUEST = "Q";
    private static final String RESPONSE = "S";
    private static final String LOAD_REPORT = "L";
    private static final String HEARTBEAT = "H";
    private static final int SNAPSHOT_BYTES = 3 * Integer.BYTES + 8 * Double.BYTES + 1;
    private static final ResponseStatus[] STATUSES = ResponseStatus.values();

    /**
     * Made by Pekko's serialization extension.
     *
     * @param system the actor system (unused: nothing here depends on it)
     */
    public HotPathSerializer(ExtendedActorSystem system) {
    }

    @Override
    public int identifier() {
        return IDENTIFIER;
    }

    /**
     * @return the one-letter manifest of {@code o}'s type
     * @throws IllegalArgumentException if {@code o} is not one of this serializer's messages
     */
    @Override
    public String manifest(Object o) {
        if (o instanceof NodeMessage.Probe) {
            return PROBE;
        } else if (o instanceof BalancerMessage.ProbeReply) {
            return PROBE_REPLY;
        } else if (o instanceof NodeMessage.Request) {
            return REQUEST;
        } else if (o instanceof BalancerMessage.Response) {
            return RESPONSE;
        } else if (o instanceof BalancerMessage.Arrival) {
            return ARRIVAL;
        } else if (o instanceof BalancerMessage.LoadReport) {
            return LOAD_REPORT;
        } else if (o instanceof BalancerMessage.Heartbeat) {
            return HEARTBEAT;
        }
        throw unknown(o);
    }

    /** @return {@code o}'s bytes (for callers without a buffer; Artery uses {@link #toBinary(Object, ByteBuffer)}) */
    @Override
    public byte[] toBinary(Object o) {
        ByteBuffer buffer = ByteBuffer.allocate(64 + SNAPSHOT_BYTES);
        toBinary(o, buffer);
        byte[] bytes = new byte[buffer.position()];
        buffer.flip().get(bytes);
        return bytes;
    }

    /**
     * Writes {@code o}'s fields into {@code buffer} from its position.
     *
     * @throws IllegalArgumentException if {@code o} is not one of this serializer's messages
     * @throws java.nio.BufferOverflowException if the buffer has too little room (Artery's frame is far larger)
     */
    @Override
    public void toBinary(Object o, ByteBuffer buffer) {
        ByteOrder order = buffer.order();
        buffer.order(ByteOrder.LITTLE_ENDIAN);
        try {
            write(o, buffer);
        } finally {
            buffer.order(order);
        }
    }

    private static void write(Object o, ByteBuffer b) {
        if (o instanceof NodeMessage.Probe p) {
            b.putLong(p.probeId()).putInt(p.replyTo().index());
        } else if (o instanceof BalancerMessage.ProbeReply r) {
            b.putLong(r.probeId());
            writeSnapshot(r.load(), b);
        } else if (o instanceof NodeMessage.Request r) {
            b.putLong(r.id()).putDouble(r.demand()).putDouble(r.arrivalTime()).putInt(r.replyTo().index())
                    .putDouble(r.routedAt());
        } else if (o instanceof BalancerMessage.Response r) {
            b.putLong(r.id()).putInt(r.node()).putDouble(r.arrivalTime()).put((byte) r.status().ordinal())
                    .putDouble(r.routedAt());
        } else if (o instanceof BalancerMessage.Arrival a) {
            b.putLong(a.id()).putDouble(a.demand()).putDouble(a.arrivalTime()).putLong(a.key()).putInt(a.endpoint());
        } else if (o instanceof BalancerMessage.LoadReport r) {
            writeSnapshot(r.load(), b);
        } else if (o instanceof BalancerMessage.Heartbeat h) {
            b.putInt(h.node()).putDouble(h.sentAt());
        } else {
            throw unknown(o);
        }
    }

    private static void writeSnapshot(LoadSnapshot s, ByteBuffer b) {
        b.putInt(s.node()).putInt(s.queueLength()).putInt(s.inService()).putDouble(s.serviceRate())
                .putDouble(s.cpu()).putDouble(s.mem()).putDouble(s.io()).putDouble(s.net()).putDouble(s.correction())
                .putDouble(s.sampledAt()).put((byte) (s.available() ? 1 : 0)).putDouble(s.latencyEstimate());
    }

    /**
     * @return the message {@code bytes} hold
     * @throws NotSerializableException for an unknown manifest or bytes that are no such message
     */
    @Override
    public Object fromBinary(byte[] bytes, String manifest) throws NotSerializableException {
        return fromBinary(ByteBuffer.wrap(bytes), manifest);
    }

    /**
     * Reads one message of type {@code manifest} from {@code buffer}'s position.
     *
     * @return the message
     * @throws NotSerializableException for an unknown manifest, or bytes that are cut short or hold a value
     *     the message refuses (an unknown status, a negative balancer index)
     */
    @Override
    public Object fromBinary(ByteBuffer buffer, String manifest) throws NotSerializableException {
        ByteOrder order = buffer.order();
        buffer.order(ByteOrder.LITTLE_ENDIAN);
        try {
            return read(buffer, manifest);
        } catch (java.nio.BufferUnderflowException | IllegalArgumentException e) {
            throw new NotSerializableException("bytes of manifest '" + manifest + "' are no such LoadLab message: " + e);
        } finally {
            buffer.order(order);
        }
    }

    private static Object read(ByteBuffer b, String manifest) throws NotSerializableException {
        switch (manifest) {
            case PROBE:
                return new NodeMessage.Probe(b.getLong(), new BalancerId(b.getInt()));
            case PROBE_REPLY:
                return new BalancerMessage.ProbeReply(b.getLong(), readSnapshot(b));
            case REQUEST:
                return new NodeMessage.Request(b.getLong(), b.getDouble(), b.getDouble(), new BalancerId(b.getInt()),
                        b.getDouble());
            case RESPONSE:
                return new BalancerMessage.Response(b.getLong(), b.getInt(), b.getDouble(), status(b.get()), b.getDouble());
            case ARRIVAL:
                return new BalancerMessage.Arrival(b.getLong(), b.getDouble(), b.getDouble(), b.getLong(), b.getInt());
            case LOAD_REPORT:
                return new BalancerMessage.LoadReport(readSnapshot(b));
            case HEARTBEAT:
                return new BalancerMessage.Heartbeat(b.getInt(), b.getDouble());
            default:
                throw new NotSerializableException("unknown manifest '" + manifest + "' for " + HotPathSerializer.class.getName()
                        + "; allowed: A, P, R, Q, S, L, H");
        }
    }

    private static LoadSnapshot readSnapshot(ByteBuffer b) {
        return new LoadSnapshot(b.getInt(), b.getInt(), b.getInt(), b.getDouble(), b.getDouble(), b.getDouble(), b.getDouble(),
                b.getDouble(), b.getDouble(), b.getDouble(), b.get() != 0, b.getDouble());
    }

    private static ResponseStatus status(byte ordinal) {
        if (ordinal < 0 || ordinal >= STATUSES.length) {
            throw new IllegalArgumentException("response status " + ordinal + " is not 0.." + (STATUSES.length - 1));
        }
        return STATUSES[ordinal];
    }

    private static IllegalArgumentException unknown(Object o) {
        return new IllegalArgumentException(HotPathSerializer.class.getSimpleName() + " does not serialize "
                + (o == null ? "null" : o.getClass().getName()));
    }
}
