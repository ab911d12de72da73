package io.shardgate.proxy.routing;

import io.shardgate.replication.gtid.MariaDbGtidPosition;
import io.shardgate.replication.lag.ReplicaLag;
import io.shardgate.replication.lag.ReplicaState;

import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Picks the replica for a read. A replica qualifies when it is {@code serving} in the topology, its
 * measured lag fits the read's budget, and its storage adapter does not report it STALLED or FAILED;
 * for a causal read it must also have applied the session's last write. Those that qualify take
 * reads in turn, so equal replicas share them evenly, except that one with at least two more
 * requests in flight than the least busy is passed over (it is slower, or stuck). When none has applied a causal read's write yet, the freshest healthy one within
 * budget is chosen to wait for it (MASTER_GTID_WAIT; one whose SQL thread is stopped never would).
 * When none fits at all, the primary.
 */
public final class ReplicaChooser {
    private final AtomicInteger turn = new AtomicInteger();

    public ReplicaChoice choose(ShardBackends shard, long budgetMs, MariaDbGtidPosition mustHave) {
        ReplicaSet set = shard.replicaSet();
        List<ReplicaBackend> replicas = set.replicas();
        if (replicas.isEmpty()) {
            return ReplicaChoice.primary("the shard has no replicas");
        }
        int count = replicas.size();
        int start = Math.floorMod(turn.getAndIncrement(), count);
        // First pass: the least load among qualifying replicas, and the wait candidate.
        int minLoad = Integer.MAX_VALUE;
        ReplicaBackend waitCandidate = null;
        long waitLag = Long.MAX_VALUE;
        for (int i = 0; i < count; i++) {
            ReplicaBackend replica = replicas.get((start + i) % count);
            ReplicaLag lag = set.lag(replica);
            if (qualifies(shard, set, replica, lag, budgetMs, mustHave)) {
                minLoad = Math.min(minLoad, replica.pool().inUse());
            } else if (withinBudget(shard, set, replica, lag, budgetMs) && lag.state() == ReplicaState.HEALTHY
                    && lag.lagMillis().getAsLong() < waitLag) {
                // Only a replica that is applying can catch up; the freshest gets the wait.
                waitCandidate = replica;
                waitLag = lag.lagMillis().getAsLong();
            }
        }
        // Second pass, in turn: the first qualifying replica not clearly busier than the least busy.
        ReplicaBackend best = null;
        for (int i = 0; i < count && best == null && minLoad != Integer.MAX_VALUE; i++) {
            ReplicaBackend replica = replicas.get((start + i) % count);
            if (qualifies(shard, set, replica, set.lag(replica), budgetMs, mustHave) && replica.pool().inUse() <= minLoad + 1) {
                best = replica;
            }
        }
        if (best != null) {
            return new ReplicaChoice(Optional.of(best), Optional.empty(), "a replica within the budget");
        }
        if (waitCandidate != null) {
            return new ReplicaChoice(Optional.of(waitCandidate), Optional.of(mustHave),
                    "a replica within the budget, after it applies the session's last write");
        }
        return ReplicaChoice.primary("no replica within the budget");
    }

    private static boolean withinBudget(ShardBackends shard, ReplicaSet set, ReplicaBackend replica, ReplicaLag lag, long budgetMs) {
        return lag.fitsLagBudget(budgetMs) && shard.servesReads(set, replica);
    }

    /** Within budget, served by a healthy engine, and (for a causal read) has applied {@code mustHave}. */
    private static boolean qualifies(ShardBackends shard, ReplicaSet set, ReplicaBackend replica, ReplicaLag lag, long budgetMs,
                                     MariaDbGtidPosition mustHave) {
        return withinBudget(shard, set, replica, lag, budgetMs) && (mustHave.isEmpty() || lag.appliedPosition().hasReached(mustHave));
    }
}
