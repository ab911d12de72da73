package io.shardgate.proxy.sharding;

import io.shardgate.proxy.execution.ColumnCollations;
import io.shardgate.proxy.config.ShardgateConfig;
import io.shardgate.proxy.routing.ShardBackends;
import io.shardgate.proxy.sharding.sequence.SequenceAllocator;
import io.shardgate.proxy.sharding.xa.XaCoordinator;
import io.shardgate.proxy.sharding.xa.XaDecisionTable;
import io.shardgate.proxy.sharding.xa.XaRecovery;
import io.shardgate.proxy.sharding.xa.XaRecoverySummary;
import io.shardgate.router.schema.SchemaRules;
import io.shardgate.router.schema.Sequence;
import io.shardgate.router.schema.ShardingSchema;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Builds a sharded deployment from its config: the control plane to every shard primary, the
 * global sequences (blocks from {@code _shardgate.sequences} on each sequence's shard, starting above
 * the largest id already in the table on any shard), and XA: the coordinator, its decision log on
 * {@code transactions.decision_shard}, and recovery, run once before the proxy serves and then every
 * {@link #RECOVERY_INTERVAL}, which resolves branches a crashed proxy left prepared.
 */
public final class ShardingRuntime implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger(ShardingRuntime.class.getName());
    static final Duration RECOVERY_INTERVAL = Duration.ofSeconds(10);
    /** A decision is kept this long after its transaction ended, far longer than any commit takes. */
    private static final Duration DECISION_RETENTION = Duration.ofMinutes(10);

    private final ControlPlane controlPlane;
    private final SequenceAllocator sequences;
    private final List<java.util.concurrent.ExecutorService> threads;
    private final ShardedDeployment deployment;
    private final SchemaTracker columns;

    private ShardingRuntime(ControlPlane controlPlane, SequenceAllocator sequences, List<java.util.concurrent.ExecutorService> threads,
                            ShardedDeployment deployment, SchemaTracker columns) {
        this.controlPlane = controlPlane;
        this.sequences = sequences;
        this.threads = threads;
        this.deployment = deployment;
        this.columns = columns;
    }

    /** {@code routing}: the routing settings in force, which a topology change replaces. */
    public static ShardingRuntime start(ShardgateConfig config, ShardingSchema schema, List<ShardBackends> shards,
                                        java.util.function.Supplier<io.shardgate.proxy.config.RoutingConfig> routing) {
        ControlPlane controlPlane = ControlPlane.of(config.shards(), config.backendUser());
        ScheduledExecutorService recoveryLoop = Executors.newSingleThreadScheduledExecutor(task -> {
            Thread thread = new Thread(task, "shardgate-xa-recovery");
            thread.setDaemon(true);
            return thread;
        });
        SchemaTracker columns = new SchemaTracker(schema, new InformationSchemaColumns(controlPlane::dataSource));
        java.util.concurrent.ExecutorService decisionWork = Executors.newCachedThreadPool(task -> {
            Thread thread = new Thread(task, "shardgate-xa-decisions");
            thread.setDaemon(true);
            return thread;
        });
        try {
            SequenceAllocator sequences = SequenceAllocator.onShards(controlPlane::dataSource,
                    sequence -> floor(controlPlane, schema, sequence), config.limits().sequenceBlock());
            XaDecisionTable decisions = XaDecisionTable.on(controlPlane, config.transactions().decisionShard());
            XaCoordinator coordinator = new XaCoordinator(decisions, decisionWork);
            XaRecovery recovery = new XaRecovery(controlPlane, decisions, coordinator::inFlight, DECISION_RETENTION, true);
            recover(recovery);
            recoveryLoop.scheduleWithFixedDelay(() -> recover(recovery), RECOVERY_INTERVAL.toMillis(), RECOVERY_INTERVAL.toMillis(),
                    TimeUnit.MILLISECONDS);
            columns.start(config.schemaTracking().checkInterval());
            String catalogShard = schema.shardNames().get(0);
            ShardedDeployment deployment = new ShardedDeployment(schema, shards, sequences,
                    new CoordinatedXa(coordinator, new GlobalTransactionIds()),
                    new ColumnCollations(() -> controlPlane.dataSource(catalogShard)), config.transactions(), routing,
                    config.limits().maxBufferedRows(), config.limits().maxClientConnections(), columns);
            return new ShardingRuntime(controlPlane, sequences, List.of(recoveryLoop, decisionWork), deployment, columns);
        } catch (RuntimeException e) {
            columns.close();
            decisionWork.shutdownNow();
            recoveryLoop.shutdownNow();
            controlPlane.close();
            throw e;
        }
    }

    /** A topology change replaced {@code shard}'s primary: sequences, XA decisions and recovery follow it. */
    public void primaryChanged(String shard, io.shardgate.proxy.config.HostPort primary) {
        controlPlane.replacePrimary(shard, primary);
    }

    /** A shard added live: the deployment can route to it once a cutover gives it keys, and XA recovery reaches it. */
    public void shardAdded(io.shardgate.proxy.config.ShardConfig shard, ShardBackends backends) {
        controlPlane.addShard(shard.name(), shard.primary());
        deployment.addShard(backends);
    }

    /** A shard removed live (it owned no keys): nothing reaches it any more, its control connections close. */
    public void shardRemoved(String shard) {
        deployment.removeShard(shard);
        controlPlane.removeShard(shard);
    }

    public ShardedDeployment deployment() {
        return deployment;
    }

    /** The tables' columns as the shards report them, and what differs between shards. */
    public SchemaTracker columns() {
        return columns;
    }

    private static void recover(XaRecovery recovery) {
        try {
            XaRecoverySummary summary = recovery.resolveAll();
            if (summary.committed() == 0 && summary.rolledBack() == 0) {
                LOG.log(System.Logger.Level.DEBUG, "XA recovery: " + summary);
            } else {
                LOG.log(System.Logger.Level.INFO, "XA recovery: " + summary);
            }
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, "XA recovery pass failed; the next one retries: " + e);
        }
    }

    /** One above the largest value of the sequence's column on any shard, so a new sequence never repeats an id. */
    private static long floor(ControlPlane controlPlane, ShardingSchema schema, Sequence sequence) {
        String logical = schema.schemas().stream().filter(rules -> rules.sequences().contains(sequence)).map(SchemaRules::name)
                .findFirst().orElseThrow(() -> new IllegalStateException("no schema has sequence " + sequence.name()));
        String sql = "SELECT COALESCE(MAX(`" + sequence.column().replace("`", "``") + "`), 0) FROM `" + logical.replace("`", "``")
                + "`.`" + sequence.table().replace("`", "``") + "`";
        long max = 0;
        for (String shard : schema.shardNames()) { // a shard that owns no keys yet holds no rows
            DataSource source = controlPlane.dataSource(shard);
            try (Connection connection = source.getConnection(); Statement statement = connection.createStatement();
                 ResultSet rows = statement.executeQuery(sql)) {
                if (rows.next()) {
                    max = Math.max(max, rows.getLong(1));
                }
            } catch (SQLException e) {
                if (e.getErrorCode() != 1146) { // a shard without the table yet has no ids
                    throw new IllegalStateException("cannot read the largest " + sequence.name() + " on shard " + shard + ": "
                            + e.getMessage(), e);
                }
            }
        }
        return max + 1;
    }

    @Override
    public void close() {
        deployment.close();
        columns.close();
        threads.forEach(java.util.concurrent.ExecutorService::shutdownNow);
        sequences.close();
        controlPlane.close();
    }
}
