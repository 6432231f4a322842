package org.loadlab.kernel;

/**
 * The kind of a message as results name it: its class's simple name (e.g. {@code Probe}),
 * computed once per class.
 */
public final class MessageKinds {
    private static final ClassValue<String> KIND = new ClassValue<>() {
        @Override
        protected String computeValue(Class<?> type) {
            return type.getSimpleName().intern();
        }
    };

    private MessageKinds() {
    }

    /** The kind of {@code message}. */
    public static String of(Message message) {
        return KIND.get(message.getClass());
    }

    /** The kind of messages of class {@code type}. */
    public static String of(Class<?> type) {
        return KIND.get(type);
    }
}
