package io.shardgate.proxy.sharding;

import io.shardgate.proxy.sharding.xa.XaTransactions;
import io.shardgate.proxy.execution.ShardResultStream;
import io.shardgate.proxy.backend.BackendConnection;
import io.shardgate.proxy.backend.BackendPool;
import io.shardgate.proxy.config.TransactionsConfig;
import io.shardgate.proxy.error.BackendErrorException;
import io.shardgate.errors.ErrorCode;
import io.shardgate.proxy.protocol.Command;
import io.shardgate.proxy.protocol.ServerStatus;
import io.shardgate.proxy.routing.ShardBackends;

import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.BiConsumer;
import java.util.function.Function;

/**
 * A sharded session's transaction: one branch connection per shard it touched, started lazily with
 * START TRANSACTION or, with {@code transactions.cross_shard: xa}, XA START; COMMIT commits them
 * together (two-phase when the transaction is an XA one). Its state is guarded by this object: the
 * session's worker and the client's event loop both read it.
 */
final class ShardTransaction {
    private final ShardedDeployment deployment;
    /** The session's LOCK TABLES: while held, statements run on its connections, and no XA transaction starts. */
    private final TableLocks locks;
    /** Notes a branch's commit GTID for the session: shard, GTID. */
    private final BiConsumer<String, String> committed;
    /** The shards' branch connections of the open transaction, in the order first touched. */
    private final Map<String, CompletableFuture<BackendConnection>> branches = new LinkedHashMap<>();
    /** The last stream on each branch: the next statement on that branch waits for its response to end. */
    private final Map<String, ShardResultStream> branchStreams = new HashMap<>();
    private final Set<String> written = new HashSet<>();
    private boolean open;
    private boolean readOnly;
    /** SET TRANSACTION for the open transaction, run on each branch before it starts. */
    private String beforeStart;
    private XaTransactions.Global global;
    /** How many transactions have ended: a cursor opened inside one is gone once it moved on ({@link PlanCursor}). */
    private long ended;

    ShardTransaction(ShardedDeployment deployment, TableLocks locks, BiConsumer<String, String> committed) {
        this.deployment = deployment;
        this.locks = locks;
        this.committed = committed;
    }

    TableLocks locks() {
        return locks;
    }

    synchronized boolean isOpen() {
        return open;
    }

    synchronized long ended() {
        return ended;
    }

    synchronized boolean hasBranches() {
        return open || !branches.isEmpty();
    }

    /** The status flags the session's responses carry. */
    synchronized int status(boolean autocommit) {
        return (autocommit ? ServerStatus.AUTOCOMMIT : 0) | (open ? ServerStatus.IN_TRANS : 0)
                | (open && readOnly ? ServerStatus.IN_TRANS_READONLY : 0);
    }

    boolean xaMode() {
        return deployment.transactions().crossShard() == TransactionsConfig.CrossShard.XA;
    }

    /** Opens a transaction ({@code setTransaction}: session-scoped SET TRANSACTION run on each branch first, or null). */
    synchronized void open(boolean readOnlyTransaction, String setTransaction) {
        open = true;
        readOnly = readOnlyTransaction;
        beforeStart = setTransaction;
        // Under LOCK TABLES (autocommit off) each shard's statements run in its own transaction on its lock connection.
        global = xaMode() && !locks.held() ? deployment.xa().begin() : null;
    }

    /**
     * A statement outside a transaction that must run in one: with autocommit off, any statement
     * but DDL; in XA mode, an autocommit write that may reach several shards (all or nothing: an XA
     * transaction of its own). Returns whether it opened one for the statement alone (committed after it).
     */
    synchronized boolean openImplicitly(boolean autocommit, boolean write, boolean ddl, boolean severalShards) {
        if (open || ddl) {
            return false;
        }
        if (!autocommit) {
            open(false, null);
            return false;
        }
        if (write && xaMode() && severalShards && !locks.held()) {
            open = true;
            readOnly = false;
            global = deployment.xa().begin();
            return true;
        }
        return false;
    }

    /**
     * The branch connection on {@code shard} for a statement of the open transaction; null when none
     * is open. {@code bind} takes a pooled connection ready for the session, {@code sync} brings a
     * held one to the session's schema and settings; {@code ofStatement}: the statement's other streams.
     */
    synchronized CompletableFuture<BackendConnection> branch(String shard, ShardBackends backends, ShardResultStream stream,
                                                            boolean write, List<ShardResultStream> ofStatement,
                                                            Function<BackendPool, CompletableFuture<BackendConnection>> bind,
                                                            Function<BackendConnection, CompletableFuture<BackendConnection>> sync) {
        if (!open || locks.held()) {
            return null;
        }
        ShardResultStream held = branchStreams.get(shard);
        if (held != null && !held.isClosed() && !ofStatement.contains(held)) {
            // Only an open cursor keeps its stream unclosed after its command ({@link PlanCursor}).
            return CompletableFuture.failedFuture(ErrorCode.UNSUPPORTED.exception("another statement on shard " + shard
                    + " inside a transaction while a cursor reads from it (fetch the cursor to its end, or reset or close its statement, first)"));
        }
        if (write) {
            if (readOnly) {
                return CompletableFuture.failedFuture(new BackendErrorException(new io.shardgate.proxy.protocol.ErrPacket(1792,
                        "25006", "Cannot execute statement in a READ ONLY transaction")));
            }
            if (!xaMode() && !written.isEmpty() && !written.contains(shard)) {
                return CompletableFuture.failedFuture(ErrorCode.CROSS_SHARD_TRANSACTION.exception(shard, String.join(", ", written)));
            }
            written.add(shard);
        }
        CompletableFuture<BackendConnection> branch = branches.get(shard);
        ShardResultStream previous = branchStreams.get(shard);
        // A statement refused here never runs: the branch's last stream stays the one to wait for.
        if (branch != null && previous != null && ofStatement.contains(previous) && !previous.isComplete() && !previous.isClosed()) {
            return CompletableFuture.failedFuture(ErrorCode.UNSUPPORTED.exception(
                    "two statements on shard " + shard + " at once inside a transaction (a UNION or subquery over one sharded table)"));
        }
        branchStreams.put(shard, stream);
        if (branch == null) {
            XaTransactions.Global xa = global;
            String start = readOnly ? "START TRANSACTION READ ONLY" : "START TRANSACTION";
            String before = beforeStart;
            branch = bind.apply(backends.primary()).thenCompose(connection -> (before == null
                    ? CompletableFuture.<Void>completedFuture(null) : connection.run(Command.QUERY, before))
                    .thenCompose(ok -> xa != null ? xa.start(shard, connection) : connection.run(Command.QUERY, start))
                    .handle((ok, error) -> {
                        if (error != null) {
                            connection.markUntracked();
                            connection.owner().release(connection);
                            throw error instanceof CompletionException e ? e : new CompletionException(error);
                        }
                        return connection;
                    }));
            branches.put(shard, branch);
            return branch;
        }
        // The previous statement's response (read to its end, or closed by its reader and draining) ends first.
        CompletableFuture<Void> idle = previous == null ? CompletableFuture.completedFuture(null)
                : CompletableFuture.runAsync(previous::awaitComplete, deployment.workers());
        return branch.thenCombine(idle, (connection, ok) -> connection).thenCompose(sync);
    }

    /** Whether {@code connection} is the open transaction's branch on {@code shard} (it stays with the session). */
    synchronized boolean isBranch(String shard, BackendConnection connection) {
        CompletableFuture<BackendConnection> branch = branches.get(shard);
        if (locks.holds(shard, connection)) {
            return true;
        }
        return branch != null && branch.isDone() && !branch.isCompletedExceptionally() && branch.join() == connection;
    }

    void commit() {
        finish(true);
    }

    /**
     * LOCK TABLES ({@code statements}: each shard's, see {@link LockTablesStatement#statements}) or UNLOCK TABLES
     * (null), as MariaDB runs them: LOCK TABLES commits an open transaction and releases the locks held first;
     * UNLOCK TABLES commits a transaction run under the locks. {@code bind}: a connection of a shard's primary.
     */
    void tableLocks(java.util.SortedMap<String, byte[]> statements, Function<String, CompletableFuture<BackendConnection>> bind) {
        if (statements != null || locks.held()) {
            commit();
        }
        locks.unlock(false);
        if (statements != null) {
            join(locks.lock(statements, bind));
        }
    }

    /** The session ends: an open transaction is rolled back, and table locks are released. */
    void close() {
        try {
            rollback();
        } finally {
            locks.unlock(true);
        }
    }

    void rollback() {
        finish(false);
    }

    /** Rolls back after a failure; a failure of the rollback itself is only logged. */
    void safeRollback(System.Logger log) {
        try {
            rollback();
        } catch (RuntimeException e) {
            log.log(System.Logger.Level.WARNING, "rolling back a failed transaction failed", e);
        }
    }

    /** Commits or rolls back every branch (with XA when the transaction is one), then ends the transaction. */
    private void finish(boolean commit) {
        if (locks.held()) {
            // A transaction under LOCK TABLES (autocommit off) ends on the lock connections, which keep their locks.
            boolean wasOpen = isOpen();
            try {
                if (wasOpen) {
                    locks.endTransaction(commit, committed);
                }
            } finally {
                end(Map.of(), false);
            }
            return;
        }
        Map<String, BackendConnection> held = awaitBranches();
        XaTransactions.Global xa;
        synchronized (this) {
            xa = global;
        }
        // The GTID each branch's commit got, by shard: the session's causal position on that shard.
        Map<String, String> commits = new LinkedHashMap<>();
        try {
            if (xa != null && !held.isEmpty()) {
                if (commit) {
                    commits.putAll(xa.commit(held));
                } else {
                    xa.rollback(held);
                }
            } else if (xa == null) {
                for (Map.Entry<String, BackendConnection> branch : held.entrySet()) {
                    if (commit) {
                        // Noted at once: a later branch's failure does not undo this branch's commit.
                        String gtid = join(CommitGtid.run(branch.getValue(), "COMMIT"));
                        if (gtid != null) {
                            committed.accept(branch.getKey(), gtid);
                        }
                    } else {
                        join(branch.getValue().run(Command.QUERY, "ROLLBACK"));
                    }
                }
            }
        } catch (RuntimeException e) {
            end(held, true);
            throw e;
        }
        commits.forEach(committed);
        end(held, false);
    }

    /** The branch connections, once every response on them has ended; branches that failed to start are left out. */
    private Map<String, BackendConnection> awaitBranches() {
        Map<String, CompletableFuture<BackendConnection>> started;
        synchronized (this) {
            started = new LinkedHashMap<>(branches);
        }
        Map<String, BackendConnection> held = new LinkedHashMap<>();
        for (Map.Entry<String, CompletableFuture<BackendConnection>> branch : started.entrySet()) {
            BackendConnection connection;
            try {
                connection = branch.getValue().join();
            } catch (RuntimeException e) {
                continue;
            }
            ShardResultStream last;
            synchronized (this) {
                last = branchStreams.get(branch.getKey());
            }
            if (last != null) {
                last.close();
                last.awaitComplete();
            }
            held.put(branch.getKey(), connection);
        }
        return held;
    }

    /**
     * Ends the transaction: branch connections go back to their pools (closed when {@code broken}). Only those still
     * its branches: of two ends at once (the session's end on one worker, a failed statement's rollback on another),
     * each branch goes back once.
     */
    private void end(Map<String, BackendConnection> held, boolean broken) {
        boolean oneShot;
        List<BackendConnection> ours = new java.util.ArrayList<>(held.size());
        synchronized (this) {
            for (Map.Entry<String, BackendConnection> branch : held.entrySet()) {
                CompletableFuture<BackendConnection> current = branches.get(branch.getKey());
                if (current != null && current.isDone() && !current.isCompletedExceptionally() && current.join() == branch.getValue()) {
                    ours.add(branch.getValue());
                }
            }
            // A branch that took the transaction's SET TRANSACTION as a session setting is reset before reuse.
            oneShot = beforeStart != null;
            ended++;
            open = false;
            readOnly = false;
            beforeStart = null;
            global = null;
            branches.clear();
            branchStreams.clear();
            written.clear();
        }
        for (BackendConnection connection : ours) {
            if (broken || oneShot || !connection.isOpen()) {
                connection.markUntracked();
            }
            connection.owner().release(connection);
        }
    }

    static <T> T join(CompletableFuture<T> future) {
        try {
            return future.join();
        } catch (CompletionException e) {
            throw e.getCause() instanceof RuntimeException runtime ? runtime : e;
        }
    }
}
