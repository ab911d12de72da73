package io.shardgate.proxy.routing;

import io.shardgate.replication.gtid.MariaDbGtidPosition;

import java.util.Optional;

/**
 * Where a read goes: a replica (and, for a causal read, the position it must first reach), or the
 * primary, with the reason, which {@code EXPLAIN}-style introspection and logs show.
 *
 * @param replica    the chosen replica; empty means the primary (or an error, per routing.fallback)
 * @param waitFor    a position the replica must reach before the read runs (MASTER_GTID_WAIT); empty when it has
 * @param reason     why
 */
public record ReplicaChoice(Optional<ReplicaBackend> replica, Optional<MariaDbGtidPosition> waitFor, String reason) {

    public static ReplicaChoice primary(String reason) {
        return new ReplicaChoice(Optional.empty(), Optional.empty(), reason);
    }
}
