package io.shardgate.proxy.routing;

import io.shardgate.proxy.topology.BackendState;
import io.shardgate.replication.lag.ReplicaLag;
import io.shardgate.replication.lag.ReplicaLagMonitor;
import io.shardgate.replication.lag.ReplicaState;
import io.shardgate.replication.gtid.MariaDbGtidPosition;

import java.util.List;
import java.util.Map;
import java.util.OptionalLong;

import static java.util.Objects.requireNonNull;

/**
 * A shard's replicas under one topology version: each replica, its administrative state, and the
 * monitor that measures their lag (null without replicas). Immutable: a topology change makes a new
 * one, so a read that took this set chooses among exactly these.
 */
public record ReplicaSet(List<ReplicaBackend> replicas, Map<String, BackendState> states, ReplicaLagMonitor monitor) {
    public ReplicaSet {
        replicas = List.copyOf(requireNonNull(replicas, "replicas is null"));
        states = Map.copyOf(requireNonNull(states, "states is null"));
        if (!replicas.isEmpty() && monitor == null) {
            throw new IllegalArgumentException("replicas without a lag monitor");
        }
    }

    /** The same replicas with other administrative states (same pools, same monitor). */
    public ReplicaSet withStates(Map<String, BackendState> newStates) {
        return new ReplicaSet(replicas, newStates, monitor);
    }

    public BackendState state(ReplicaBackend replica) {
        // Read per replica per routed read: no address string is built while every replica serves (the usual case).
        return states.isEmpty() ? BackendState.SERVING : states.getOrDefault(replica.server().address(), BackendState.SERVING);
    }

    /** The replica's lag as last measured; UNKNOWN (infinitely stale) for one its monitor does not poll. */
    public ReplicaLag lag(ReplicaBackend replica) {
        if (monitor != null) {
            try {
                return monitor.status(replica.server());
            } catch (IllegalArgumentException notMeasured) {
                // Only in the moment a topology change stops measuring a replica this set still names.
            }
        }
        return new ReplicaLag("", replica.server(), ReplicaState.UNKNOWN, OptionalLong.empty(), MariaDbGtidPosition.empty(),
                "not monitored", OptionalLong.empty(), false, false, 0);
    }

    /** The replica of this set at {@code address}, or null. */
    public ReplicaBackend find(String address) {
        for (ReplicaBackend replica : replicas) {
            if (replica.server().address().equals(address)) {
                return replica;
            }
        }
        return null;
    }
}
