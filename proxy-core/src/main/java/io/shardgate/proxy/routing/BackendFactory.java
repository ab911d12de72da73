package io.shardgate.proxy.routing;

import io.shardgate.proxy.backend.BackendConnector;
import io.shardgate.proxy.backend.BackendPool;
import io.shardgate.proxy.backend.BackendTarget;
import io.shardgate.proxy.config.HostPort;
import io.shardgate.proxy.config.RoutingConfig;
import io.shardgate.proxy.config.ShardgateConfig;
import io.shardgate.proxy.metrics.ProxyMetrics;
import io.shardgate.replication.lag.LagMonitorSettings;
import io.shardgate.replication.lag.MonitoredServer;
import io.shardgate.replication.lag.ReplicaLagMonitor;

import java.time.Duration;
import java.util.List;

import static java.util.Objects.requireNonNull;

/**
 * Makes a shard's backends as the config sizes them: a pool per server (its gauges registered), a
 * replica's pool with the server its lag monitor polls, and the lag monitor of a set of replicas.
 * Used when the proxy starts and when a topology change adds a server.
 */
public final class BackendFactory {
    private final ShardgateConfig config;
    private final BackendConnector connector;
    private final ProxyMetrics metrics;

    public BackendFactory(ShardgateConfig config, BackendConnector connector, ProxyMetrics metrics) {
        this.config = requireNonNull(config, "config is null");
        this.connector = requireNonNull(connector, "connector is null");
        this.metrics = requireNonNull(metrics, "metrics is null");
    }

    /** The pool of the shard's primary at {@code address}, its gauges registered. */
    public BackendPool primary(String shard, HostPort address) {
        BackendPool pool = pool(shard, "primary", address);
        metrics.registerPool(pool);
        return pool;
    }

    /** A replica of {@code shards}: its pool (gauges registered once it is in {@code shards}' set) and its polled server. */
    public ReplicaBackend replica(String shard, HostPort address) {
        return new ReplicaBackend(pool(shard, "replica", address), new MonitoredServer(address.host(), address.port()));
    }

    /** Registers the replica's gauges (pool, lag, state) under {@code shards}. */
    public void registerReplica(ShardBackends shards, ReplicaBackend replica) {
        metrics.registerReplica(shards, replica);
    }

    /** Removes the gauges of a backend a topology change took out. */
    public void forget(String address) {
        metrics.forget(address);
    }

    /** The lag monitor of {@code replicas} of the shard whose primary is at {@code primary}; not started. */
    public ReplicaLagMonitor monitor(String shard, HostPort primary, List<ReplicaBackend> replicas, RoutingConfig routing) {
        ReplicaLagMonitor.Builder builder = ReplicaLagMonitor.builder().shard(shard)
                .primary(new MonitoredServer(primary.host(), primary.port()))
                .credentials(config.backendUser().name(), config.backendUser().password())
                .settings(LagMonitorSettings.of(routing.lagPollInterval(), Duration.ofMillis(500), Duration.ofMillis(500)));
        replicas.forEach(replica -> builder.replica(replica.server()));
        return builder.build();
    }

    private BackendPool pool(String shard, String role, HostPort address) {
        return new BackendPool(new BackendTarget(shard, role, address), connector, config.limits().maxBackendConnections(),
                config.limits().backendAcquireTimeout());
    }
}
