package org.loadlab.app.cli;

/** A flag or argument that is wrong; its message names it, the value and what is allowed. */
final class BadInputException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    BadInputException(String message) {
        super(message);
    }
}
