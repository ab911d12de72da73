package io.shardgate.proxy.routing;

import io.shardgate.replication.gtid.MariaDbGtidPosition;
import io.shardgate.replication.lag.ReplicaLag;
import io.shardgate.replication.lag.ReplicaState;

import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Picks the replica for a read. A replica qualifies when its measured lag fits the read's budget
 * and its storage adapter does not report it STALLED or FAILED;
 * for a causal read it must also have applied the session's last write. Those that qualify take
 * reads in turn, so equal replicas share them evenly, except that one with at least two more
 * requests in flight than the least busy is passed over (it is slower, or stuck). When none has applied a causal read's write yet, the freshest healthy one within
 * budget is chosen to wait for it (MASTER_GTID_WAIT; one whose SQL thread is stopped never would).
 * When none fits at all, the primary.
 */
public final class ReplicaChooser {
    private final AtomicInteger turn = new AtomicInteger();

    public ReplicaChoice choose(ShardBackends shard, long budgetMs, MariaDbGtidPosition mustHave) {
        if (shard.replicas().isEmpty()) {
            return ReplicaChoice.primary("the shard has no replicas");
        }
        int count = shard.replicas().size();
        int start = Math.floorMod(turn.getAndIncrement(), count);
        ReplicaBackend[] qualified = new ReplicaBackend[count];
        int[] loads = new int[count];
        int found = 0;
        int minLoad = Integer.MAX_VALUE;
        ReplicaBackend waitCandidate = null;
        long waitLag = Long.MAX_VALUE;
        for (int i = 0; i < count; i++) {
            ReplicaBackend replica = shard.replicas().get((start + i) % count);
            ReplicaLag lag = shard.lag(replica);
            if (!lag.fitsLagBudget(budgetMs) || !shard.servesReads(replica)) {
                continue;
            }
            if (mustHave.isEmpty() || lag.appliedPosition().hasReached(mustHave)) {
                qualified[found] = replica;
                loads[found] = replica.pool().inUse();
                minLoad = Math.min(minLoad, loads[found]);
                found++;
            } else if (lag.state() == ReplicaState.HEALTHY && lag.lagMillis().getAsLong() < waitLag) {
                // Only a replica that is applying can catch up; the freshest gets the wait.
                waitCandidate = replica;
                waitLag = lag.lagMillis().getAsLong();
            }
        }
        ReplicaBackend best = null;
        for (int i = 0; i < found && best == null; i++) {
            // In turn, skipping a replica with clearly more requests in flight than the least busy.
            if (loads[i] <= minLoad + 1) {
                best = qualified[i];
            }
        }
        if (best != null) {
            return new ReplicaChoice(Optional.of(best), Optional.empty(), "replica within " + budgetMs + " ms");
        }
        if (waitCandidate != null) {
            return new ReplicaChoice(Optional.of(waitCandidate), Optional.of(mustHave),
                    "replica within " + budgetMs + " ms, waiting for the session's last write");
        }
        return ReplicaChoice.primary("no replica within " + budgetMs + " ms");
    }
}
