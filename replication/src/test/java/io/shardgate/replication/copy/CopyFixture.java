package io.shardgate.replication.copy;

import io.shardgate.replication.stream.ServerEndpoint;
import io.shardgate.replication.topology.Node;
import io.shardgate.replication.topology.Topology;
import io.shardgate.replication.topology.TopologySpec;
import io.shardgate.router.shard.KeyRange;
import io.shardgate.storage.Engine;
import io.shardgate.storage.StorageAdapters;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Consumer;

/**
 * A source (InnoDB, full row metadata in its binlog), two InnoDB targets and a MyRocks one, started
 * once for the copy ITs; closing it stops them.
 */
final class CopyFixture implements AutoCloseable {
    private final Topology topology;

    private CopyFixture(Topology topology) {
        this.topology = topology;
    }

    static CopyFixture start() {
        return new CopyFixture(Topology.start(TopologySpec.builder()
                .shard("src", Engine.INNODB, 0)
                .shard("low", Engine.INNODB, 0)
                .shard("high", Engine.INNODB, 0)
                .shard("rocks", Engine.ROCKSDB, 0)
                .serverOption("binlog_row_metadata", "FULL")
                .build()));
    }

    Node node(String shard) {
        return topology.shard(shard).primary();
    }

    ServerEndpoint endpoint(String shard) {
        Node node = node(shard);
        return new ServerEndpoint(node.host(), node.port(), topology.accounts().user(), topology.accounts().password());
    }

    CopyTarget target(String shard, String range) {
        return new CopyTarget(shard, endpoint(shard), KeyRange.parse(range), node(shard).engine());
    }

    TableCopy copy(List<CopyTable> tables, List<CopyTarget> targets, CopySettings settings, Throttle throttle,
                   Consumer<CopyCheckpoint> sink) {
        return new TableCopy(endpoint("src"), tables, targets, settings, throttle, sink,
                StorageAdapters.load(getClass().getClassLoader()), notice -> System.out.println("copy: " + notice));
    }

    /** The first column of each row to the second, sorted by the first. */
    static Map<String, String> rows(Node node, String sql) {
        Map<String, String> rows = new TreeMap<>();
        try (Connection connection = node.connect(); Statement statement = connection.createStatement();
             ResultSet result = statement.executeQuery(sql)) {
            while (result.next()) {
                rows.put(result.getString(1), result.getString(2));
            }
        } catch (SQLException e) {
            throw new IllegalStateException(node + ": " + e.getMessage(), e);
        }
        return rows;
    }

    /** Every row of a query, each as its columns joined with '|'. */
    static List<String> lines(Node node, String sql) {
        List<String> lines = new ArrayList<>();
        try (Connection connection = node.connect(); Statement statement = connection.createStatement();
             ResultSet result = statement.executeQuery(sql)) {
            int columns = result.getMetaData().getColumnCount();
            while (result.next()) {
                StringBuilder line = new StringBuilder();
                for (int i = 1; i <= columns; i++) {
                    line.append(i > 1 ? "|" : "").append(result.getString(i));
                }
                lines.add(line.toString());
            }
        } catch (SQLException e) {
            throw new IllegalStateException(node + ": " + e.getMessage(), e);
        }
        return lines;
    }

    @Override
    public void close() {
        topology.close();
    }
}
