package io.shardgate.proxy.sharding;

import io.shardgate.proxy.execution.StatementRequest;
import io.shardgate.router.plan.Plan;
import io.shardgate.router.schema.ShardingSchema;

import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

import static java.util.Objects.requireNonNull;

/**
 * One session's writes as {@link WriteHolds} counts them. An autocommit write counts on its shards while it runs; a
 * write inside a transaction counts on each shard from the transaction's first write there until the transaction
 * ends, since its changes reach the server's binlog only at commit. A write whose shards include a held one it does
 * not count on already waits instead (the caller plans it again once the hold is lifted), unless its transaction
 * already counts on a shard of the same hold ({@link WriteHolds#sameHold}): that hold waits for it anyway.
 */
final class SessionWrites {
    /** What {@link #admit} decided: run (counting on {@code counted} for the statement), or wait for {@code lifted}. */
    record Admission(Set<String> counted, CompletableFuture<Void> lifted) {
        static final Admission NOTHING = new Admission(Set.of(), null);

        boolean waits() {
            return lifted != null;
        }
    }

    private final WriteHolds holds;
    private final ShardTransaction transaction;
    /** Shards the open transaction wrote to (or is about to), counted until it ends. */
    private final Set<String> inTransaction = new HashSet<>();
    /** {@link ShardTransaction#ended()} when {@link #inTransaction} started to fill. */
    private long generation;

    private final Supplier<ShardingSchema> currentMap;

    /** {@code currentMap}: the shard map statements are planned against now. */
    SessionWrites(WriteHolds holds, ShardTransaction transaction, Supplier<ShardingSchema> currentMap) {
        this.holds = requireNonNull(holds, "holds is null");
        this.transaction = requireNonNull(transaction, "transaction is null");
        this.currentMap = requireNonNull(currentMap, "currentMap is null");
    }

    /**
     * Runs {@code run}, a write, when its writes may go now ({@link WriteHolds}); else, once the hold on its shards is
     * lifted, {@code again} on the client's event loop (planned against the shard map then).
     */
    CompletableFuture<StatementOutcome> admitted(Plan plan, ShardingSchema map, StatementRequest request,
                                                         Supplier<CompletableFuture<StatementOutcome>> again,
                                                         Supplier<CompletableFuture<StatementOutcome>> run) {
        SessionWrites.Admission admission;
        try {
            admission = admit(PlanShards.of(plan.root(), request.parameters(), map),
                    !request.ddl() && (transaction.isOpen() || !request.autocommit()));
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
        if (admission.waits() || currentMap.get() != map) { // held, or planned on a shard map a cutover replaced
            done(admission);
            CompletableFuture<StatementOutcome> later = new CompletableFuture<>();
            (admission.waits() ? admission.lifted() : CompletableFuture.<Void>completedFuture(null)).whenComplete((lifted, error) -> {
                if (error != null) {
                    later.completeExceptionally(error);
                } else {
                    request.loop().execute(() -> again.get().whenComplete((outcome, failure) -> {
                        if (failure != null) {
                            later.completeExceptionally(failure);
                        } else {
                            later.complete(outcome);
                        }
                    }));
                }
            });
            return later;
        }
        CompletableFuture<StatementOutcome> result;
        try {
            result = run.get();
        } catch (RuntimeException e) {
            done(admission);
            throw e;
        }
        return result.whenComplete((outcome, error) -> done(admission));
    }


    /**
     * Counts a write on {@code shards}; {@code transactional}: it runs inside a transaction (open, or opened by it
     * with autocommit off).
     */
    synchronized Admission admit(Set<String> shards, boolean transactional) {
        reconcile();
        Set<String> fresh = new LinkedHashSet<>(shards);
        if (transactional) {
            fresh.removeAll(inTransaction);
        }
        if (fresh.isEmpty()) {
            return Admission.NOTHING;
        }
        holds.enter(fresh); // before looking at the holds: a hold published after this waits for us
        if (holds.heldAmong(fresh) != null && !(transactional && holds.sameHold(inTransaction, fresh))) {
            holds.exit(fresh);
            return new Admission(Set.of(), holds.whenLifted(fresh));
        }
        if (!transactional) {
            return new Admission(fresh, null);
        }
        if (inTransaction.isEmpty()) {
            generation = transaction.ended();
        }
        inTransaction.addAll(fresh);
        return Admission.NOTHING;
    }

    /** The statement admitted ended: its own counts go, and the transaction's once it is over. */
    synchronized void done(Admission admission) {
        if (!admission.counted().isEmpty()) {
            holds.exit(admission.counted());
        }
        reconcile();
    }

    /** Stops counting the transaction's shards when the transaction is over (or never opened). */
    synchronized void reconcile() {
        if (!inTransaction.isEmpty() && (transaction.ended() != generation || !transaction.isOpen())) {
            holds.exit(inTransaction);
            inTransaction.clear();
        }
    }
}
