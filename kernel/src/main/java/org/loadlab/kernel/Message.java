package org.loadlab.kernel;

/**
 * A protocol message exchanged between logic cores (records in sealed protocol
 * interfaces). Every message states an estimate of its size on the wire so that both
 * shells can report bytes transferred without serializing.
 *
 * <p>Source: DESIGN.md ("Messages are records in sealed protocol interfaces").
 */
public interface Message extends CborSerializable {
    /**
     * Estimated size of this message on the wire, in bytes (header plus fields, as a
     * compact binary encoding would carry them). Used for the {@code bytes_est} metric.
     */
    int estimatedBytes();
}
