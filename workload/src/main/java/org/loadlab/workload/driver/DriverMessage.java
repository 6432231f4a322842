package org.loadlab.workload.driver;

import org.loadlab.kernel.Message;

/** Messages of the workload driver: only its own arrival timer. */
public sealed interface DriverMessage extends Message {
    /** Timer: the next request arrives now. */
    record NextArrival() implements DriverMessage {
        @Override
        public int estimatedBytes() {
            return 0;
        }
    }
}
