package io.shardgate.proxy.sharding;

import io.shardgate.proxy.backend.BackendConnection;
import io.shardgate.errors.ErrorCode;
import io.shardgate.proxy.protocol.Command;

import io.shardgate.proxy.sharding.xa.XaBranch;
import io.shardgate.proxy.sharding.xa.XaCoordinator;
import io.shardgate.proxy.sharding.xa.XaException;
import io.shardgate.proxy.sharding.xa.XaStatements;
import io.shardgate.proxy.sharding.xa.XaTransactions;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;

import static java.util.Objects.requireNonNull;

/** {@link XaTransactions} over the {@link XaCoordinator}: each session branch is a backend connection. */
final class CoordinatedXa implements XaTransactions {
    private final XaCoordinator coordinator;
    private final GlobalTransactionIds ids;

    CoordinatedXa(XaCoordinator coordinator, GlobalTransactionIds ids) {
        this.coordinator = requireNonNull(coordinator, "coordinator is null");
        this.ids = requireNonNull(ids, "ids is null");
    }

    @Override
    public Global begin() {
        String gtrid = ids.next();
        return new Global() {
            @Override
            public CompletableFuture<Void> start(String shard, BackendConnection connection) {
                return coordinator.start(gtrid, branch(shard, connection));
            }

            @Override
            public Map<String, String> commit(Map<String, BackendConnection> branches) {
                Map<String, String> commits = new ConcurrentHashMap<>();
                try {
                    coordinator.commit(gtrid, committing(branches, commits)).join();
                    return Map.copyOf(commits);
                } catch (CompletionException e) {
                    Throwable cause = e.getCause() == null ? e : e.getCause();
                    if (cause instanceof XaException xa && xa.branchesLeftPrepared()) {
                        // The outcome is recovery's now; the prepared branches must leave their sessions for it.
                        branches.values().forEach(BackendConnection::close);
                        throw ErrorCode.XA_OUTCOME_UNKNOWN.exception(FailureText.of(cause));
                    }
                    throw ErrorCode.XA_COMMIT_FAILED.exception(FailureText.of(cause));
                }
            }

            @Override
            public void rollback(Map<String, BackendConnection> branches) {
                try {
                    coordinator.rollback(gtrid, branches(branches)).join();
                } catch (CompletionException e) {
                    throw e.getCause() instanceof RuntimeException runtime ? runtime : e;
                }
            }
        };
    }

    private static List<XaBranch> branches(Map<String, BackendConnection> connections) {
        List<XaBranch> branches = new ArrayList<>(connections.size());
        connections.forEach((shard, connection) -> branches.add(branch(shard, connection)));
        return branches;
    }

    /** The branches, each noting in {@code commits} the GTID its XA COMMIT got. */
    private static List<XaBranch> committing(Map<String, BackendConnection> connections, Map<String, String> commits) {
        List<XaBranch> branches = new ArrayList<>(connections.size());
        connections.forEach((shard, connection) -> branches.add(new XaBranch() {
            @Override
            public String shard() {
                return shard;
            }

            @Override
            public CompletableFuture<Void> run(String sql) {
                if (!sql.startsWith(XaStatements.COMMIT_PREFIX)) {
                    return connection.run(Command.QUERY, sql);
                }
                return CommitGtid.run(connection, sql).thenAccept(gtid -> {
                    if (gtid != null) {
                        commits.put(shard, gtid);
                    }
                });
            }
        }));
        return branches;
    }

    private static XaBranch branch(String shard, BackendConnection connection) {
        return new XaBranch() {
            @Override
            public String shard() {
                return shard;
            }

            @Override
            public CompletableFuture<Void> run(String sql) {
                return connection.run(Command.QUERY, sql);
            }
        };
    }
}
