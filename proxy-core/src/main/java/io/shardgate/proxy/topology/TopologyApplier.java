package io.shardgate.proxy.topology;

import io.shardgate.proxy.backend.BackendPool;
import io.shardgate.proxy.config.ConfigException;
import io.shardgate.proxy.config.ConfigLoader;
import io.shardgate.proxy.config.HostPort;
import io.shardgate.proxy.config.ShardConfig;
import io.shardgate.proxy.routing.BackendFactory;
import io.shardgate.proxy.routing.Drains;
import io.shardgate.proxy.routing.ReplicaBackend;
import io.shardgate.proxy.routing.ReplicaSet;
import io.shardgate.proxy.routing.ShardBackends;
import io.shardgate.replication.lag.ReplicaLagMonitor;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongConsumer;

import static java.util.Objects.requireNonNull;

/**
 * Switches the proxy to a new topology version. Each shard's backends change as one swap (a new
 * replica set, or a new primary pool), so a read routed before the swap finishes where it was sent and
 * the next one sees the new version. Replicas taken out (removed, {@code draining}, {@code offline})
 * drain; a replaced primary's connections close at once, which ends the transactions running on it
 * (writes must not go on reaching a server that is no longer the primary). A version the proxy cannot
 * parse or apply is refused: the proxy keeps serving the one it has and reports the refusal.
 * Versions apply one at a time, in order (the store's watch thread).
 */
public final class TopologyApplier {
    private static final System.Logger LOG = System.getLogger(TopologyApplier.class.getName());

    private final LiveTopology live;
    private final Map<String, ShardBackends> shards;
    private final BackendFactory factory;
    private final Drains drains;
    private final Duration drainTimeout;
    private final ConfigLoader loader;
    private final LongConsumer onApplied;
    private java.util.function.Function<ShardConfig, ShardBackends> newShard = shard -> null;
    private java.util.function.BiConsumer<String, HostPort> primaryChanged = (shard, primary) -> { };
    private java.util.function.Consumer<ShardBackends> shardRemoved = shard -> { };
    private CutoverListener cutover = CutoverListener.NONE;

    /** Who acts on a version's shard map and write holds (the sharded deployment). */
    public interface CutoverListener {
        CutoverListener NONE = new CutoverListener() {
            @Override
            public void shardMap(io.shardgate.router.schema.ShardingSchema next) {
            }

            @Override
            public void holds(List<WriteHold> holds, long version) {
            }
        };

        /** Keys moved between shards: statements are planned against {@code next} from now on. */
        void shardMap(io.shardgate.router.schema.ShardingSchema next);

        /** The write holds in force from {@code version} on (none: every hold lifted). */
        void holds(List<WriteHold> holds, long version);
    }

    /** {@code onApplied}: told each version applied (the proxy's registration follows it). */
    public TopologyApplier(LiveTopology live, List<ShardBackends> shards, BackendFactory factory, Drains drains,
                           Duration drainTimeout, ConfigLoader loader, LongConsumer onApplied) {
        this.live = requireNonNull(live, "live is null");
        Map<String, ShardBackends> byName = new LinkedHashMap<>();
        shards.forEach(shard -> byName.put(shard.shard(), shard));
        this.shards = byName;
        this.factory = requireNonNull(factory, "factory is null");
        this.drains = requireNonNull(drains, "drains is null");
        this.drainTimeout = requireNonNull(drainTimeout, "drainTimeout is null");
        this.loader = requireNonNull(loader, "loader is null");
        this.onApplied = requireNonNull(onApplied, "onApplied is null");
    }

    /**
     * How a shard added live gets its backends (null: not served here, as in a deployment without sharding, where only
     * the first shard serves).
     */
    public void onNewShard(java.util.function.Function<ShardConfig, ShardBackends> backendsOf) {
        this.newShard = requireNonNull(backendsOf, "backendsOf is null");
    }

    /** Who else drops a shard a topology change removed (the sharded deployment, the reports), before its pools close. */
    public void onShardRemoved(java.util.function.Consumer<ShardBackends> listener) {
        this.shardRemoved = requireNonNull(listener, "listener is null");
    }

    /** Who else follows a shard's primary (the sharded deployment's control plane). */
    public void onPrimaryChange(java.util.function.BiConsumer<String, HostPort> listener) {
        this.primaryChanged = requireNonNull(listener, "listener is null");
    }

    /**
     * Who acts on key moves and write holds. The holds of the version served now apply at once: a proxy that starts
     * during a cutover holds the moving shard's writes like the others.
     */
    public synchronized void onCutover(CutoverListener listener) {
        this.cutover = requireNonNull(listener, "listener is null");
        TopologyDocument document = live.applied().document();
        if (!document.holds().isEmpty()) {
            listener.holds(document.holds(), live.version());
        }
    }

    /** Validates {@code json} as a successor of the version this proxy serves; throws ConfigException naming the problem. */
    public TopologyDocument validate(String json) {
        TopologyDocument next = loader.topology(json);
        List<String> problems = TopologyChecks.problems(live.applied().document(), next);
        if (!problems.isEmpty()) {
            throw new ConfigException(String.join("; ", problems));
        }
        return next;
    }

    /** At startup: the backends the served version has {@code draining} or {@code offline} drain. */
    public synchronized void applyStates() {
        TopologyDocument document = live.applied().document();
        for (ShardConfig shard : document.shards()) {
            ShardBackends backends = shards.get(shard.name());
            if (backends != null) {
                applyShard(shard, document, backends, live.version());
            }
        }
    }

    /** Applies {@code stored} when it is newer than the version served; returns whether it now serves. */
    public synchronized boolean apply(StoredTopology stored) {
        if (stored.version() <= live.version()) {
            return false;
        }
        TopologyDocument next;
        try {
            next = validate(stored.json());
        } catch (ConfigException e) {
            LOG.log(System.Logger.Level.ERROR, "topology version " + stored.version() + " refused; still serving version "
                    + live.version() + ": " + e.getMessage());
            live.refused(stored.version(), e.getMessage());
            return false;
        }
        // Applies to the first shard only when the deployment is not sharded: the others serve nothing.
        for (ShardConfig shard : next.shards()) {
            ShardBackends backends = shards.get(shard.name());
            if (backends != null) {
                applyShard(shard, next, backends, stored.version());
            } else if (live.applied().document().shard(shard.name()).isEmpty()) {
                ShardBackends added = newShard.apply(shard);
                if (added != null) {
                    shards.put(shard.name(), added);
                    applyShard(shard, next, added, stored.version());
                    LOG.log(System.Logger.Level.INFO, "shard " + shard.name() + " added (it owns no keys yet)");
                }
            }
        }
        for (String name : List.copyOf(shards.keySet())) {
            if (next.shard(name).isEmpty()) {
                removeShard(shards.remove(name), stored.version()); // it owned no keys: nothing was routed to it
            }
        }
        // Keys (or tables) move before the holds lift, so that a write waiting for the lift is planned on the new shard map.
        TopologyDocument previous = live.applied().document();
        if (next.sharding().isPresent() && (!sameKeys(previous, next)
                || !java.util.Objects.equals(previous.tree().get("schemas"), next.tree().get("schemas")))) {
            cutover.shardMap(next.sharding().get());
            LOG.log(System.Logger.Level.WARNING, "topology version " + stored.version() + " moves keys or tables: the shard map is now "
                    + next.sharding().get().shards());
        }
        if (!previous.holds().equals(next.holds())) {
            cutover.holds(next.holds(), stored.version());
        }
        live.applied(stored.version(), next);
        LOG.log(System.Logger.Level.INFO, "topology version " + stored.version() + " applied");
        onApplied.accept(stored.version());
        return true;
    }

    /** Whether the same shards own the same keys: a shard that owns none, added or removed, changes no key's owner. */
    private static boolean sameKeys(TopologyDocument previous, TopologyDocument next) {
        Map<String, String> before = new LinkedHashMap<>();
        previous.shards().stream().filter(ShardConfig::ownsKeys).forEach(shard -> before.put(shard.name(), shard.keyRange()));
        Map<String, String> after = new LinkedHashMap<>();
        next.shards().stream().filter(ShardConfig::ownsKeys).forEach(shard -> after.put(shard.name(), shard.keyRange()));
        return before.equals(after);
    }

    /**
     * Drops a removed shard's backends: no one reaches them any more, its lag monitor and health probes stop, its pools
     * close (connections still lent, such as an admin's, end with the reason) and its gauges go.
     */
    private void removeShard(ShardBackends backends, long version) {
        shardRemoved.accept(backends);
        String reason = "shard " + backends.shard() + " was removed in topology version " + version;
        ReplicaSet set = backends.replicaSet();
        if (set.monitor() != null) {
            drains.closeLater(set.monitor());
        }
        String primary = backends.primary().target().address().toString();
        backends.primary().closeAll(reason);
        factory.forget(primary);
        backends.health().ifPresent(health -> drains.closeLater(() -> health.removeBackend("primary", primary)));
        for (ReplicaBackend replica : set.replicas()) {
            replica.pool().closeAll(reason);
            factory.forget(replica.server().address());
            backends.health().ifPresent(health -> drains.closeLater(() -> health.removeReplica(replica.server().address())));
        }
        LOG.log(System.Logger.Level.INFO, reason + ": its backends are closed");
    }

    private void applyShard(ShardConfig shard, TopologyDocument next, ShardBackends backends, long version) {
        BackendPool primary = backends.primary();
        boolean newPrimary = !primary.target().address().equals(shard.primary());
        if (newPrimary) {
            BackendPool previous = backends.replacePrimary(factory.primary(shard.name(), shard.primary()));
            primaryChanged.accept(shard.name(), shard.primary());
            backends.health().ifPresent(health -> {
                health.removeBackend("replica", shard.primary().toString()); // a promoted replica is probed as the primary now
                health.addBackend(shard.name(), "primary", shard.engine(), shard.primary());
                drains.closeLater(() -> health.removeBackend("primary", previous.target().address().toString()));
            });
            previous.closeAll("the shard's primary became " + shard.primary() + " in topology version " + version);
            factory.forget(previous.target().address().toString());
            LOG.log(System.Logger.Level.WARNING, "shard " + shard.name() + ": primary " + previous.target().address() + " replaced by "
                    + shard.primary() + "; transactions running on the old primary end");
        }
        ReplicaSet current = backends.replicaSet();
        Map<String, BackendState> states = new LinkedHashMap<>();
        List<ReplicaBackend> replicas = new ArrayList<>();
        for (HostPort address : shard.replicas()) {
            ReplicaBackend kept = current.find(address.toString());
            replicas.add(kept != null ? kept : factory.replica(shard.name(), address));
            if (next.state(address) != BackendState.SERVING) {
                states.put(address.toString(), next.state(address));
            }
        }
        boolean sameMembers = !newPrimary && replicas.equals(current.replicas());
        ReplicaSet replaced;
        if (sameMembers) {
            replaced = backends.replace(current.withStates(states));
        } else if (!newPrimary && current.monitor() != null) {
            // The same primary: the running monitor measures the new replicas too, and the others without a gap.
            ReplicaLagMonitor monitor = current.monitor();
            for (ReplicaBackend replica : replicas) {
                if (current.find(replica.server().address()) == null) {
                    monitor.addReplica(replica.server());
                    factory.forget(replica.server().address()); // gauges a removed replica at this address left
                    factory.registerReplica(backends, replica);
                    backends.health().ifPresent(health -> health.addReplica(shard.name(), shard.engine(),
                            replica.pool().target().address()));
                }
            }
            replaced = backends.replace(new ReplicaSet(replicas, states, monitor));
            for (ReplicaBackend gone : replaced.replicas()) {
                if (!replicas.contains(gone)) {
                    drains.closeLater(monitor.removeReplica(gone.server()));
                }
            }
        } else {
            ReplicaLagMonitor monitor = replicas.isEmpty() ? null
                    : factory.monitor(shard.name(), shard.primary(), replicas, next.routing());
            if (monitor != null) {
                monitor.start();
            }
            replaced = backends.replace(new ReplicaSet(replicas, states, monitor));
            for (ReplicaBackend replica : replicas) {
                if (current.find(replica.server().address()) == null) {
                    factory.forget(replica.server().address());
                    factory.registerReplica(backends, replica);
                    backends.health().ifPresent(health -> health.addReplica(shard.name(), shard.engine(),
                            replica.pool().target().address()));
                }
            }
            if (replaced.monitor() != null) {
                drains.closeLater(replaced.monitor());
            }
        }
        for (ReplicaBackend replica : replicas) {
            BackendState state = states.getOrDefault(replica.server().address(), BackendState.SERVING);
            boolean wasServing = replaced.find(replica.server().address()) == null || replaced.state(replica) == BackendState.SERVING;
            if (state == BackendState.SERVING && replica.pool().retired()) {
                drains.cancel(replica.pool());
            } else if (state != BackendState.SERVING && (wasServing || !replica.pool().retired())) {
                drains.start(replica.pool(), drainTimeout, () -> { });
            }
        }
        for (ReplicaBackend gone : replaced.replicas()) {
            if (!replicas.contains(gone)) {
                drains.start(gone.pool(), drainTimeout, () -> {
                    if (backends.replicaSet().find(gone.server().address()) == null) {
                        backends.health().ifPresent(health -> drains.closeLater(() -> health.removeReplica(gone.server().address())));
                        factory.forget(gone.server().address());
                    }
                });
            }
        }
    }
}
