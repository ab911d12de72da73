package io.shardgate.proxy.sharding;

/** Error text that keeps the real reason: a pool's "connection is not available" alone hides it. */
public final class FailureText {
    private FailureText() {
    }

    /** {@code failure}'s message, followed by its root cause's when that differs. */
    public static String of(Throwable failure) {
        Throwable root = failure;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        String message = String.valueOf(failure.getMessage());
        if (root == failure || root.getMessage() == null || message.contains(root.getMessage())) {
            return message;
        }
        return message + " (caused by: " + root.getMessage() + ")";
    }
}
