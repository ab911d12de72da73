package io.shardgate.replication.stream.apply;

import io.shardgate.replication.gtid.MariaDbGtid;
import io.shardgate.replication.gtid.MariaDbGtidPosition;
import io.shardgate.replication.stream.ServerEndpoint;
import io.shardgate.replication.stream.StreamException;
import io.shardgate.replication.stream.TableFilter;
import io.shardgate.replication.stream.history.InformationSchemaShapes;
import io.shardgate.replication.stream.history.TableShape;
import io.shardgate.replication.stream.history.TableVersion;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;

import static java.util.Objects.requireNonNull;

/**
 * A MariaDB target over JDBC. Positions live in {@code _shardgate.apply_position} (or a namespace's, {@link StateTables}):
 * one row per (schema, domain) with the last applied GTID, written in the same transaction as
 * the schema's rows; the row with the empty schema name is the stream-wide watermark. The schema
 * history lives next to them in {@code _shardgate.schema_history} ({@link SchemaHistoryTable}).
 */
public final class JdbcApplyTarget implements ApplyTarget {
    static final String WATERMARK = "";
    /** The floor's rows: a database name cannot hold NUL, so no schema's rows can clash with it. */
    static final String FLOOR = "\u0000floor";

    private final ServerEndpoint server;
    private final StateTables tables;
    /** Set once the first DDL was applied: only that one may have run before a crash without its position. */
    private final AtomicBoolean firstDdlDone = new AtomicBoolean();

    public JdbcApplyTarget(ServerEndpoint server) {
        this(server, StateTables.DEFAULT);
    }

    /** A target whose stream keeps its state in {@code tables} (one of several streams into this server). */
    public JdbcApplyTarget(ServerEndpoint server, StateTables tables) {
        this.server = requireNonNull(server, "server is null");
        this.tables = requireNonNull(tables, "tables is null");
    }

    /** Where this target's stream keeps its positions and schema history. */
    public StateTables stateTables() {
        return tables;
    }

    public ServerEndpoint server() {
        return server;
    }

    @Override
    public AppliedPositions load() {
        try (Connection connection = server.connect(); Statement statement = connection.createStatement()) {
            statement.execute("CREATE DATABASE IF NOT EXISTS `_shardgate`");
            statement.execute("CREATE TABLE IF NOT EXISTS " + tables.positions() + " ("
                    + "schema_name VARCHAR(64) NOT NULL, domain_id INT UNSIGNED NOT NULL,"
                    + " server_id INT UNSIGNED NOT NULL, seq BIGINT UNSIGNED NOT NULL,"
                    + " updated_at TIMESTAMP(6) NOT NULL DEFAULT CURRENT_TIMESTAMP(6) ON UPDATE CURRENT_TIMESTAMP(6),"
                    + " PRIMARY KEY (schema_name, domain_id))");
            new SchemaHistoryTable(tables.history()).create(statement);
            Map<String, MariaDbGtidPosition> bySchema = new HashMap<>();
            MariaDbGtidPosition watermark = MariaDbGtidPosition.empty();
            MariaDbGtidPosition floor = MariaDbGtidPosition.empty();
            try (ResultSet rows = statement.executeQuery("SELECT schema_name, domain_id, server_id, seq FROM " + tables.positions())) {
                while (rows.next()) {
                    MariaDbGtid gtid = new MariaDbGtid(rows.getLong(2), rows.getLong(3), rows.getLong(4));
                    String schema = rows.getString(1);
                    if (schema.equals(WATERMARK)) {
                        watermark = watermark.with(gtid);
                    } else if (schema.equals(FLOOR)) {
                        floor = floor.with(gtid);
                    } else {
                        bySchema.merge(schema, MariaDbGtidPosition.empty().with(gtid), (a, b) -> a.with(gtid));
                    }
                }
            }
            return new AppliedPositions(bySchema, watermark, floor);
        } catch (SQLException e) {
            throw new StreamException("cannot read the apply position from target " + server.address() + ": "
                    + e.getMessage(), e);
        }
    }

    @Override
    public void saveFloor(MariaDbGtidPosition floor) {
        try (Connection connection = server.connect(); PreparedStatement statement = connection.prepareStatement(
                "INSERT INTO " + tables.positions() + " (schema_name, domain_id, server_id, seq) VALUES (?, ?, ?, ?)"
                        + " ON DUPLICATE KEY UPDATE server_id = IF(VALUES(seq) > seq, VALUES(server_id), server_id),"
                        + " seq = GREATEST(seq, VALUES(seq))")) {
            for (MariaDbGtid gtid : floor.byDomain().values()) {
                statement.setString(1, FLOOR);
                statement.setLong(2, gtid.domain());
                statement.setLong(3, gtid.server());
                statement.setLong(4, gtid.sequence());
                statement.addBatch();
            }
            statement.executeBatch();
        } catch (SQLException e) {
            throw new StreamException("cannot store the snapshot floor " + floor + " on target " + server.address() + ": "
                    + e.getMessage(), e);
        }
    }

    /** Drops this stream's positions and schema history: the stream is over and will not start again. */
    public void dropState() {
        try (Connection connection = server.connect(); Statement statement = connection.createStatement()) {
            statement.execute("DROP TABLE IF EXISTS " + tables.positions() + ", " + tables.history());
        } catch (SQLException e) {
            throw new StreamException("cannot drop the stream state " + tables + " on " + server.address() + ": "
                    + e.getMessage(), e);
        }
    }

    @Override
    public List<TableVersion> loadSchemaHistory() {
        try (Connection connection = server.connect()) {
            return new SchemaHistoryTable(tables.history()).load(connection);
        } catch (SQLException | IllegalArgumentException e) {
            // IllegalArgumentException: a stored shape that does not decode (written by hand, or by another version).
            throw new StreamException("cannot read the schema history from target " + server.address() + ": "
                    + e.getMessage(), e);
        }
    }

    @Override
    public void saveSchemaHistory(List<TableVersion> versions) {
        try (Connection connection = server.connect()) {
            new SchemaHistoryTable(tables.history()).save(connection, versions);
        } catch (SQLException e) {
            throw new StreamException("cannot store the schema history on target " + server.address() + ": "
                    + e.getMessage(), e);
        }
    }

    @Override
    public List<TableShape> presentShapes(TableFilter filter) {
        try (Connection connection = server.connect()) {
            return InformationSchemaShapes.read(connection, filter);
        } catch (SQLException e) {
            throw new StreamException("cannot read the tables of target " + server.address() + ": " + e.getMessage(), e);
        }
    }

    @Override
    public TargetSession open() {
        try {
            return new JdbcTargetSession(server, tables, firstDdlDone);
        } catch (SQLException e) {
            throw new ApplyException("cannot connect to target " + server.address() + ": " + e.getMessage(), true, e);
        }
    }
}
