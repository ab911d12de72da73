package io.shardgate.proxy.routing;

import io.shardgate.proxy.backend.BackendPool;
import io.shardgate.replication.lag.MonitoredServer;

import static java.util.Objects.requireNonNull;

/** One replica of a shard: its connection pool and the server the lag monitor watches. */
public record ReplicaBackend(BackendPool pool, MonitoredServer server) {
    public ReplicaBackend {
        requireNonNull(pool, "pool is null");
        requireNonNull(server, "server is null");
    }
}
