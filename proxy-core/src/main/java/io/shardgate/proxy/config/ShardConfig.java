package io.shardgate.proxy.config;

import io.shardgate.storage.Engine;

import java.util.List;

import static java.util.Objects.requireNonNull;

/**
 * One shard: a primary and its replicas on one engine, owning {@code keyRange} of the keyspace
 * (Vitess-style hex bounds; empty when not configured), with the {@code durability} its primary
 * must provide.
 */
public record ShardConfig(String name, Engine engine, HostPort primary, List<HostPort> replicas, String keyRange,
                          Durability durability) {
    /** What a commit the primary acknowledged survives. */
    public enum Durability {
        /** The primary's own crash recovery (asynchronous replication): the default. */
        ASYNC,
        /**
         * The loss of the primary too: MariaDB's semi-synchronous replication with
         * {@code rpl_semi_sync_master_wait_point=AFTER_SYNC}, checked at startup; the primary is
         * DEGRADED while it has fallen back to asynchronous.
         */
        SEMI_SYNC
    }

    /**
     * The key range of a shard that owns no keys yet ({@code key_range: none}): it is connected to, monitored and
     * reported, but no statement is routed to it until resharding gives it a range.
     */
    public static final String NO_KEYS = "none";

    /** False for a shard with {@code key_range: none}. */
    public boolean ownsKeys() {
        return !keyRange.equals(NO_KEYS);
    }

    public ShardConfig(String name, Engine engine, HostPort primary, List<HostPort> replicas) {
        this(name, engine, primary, replicas, "", Durability.ASYNC);
    }

    public ShardConfig(String name, Engine engine, HostPort primary, List<HostPort> replicas, String keyRange) {
        this(name, engine, primary, replicas, keyRange, Durability.ASYNC);
    }

    public ShardConfig {
        requireNonNull(keyRange, "keyRange is null");
        requireNonNull(durability, "durability is null");
        requireNonNull(name, "name is null");
        requireNonNull(engine, "engine is null");
        requireNonNull(primary, "primary is null");
        replicas = List.copyOf(requireNonNull(replicas, "replicas is null"));
    }
}
