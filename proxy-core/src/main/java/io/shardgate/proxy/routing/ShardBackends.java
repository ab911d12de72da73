package io.shardgate.proxy.routing;

import io.shardgate.proxy.backend.BackendPool;
import io.shardgate.replication.gtid.MariaDbGtidPosition;
import io.shardgate.replication.lag.ReplicaLag;
import io.shardgate.replication.lag.ReplicaLagMonitor;

import java.util.List;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * The backends of one shard: the primary's pool, each replica's pool, and the monitor that
 * measures the replicas' lag (absent when the shard has no replicas).
 */
public final class ShardBackends implements AutoCloseable {
    private final String shard;
    private final BackendPool primary;
    private final List<ReplicaBackend> replicas;
    private final ReplicaLagMonitor monitor;
    private final EngineHealth health;

    public ShardBackends(String shard, BackendPool primary, List<ReplicaBackend> replicas, ReplicaLagMonitor monitor,
                         EngineHealth health) {
        this.health = health;
        this.shard = requireNonNull(shard, "shard is null");
        this.primary = requireNonNull(primary, "primary is null");
        this.replicas = List.copyOf(requireNonNull(replicas, "replicas is null"));
        if (!this.replicas.isEmpty() && monitor == null) {
            throw new IllegalArgumentException("shard " + shard + " has replicas but no lag monitor");
        }
        this.monitor = monitor;
    }

    public String shard() {
        return shard;
    }

    public BackendPool primary() {
        return primary;
    }

    public List<ReplicaBackend> replicas() {
        return replicas;
    }

    /** The replica's lag as last measured. */
    public ReplicaLag lag(ReplicaBackend replica) {
        return monitor.status(replica.server());
    }

    /** False for a replica the storage adapter reports STALLED or FAILED: it gets no new reads. */
    public boolean servesReads(ReplicaBackend replica) {
        return health == null || health.servesReads(replica.server().address());
    }

    public Optional<EngineHealth> health() {
        return Optional.ofNullable(health);
    }

    public Optional<ReplicaLagMonitor> monitor() {
        return Optional.ofNullable(monitor);
    }

    /** A write committed on the primary at this position; {@code sentAtNanos} is when its statement was sent. */
    public void observeCommit(MariaDbGtidPosition position, long sentAtNanos) {
        if (monitor != null) {
            monitor.observePrimary(position, sentAtNanos);
        }
    }

    @Override
    public void close() {
        if (monitor != null) {
            monitor.close();
        }
        if (health != null) {
            health.close();
        }
        primary.close();
        for (ReplicaBackend replica : replicas) {
            replica.pool().close();
        }
    }
}
