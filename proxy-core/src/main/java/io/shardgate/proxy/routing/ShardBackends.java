package io.shardgate.proxy.routing;

import io.shardgate.proxy.backend.BackendPool;
import io.shardgate.replication.gtid.MariaDbGtidPosition;
import io.shardgate.replication.lag.ReplicaLag;
import io.shardgate.replication.lag.ReplicaLagMonitor;

import io.shardgate.proxy.topology.BackendState;

import java.util.List;
import java.util.Map;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * The backends of one shard: the primary's pool and the {@link ReplicaSet} (each replica's pool, its
 * administrative state, and the monitor measuring the replicas' lag). A topology change swaps either
 * whole; a read takes the set once and chooses within it.
 */
public final class ShardBackends implements AutoCloseable {
    private final String shard;
    private volatile BackendPool primary;
    private volatile ReplicaSet replicaSet;
    private final EngineHealth health;

    public ShardBackends(String shard, BackendPool primary, List<ReplicaBackend> replicas, ReplicaLagMonitor monitor,
                         EngineHealth health) {
        this.health = health;
        this.shard = requireNonNull(shard, "shard is null");
        this.primary = requireNonNull(primary, "primary is null");
        if (!replicas.isEmpty() && monitor == null) {
            throw new IllegalArgumentException("shard " + shard + " has replicas but no lag monitor");
        }
        this.replicaSet = new ReplicaSet(replicas, Map.of(), monitor);
    }

    public String shard() {
        return shard;
    }

    public BackendPool primary() {
        return primary;
    }

    /** Every replica of the current set, serving or not. */
    public List<ReplicaBackend> replicas() {
        return replicaSet.replicas();
    }

    /** The current replicas, their states and their monitor, as one snapshot. */
    public ReplicaSet replicaSet() {
        return replicaSet;
    }

    /** A topology change: {@code next} serves from now on; returns the set it replaced. */
    public ReplicaSet replace(ReplicaSet next) {
        ReplicaSet previous = replicaSet;
        replicaSet = requireNonNull(next, "next is null");
        return previous;
    }

    /** A topology change: the shard's primary is now {@code next}; returns the pool it replaced. */
    public BackendPool replacePrimary(BackendPool next) {
        BackendPool previous = primary;
        primary = requireNonNull(next, "next is null");
        return previous;
    }

    /** The replica's lag as last measured. */
    public ReplicaLag lag(ReplicaBackend replica) {
        return replicaSet.lag(replica);
    }

    /**
     * False for a replica that is not {@code serving} in the topology, or that the storage adapter
     * reports STALLED or FAILED: it gets no new reads.
     */
    public boolean servesReads(ReplicaBackend replica) {
        return servesReads(replicaSet, replica);
    }

    /** {@link #servesReads(ReplicaBackend)} within {@code set}, a snapshot of this shard's. */
    public boolean servesReads(ReplicaSet set, ReplicaBackend replica) {
        return set.state(replica) == BackendState.SERVING && (health == null || health.servesReads(replica.server().address()));
    }

    public Optional<EngineHealth> health() {
        return Optional.ofNullable(health);
    }

    public Optional<ReplicaLagMonitor> monitor() {
        return Optional.ofNullable(replicaSet.monitor());
    }

    /** A write committed on the primary at this position; {@code sentAtNanos} is when its statement was sent. */
    public void observeCommit(MariaDbGtidPosition position, long sentAtNanos) {
        ReplicaLagMonitor monitor = replicaSet.monitor();
        if (monitor != null) {
            monitor.observePrimary(position, sentAtNanos);
        }
    }

    @Override
    public void close() {
        ReplicaSet set = replicaSet;
        if (set.monitor() != null) {
            set.monitor().close();
        }
        if (health != null) {
            health.close();
        }
        primary.close();
        for (ReplicaBackend replica : set.replicas()) {
            replica.pool().close();
        }
    }
}
