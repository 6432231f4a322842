package org.loadlab.analysis.run;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Base64;
import java.util.zip.Deflater;
import org.HdrHistogram.Histogram;

/**
 * HdrHistogram's V2 encoding of a histogram, made with scratch space reused per thread.
 *
 * <p>{@link #uncompressed(Histogram)} is {@code Histogram.encodeIntoByteBuffer}'s output: a
 * 40-byte header (cookie, payload length, normalizing index offset, significant digits,
 * lowest discernible value, highest trackable value, integer-to-double ratio), then the counts
 * by index up to the maximum value's, each a ZigZag LEB128 long, a run of more than one empty
 * bucket written as minus its length. {@link #compressedBase64(byte[])} wraps that in the
 * compressed V2 encoding exactly as {@code Histogram.encodeIntoCompressedByteBuffer} does
 * (cookie, compressed length, zlib deflate at {@link Deflater#DEFAULT_COMPRESSION}), so the
 * text is byte for byte {@code Base64(histogram.encodeIntoCompressedByteBuffer(..))}.
 *
 * <p>Why not HdrHistogram's own call: per encoding it allocates and zeroes two buffers of 9
 * bytes per bucket (about 220 kB for a histogram reaching seconds in nanoseconds) and creates
 * a zlib stream; in a campaign of short runs that was half of a run's {@code finish}. Here
 * each thread keeps one scratch buffer and one {@link Deflater} (reset between uses, which
 * gives the same bytes as a fresh one at the same level).
 *
 * <p>Source: HdrHistogram 2.2.2, {@code AbstractHistogram.encodeIntoByteBuffer},
 * {@code encodeIntoCompressedByteBuffer}, {@code ZigZagEncoding}; the encoding is documented
 * in HdrHistogram's {@code HistogramLogWriter}.
 */
final class V2Encoding {

    /** Size of the uncompressed encoding's header, bytes; the counts start after it. */
    static final int HEADER_BYTES = 40;

    /**
     * The compressed V2 cookie with the TLZE flag ({@code V2CompressedEncodingCookieBase | 0x10}
     * in HdrHistogram 2.2.2); the uncompressed cookie is one less.
     */
    static final int COMPRESSED_COOKIE = 0x1c849314;

    private static final ThreadLocal<Scratch> SCRATCH = ThreadLocal.withInitial(Scratch::new);

    private V2Encoding() {
    }

    /**
     * The uncompressed V2 encoding of {@code histogram}.
     *
     * @param histogram any histogram with non-negative counts; not modified
     * @return a new array of exactly the encoding's length, bytes
     * @throws RuntimeException as HdrHistogram's encoder, if a count is negative
     */
    static byte[] uncompressed(Histogram histogram) {
        Scratch scratch = SCRATCH.get();
        ByteBuffer buffer = scratch.buffer(histogram.getNeededByteBufferCapacity());
        int length = histogram.encodeIntoByteBuffer(buffer);
        return Arrays.copyOf(buffer.array(), length);
    }

    /**
     * The Base64 text of the compressed V2 encoding, from the uncompressed one.
     *
     * @param uncompressed output of {@link #uncompressed(Histogram)}; not modified
     * @return Base64 (RFC 4648, no line breaks) of cookie, compressed length and zlib stream
     */
    static String compressedBase64(byte[] uncompressed) {
        Scratch scratch = SCRATCH.get();
        Deflater deflater = scratch.deflater();
        byte[] out = scratch.output(uncompressed.length + 64);
        int length = 8;
        try {
            deflater.setInput(uncompressed);
            deflater.finish();
            while (!deflater.finished()) {
                if (length == out.length) {
                    out = scratch.output(2 * out.length);
                }
                length += deflater.deflate(out, length, out.length - length);
            }
        } finally {
            deflater.reset();
        }
        ByteBuffer header = ByteBuffer.wrap(out, 0, 8);
        header.putInt(COMPRESSED_COOKIE);
        header.putInt(length - 8);
        return Base64.getEncoder().encodeToString(Arrays.copyOf(out, length));
    }

    /** One thread's reusable encoder state: a scratch buffer, an output array and a zlib stream. */
    private static final class Scratch {
        private ByteBuffer buffer = ByteBuffer.allocate(0);
        private byte[] output = new byte[0];
        private Deflater deflater;

        /** A cleared buffer of at least {@code capacity} bytes (HdrHistogram's byte order, big-endian). */
        ByteBuffer buffer(int capacity) {
            if (buffer.capacity() < capacity) {
                buffer = ByteBuffer.allocate(capacity);
            }
            buffer.clear();
            return buffer;
        }

        /** An output array of at least {@code size} bytes whose content up to the old size is kept. */
        byte[] output(int size) {
            if (output.length < size) {
                output = Arrays.copyOf(output, size);
            }
            return output;
        }

        /** The thread's deflater, reset after every use: HdrHistogram's level and zlib wrapper. */
        Deflater deflater() {
            if (deflater == null) {
                deflater = new Deflater(Deflater.DEFAULT_COMPRESSION);
            }
            return deflater;
        }
    }
}
