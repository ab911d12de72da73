package io.shardgate.proxy.reshard;

import io.shardgate.proxy.config.ShardConfig;
import io.shardgate.proxy.config.ShardgateConfig;
import io.shardgate.proxy.jobs.ReshardSpec;
import io.shardgate.proxy.topology.TopologyDocument;
import io.shardgate.replication.copy.CopyTable;
import io.shardgate.replication.copy.CopyTarget;
import io.shardgate.replication.stream.ServerEndpoint;
import io.shardgate.router.schema.ReferenceTable;
import io.shardgate.router.schema.SchemaRules;
import io.shardgate.router.schema.ShardedTable;
import io.shardgate.router.schema.TableRule;
import io.shardgate.router.schema.UnshardedTable;
import io.shardgate.router.shard.KeyRange;
import io.shardgate.router.vindex.HashVindex;
import io.shardgate.storage.StorageAdapters;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

import static java.util.Objects.requireNonNull;

/**
 * What a job moves, read from its spec and the topology: the source shard's primary, the targets, the tables, and
 * what its cutover changes in the topology document while the source's writes are held. A reshard moves every
 * sharded table (by its hash vindex, split by key range) and every reference table (whole, to every target) that
 * exists on the source, and gives the targets the keys; a table move copies its tables whole to one shard, on the
 * engine asked for, and gives them that shard. {@code reverseEdit} undoes {@code switchEdit}: what a reverse writes while
 * the targets' writes are held.
 */
record ReshardPlan(String source, io.shardgate.storage.Engine sourceEngine, ServerEndpoint sourceEndpoint, List<CopyTarget> targets,
                   List<CopyTable> tables, java.util.function.Consumer<com.fasterxml.jackson.databind.node.ObjectNode> switchEdit,
                   java.util.function.Consumer<com.fasterxml.jackson.databind.node.ObjectNode> reverseEdit) {
    ReshardPlan {
        requireNonNull(source, "source is null");
        requireNonNull(sourceEndpoint, "sourceEndpoint is null");
        targets = List.copyOf(targets);
        tables = List.copyOf(tables);
        requireNonNull(switchEdit, "switchEdit is null");
        requireNonNull(reverseEdit, "reverseEdit is null");
    }

    /** A table move: {@code spec}'s tables, whole, to its target shard on its engine. */
    static ReshardPlan of(io.shardgate.proxy.jobs.MoveSpec spec, TopologyDocument topology, ShardgateConfig.BackendUser user,
                          StorageAdapters adapters) {
        ShardConfig source = topology.shard(spec.source())
                .orElseThrow(() -> new IllegalStateException("the topology has no shard " + spec.source() + " any more"));
        ShardConfig target = topology.shard(spec.target())
                .orElseThrow(() -> new IllegalStateException("the topology has no shard " + spec.target() + " any more"));
        List<CopyTable> tables = new ArrayList<>();
        for (String table : spec.tables()) {
            int dot = table.indexOf('.');
            tables.add(CopyTable.whole(table.substring(0, dot), table.substring(dot + 1)));
        }
        CopyTarget copyTarget = new CopyTarget(target.name(), ServerEndpoint.parse(target.primary().toString(), user.name(),
                user.password()), KeyRange.parse("-"), adapters.engine(spec.engine()));
        return new ReshardPlan(spec.source(), source.engine(), ServerEndpoint.parse(source.primary().toString(), user.name(),
                user.password()), List.of(copyTarget), tables, tree -> TopologyMoves.moveTables(tree, spec.tables(), spec.target()),
                tree -> TopologyMoves.moveTables(tree, spec.tables(), spec.source()));
    }

    static ReshardPlan of(ReshardSpec spec, TopologyDocument topology, ShardgateConfig.BackendUser user, StorageAdapters adapters)
            throws SQLException {
        ShardConfig source = topology.shard(spec.source())
                .orElseThrow(() -> new IllegalStateException("the topology has no shard " + spec.source() + " any more"));
        ServerEndpoint endpoint = ServerEndpoint.parse(source.primary().toString(), user.name(), user.password());
        List<CopyTarget> targets = new ArrayList<>();
        for (ReshardSpec.Target target : spec.targets()) {
            targets.add(new CopyTarget(target.name(), ServerEndpoint.parse(target.primary(), user.name(), user.password()),
                    KeyRange.parse(target.keyRange()), adapters.engine(target.engine())));
        }
        List<CopyTable> tables = new ArrayList<>();
        try (Connection connection = endpoint.connect()) {
            for (SchemaRules schema : topology.sharding().map(sharding -> List.copyOf(sharding.schemas())).orElse(List.of())) {
                for (TableRule rule : schema.tables()) {
                    CopyTable table = copyTable(schema.name(), rule, spec.source());
                    if (table != null && exists(connection, schema.name(), rule.name())) {
                        tables.add(table);
                    }
                }
            }
        }
        if (tables.isEmpty()) {
            throw new IllegalStateException("shard " + spec.source() + " holds no sharded table to move");
        }
        return new ReshardPlan(spec.source(), source.engine(), endpoint, targets, tables, tree -> TopologyMoves.giveKeys(tree, spec),
                tree -> TopologyMoves.takeKeysBack(tree, spec));
    }

    private static CopyTable copyTable(String schema, TableRule rule, String sourceShard) {
        if (rule instanceof ShardedTable sharded) {
            if (!(sharded.vindex() instanceof HashVindex hash)) {
                throw new IllegalStateException(schema + "." + sharded.name() + " is sharded by a " + sharded.vindex().describe()
                        + " vindex: a reshard splits key ranges of hash vindexes only (change its list or ranges instead)");
            }
            return new CopyTable(schema, sharded.name(), sharded.shardKey(), hash);
        }
        if (rule instanceof ReferenceTable reference) {
            return CopyTable.whole(schema, reference.name());
        }
        if (rule instanceof UnshardedTable unsharded && unsharded.shard().equals(sourceShard)) {
            throw new IllegalStateException(schema + "." + unsharded.name() + " is an unsharded table on " + sourceShard
                    + ": move it to another shard first (a move job), then reshard");
        }
        return null;
    }

    private static boolean exists(Connection connection, String schema, String table) throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement(
                "SELECT 1 FROM information_schema.TABLES WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ?")) {
            statement.setString(1, schema);
            statement.setString(2, table);
            try (ResultSet rows = statement.executeQuery()) {
                return rows.next();
            }
        }
    }

    /** The names of the targets, in the spec's order. */
    List<String> targetNames() {
        return targets.stream().map(CopyTarget::name).toList();
    }
}
