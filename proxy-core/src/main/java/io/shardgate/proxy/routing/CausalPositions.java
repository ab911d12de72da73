package io.shardgate.proxy.routing;

import io.shardgate.replication.gtid.MariaDbGtid;
import io.shardgate.replication.gtid.MariaDbGtidPosition;

import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;

import static java.util.Objects.requireNonNull;

/**
 * What a replica of each shard must have applied before it serves one client session a read: the
 * commits of the session's own writes on that shard, and whatever causality tokens the session
 * presented ({@link CausalToken}). Positions only grow. Belongs to the client session (it
 * outlives COM_RESET_CONNECTION, as the unsharded session's position does); safe to use from the
 * session's plan worker and the backend event loops at once.
 */
public final class CausalPositions {
    private final Map<String, MariaDbGtidPosition> byShard = new HashMap<>();
    /** Required of every shard: version 1 tokens, which name no shard. */
    private MariaDbGtidPosition everyShard = MariaDbGtidPosition.empty();

    /** What a replica of {@code shard} must have applied (empty: anything goes). */
    public synchronized MariaDbGtidPosition of(String shard) {
        return CausalToken.union(byShard.getOrDefault(shard, MariaDbGtidPosition.empty()), everyShard);
    }

    /** The session committed {@code gtid} on {@code shard}; returns the shard's position with it. */
    public synchronized MariaDbGtidPosition committed(String shard, MariaDbGtid gtid) {
        requireNonNull(gtid, "gtid is null");
        MariaDbGtidPosition position = byShard.getOrDefault(requireNonNull(shard, "shard is null"), MariaDbGtidPosition.empty()).with(gtid);
        byShard.put(shard, position);
        return position;
    }

    /** SET @@shardgate_causal_token: the session's reads must also see what {@code token} names. */
    public synchronized void present(CausalToken.Presented token) {
        token.byShard().forEach((shard, position) ->
                byShard.put(shard, CausalToken.union(byShard.getOrDefault(shard, MariaDbGtidPosition.empty()), position)));
        everyShard = CausalToken.union(everyShard, token.everyShard());
    }

    /** Each of {@code shards}' position, for the session's token; shards without one are left out. */
    public synchronized Map<String, MariaDbGtidPosition> of(Collection<String> shards) {
        Map<String, MariaDbGtidPosition> positions = new LinkedHashMap<>();
        for (String shard : shards) {
            MariaDbGtidPosition position = of(shard);
            if (!position.isEmpty()) {
                positions.put(shard, position);
            }
        }
        return positions;
    }
}
