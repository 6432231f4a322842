package org.loadlab.app.cli;

/**
 * Work that started but could not give a valid result for a reason the user can act on
 * (e.g. live mode fell behind real time); its message says why and what to do. Exit code 1.
 */
final class CommandFailedException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    CommandFailedException(String message) {
        super(message);
    }
}
