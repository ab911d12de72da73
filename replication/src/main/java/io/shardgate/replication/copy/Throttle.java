package io.shardgate.replication.copy;

import java.util.List;
import java.util.Optional;

/**
 * Asked between chunks whether the copy must wait, and why, such as
 * {@code "replica 127.0.0.1:4001 lags 1.8 s > 1 s"}: the copy then closes its snapshot (which
 * lets the source purge old row versions), reports {@code throttled: <reason>} in its progress and
 * asks again after a pause. Implementations: {@link Throttles}.
 */
@FunctionalInterface
public interface Throttle {
    Throttle NEVER = Optional::empty;

    /** Why the copy must wait now; empty to go on. Must not block for long. */
    Optional<String> reason();

    /** The first reason of any of {@code throttles}. */
    static Throttle anyOf(List<Throttle> throttles) {
        List<Throttle> all = List.copyOf(throttles);
        return () -> {
            for (Throttle throttle : all) {
                Optional<String> reason = throttle.reason();
                if (reason.isPresent()) {
                    return reason;
                }
            }
            return Optional.empty();
        };
    }
}
