package io.shardgate.proxy.routing;

import io.shardgate.proxy.backend.BackendConnection;
import io.shardgate.proxy.backend.BackendPool;
import io.shardgate.proxy.config.RoutingConfig;
import io.shardgate.errors.ErrorCode;
import io.shardgate.replication.gtid.MariaDbGtidPosition;

import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import java.util.function.Function;

import static java.util.Objects.requireNonNull;

/**
 * Where a plain read runs within a shard, for a session of either kind: a replica the
 * {@link ReplicaChooser} picks for the read's freshness budget, made to wait (MASTER_GTID_WAIT) for
 * the session's last write when causal reads need it; the primary when no replica fits (or an
 * error, with {@code routing.fallback: error}), when the replica does not catch up in time, or when
 * it cannot be reached (the read costs nothing then).
 */
public final class ReplicaRead {
    private static final System.Logger LOG = System.getLogger(ReplicaRead.class.getName());
    private final ReplicaChooser chooser = new ReplicaChooser();
    private final java.util.function.Supplier<RoutingConfig> settings;
    private final Runnable retriedOnPrimary;

    /**
     * @param settings         the routing settings in force (a topology change replaces them)
     * @param retriedOnPrimary counts a read moved to the primary because its replica failed
     */
    public ReplicaRead(java.util.function.Supplier<RoutingConfig> settings, Runnable retriedOnPrimary) {
        this.settings = requireNonNull(settings, "settings is null");
        this.retriedOnPrimary = requireNonNull(retriedOnPrimary, "retriedOnPrimary is null");
    }

    /**
     * @param shard    the shard the read belongs to
     * @param budgetMs the read's freshness budget
     * @param written  the session's last write on this shard (ignored without causal reads)
     * @param bind     takes a connection of a pool, ready for the session
     * @param giveBack returns a replica connection the read does not use after all
     * @param who      names the session in the log
     */
    public CompletableFuture<BackendConnection> connect(ShardBackends shard, long budgetMs, MariaDbGtidPosition written,
                                                        Function<BackendPool, CompletableFuture<BackendConnection>> bind,
                                                        Consumer<BackendConnection> giveBack, String who) {
        RoutingConfig routing = settings.get();
        MariaDbGtidPosition mustHave = routing.causalReads() == RoutingConfig.CausalReads.OFF ? MariaDbGtidPosition.empty() : written;
        ReplicaChoice choice = chooser.choose(shard, budgetMs, mustHave);
        if (choice.replica().isEmpty()) {
            if (routing.fallback() == RoutingConfig.Fallback.ERROR) {
                return CompletableFuture.failedFuture(ErrorCode.NO_FRESH_REPLICA.exception(shard.shard(), budgetMs));
            }
            return bind.apply(shard.primary());
        }
        ReplicaBackend replica = choice.replica().get();
        CompletableFuture<BackendConnection> bound = bind.apply(replica.pool());
        if (choice.waitFor().isPresent()) {
            long waitMs = Math.min(budgetMs, routing.causalWait().toMillis());
            bound = bound.thenCompose(connection -> caughtUp(connection, choice.waitFor().get(), waitMs).thenCompose(ok -> {
                if (ok) {
                    return CompletableFuture.completedFuture(connection);
                }
                // The replica did not apply the session's write in time: the primary has it.
                giveBack.accept(connection);
                return bind.apply(shard.primary());
            }));
        }
        // A replica that cannot be reached costs the read nothing: the primary answers it.
        return bound.exceptionallyCompose(error -> {
            LOG.log(System.Logger.Level.WARNING, who + ": replica " + replica.server().address()
                    + " could not take a read, the primary answers it: " + error);
            retriedOnPrimary.run();
            return bind.apply(shard.primary());
        });
    }

    /** MASTER_GTID_WAIT on the replica: true when it applied {@code position} within {@code waitMs}. */
    private static CompletableFuture<Boolean> caughtUp(BackendConnection connection, MariaDbGtidPosition position, long waitMs) {
        String sql = "SELECT MASTER_GTID_WAIT('" + position + "', " + (waitMs / 1000.0) + ")";
        return connection.query(sql).handle((result, error) -> error == null && result.rows().size() == 1
                && result.rows().get(0).get(0) != null
                && new String(result.rows().get(0).get(0), java.nio.charset.StandardCharsets.US_ASCII).equals("0"));
    }
}
