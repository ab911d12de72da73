package io.shardgate.proxy.config;

import java.time.Duration;

import static java.util.Objects.requireNonNull;

/**
 * Read/write split settings (the {@code routing} section).
 *
 * @param maxReplicaLagMs   the default freshness budget: a read may go to a replica whose measured lag is at most this
 * @param fallback          what a read gets when no replica fits its budget
 * @param causalReads       read-your-writes: off, within a session, or also across sessions with a token
 * @param causalWait        the longest Shardgate waits (MASTER_GTID_WAIT) for a replica to apply a session's write
 * @param lagPollInterval   how often the lag monitor polls each server
 */
public record RoutingConfig(long maxReplicaLagMs, Fallback fallback, CausalReads causalReads, Duration causalWait,
                            Duration lagPollInterval) {
    public static final RoutingConfig DEFAULTS = new RoutingConfig(1000, Fallback.PRIMARY, CausalReads.SESSION,
            Duration.ofMillis(500), Duration.ofMillis(50));

    public enum Fallback { PRIMARY, ERROR }

    public enum CausalReads { OFF, SESSION, TOKEN }

    public RoutingConfig {
        requireNonNull(fallback, "fallback is null");
        requireNonNull(causalReads, "causalReads is null");
        requireNonNull(causalWait, "causalWait is null");
        requireNonNull(lagPollInterval, "lagPollInterval is null");
    }
}
