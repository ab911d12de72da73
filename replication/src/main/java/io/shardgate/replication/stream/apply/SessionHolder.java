package io.shardgate.replication.stream.apply;

import static java.util.Objects.requireNonNull;

/** A target session opened on first use and again after a connection error. Used by one thread at a time. */
final class SessionHolder {
    private final ApplyTarget target;
    private TargetSession session;

    SessionHolder(ApplyTarget target) {
        this.target = requireNonNull(target, "target is null");
    }

    /** Opens the session; throws a retryable {@link ApplyException} while the target is unreachable. */
    TargetSession get() {
        if (session == null) {
            session = target.open();
        }
        return session;
    }

    void reopen() {
        close();
    }

    void close() {
        if (session != null) {
            session.close();
            session = null;
        }
    }
}
