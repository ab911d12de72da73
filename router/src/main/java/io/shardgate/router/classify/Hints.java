package io.shardgate.router.classify;

import java.util.OptionalLong;

import static java.util.Objects.requireNonNull;

/**
 * Routing hints a client put in the statement as {@code /*+ shardgate primary *}{@code /} or
 * {@code /*+ shardgate max_lag_ms=N *}{@code /}. They travel with the request, never through a static.
 *
 * @param maxLagMs the largest replication lag, in milliseconds, the client accepts for this statement
 * @param forcePrimary the statement must run on the primary
 */
public record Hints(OptionalLong maxLagMs, boolean forcePrimary) {

    /** No hints. */
    public static final Hints NONE = new Hints(OptionalLong.empty(), false);

    public Hints {
        requireNonNull(maxLagMs, "maxLagMs is null");
        if (maxLagMs.isPresent() && maxLagMs.getAsLong() < 0) {
            throw new IllegalArgumentException("maxLagMs: " + maxLagMs.getAsLong() + " (expected: >= 0)");
        }
    }
}
