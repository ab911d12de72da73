package io.shardgate.replication.copy;

import io.shardgate.replication.stream.ServerEndpoint;
import io.shardgate.storage.StorageAdapters;
import io.shardgate.storage.capability.EngineCapabilities;
import io.shardgate.storage.capability.ServerFacts;
import io.shardgate.storage.capability.ServerFactsReader;
import io.shardgate.storage.ddl.DdlValidator;
import io.shardgate.storage.ddl.DdlVerdict;
import io.shardgate.storage.ddl.EngineScope;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

import static java.util.Objects.requireNonNull;

/**
 * Creates the moved tables, empty, on a target: the source's {@code SHOW CREATE TABLE} translated for
 * the target's engine and checked by the storage adapters' {@link DdlValidator} (an
 * {@code ENGINE=} clause becomes the target's engine; what the engine refuses, such as FULLTEXT or
 * SPATIAL indexes and foreign keys on MyRocks, is refused with a message naming the table and the
 * feature). The database is created first when missing, with the source's character set. A table
 * that is already there is kept when the copy resumes; a fresh copy requires it to be empty.
 */
final class TargetSchema {
    private final StorageAdapters adapters;
    private final DdlValidator validator;

    TargetSchema(StorageAdapters adapters) {
        this.adapters = requireNonNull(adapters, "adapters is null");
        this.validator = new DdlValidator(adapters);
    }

    /** The target's engine capabilities (its row-lock cap sizes the chunks). */
    EngineCapabilities capabilities(Connection target, CopyTarget described) throws SQLException {
        ServerFacts facts = new ServerFactsReader().read(target);
        if (!facts.hasEngine(described.engine().serverName())) {
            throw new CopyException("target " + described.name() + " (" + described.endpoint().address()
                    + ") cannot create " + described.engine().serverName() + " tables (engine support: "
                    + facts.engineSupport(described.engine().serverName()) + ")");
        }
        return adapters.forEngine(described.engine()).capabilities(facts);
    }

    /**
     * Creates every table of {@code tables} on {@code target}; returns the target's capabilities.
     *
     * @param resuming a copy resumed from checkpoints: tables already there keep their rows
     */
    EngineCapabilities create(ServerEndpoint source, CopyTarget target, List<CopyTable> tables, boolean resuming) {
        try (Connection from = source.connect(); Connection to = target.endpoint().connect();
             Statement read = from.createStatement(); Statement write = to.createStatement()) {
            EngineCapabilities capabilities = capabilities(to, target);
            for (CopyTable table : tables) {
                String database = single(read, "SHOW CREATE DATABASE " + TableShape.quote(table.schema()), 2);
                String prefix = "CREATE DATABASE ";
                write.execute(database.startsWith(prefix)
                        ? prefix + "IF NOT EXISTS " + database.substring(prefix.length()) : database);
                String ddl = single(read, "SHOW CREATE TABLE " + TableShape.quote(table.schema()) + "."
                        + TableShape.quote(table.table()), 2);
                DdlVerdict verdict = validator.validate(ddl, capabilities, target.name(), true, EngineScope.SHARD_ENGINE);
                if (verdict instanceof DdlVerdict.Refused refused) {
                    throw new CopyException("table " + table.qualifiedName() + " cannot move to target " + target.name()
                            + " (" + target.engine().serverName() + "): " + refused.message());
                }
                String sql = ((DdlVerdict.Accepted) verdict).sql();
                write.execute("USE " + TableShape.quote(table.schema()));
                if (exists(write, table)) {
                    if (!resuming && hasRows(write, table)) {
                        throw new CopyException("target " + target.name() + " already has rows in " + table.qualifiedName()
                                + "; a new copy starts from empty tables (drop them, or resume from the checkpoints)");
                    }
                } else {
                    try {
                        write.execute(sql);
                    } catch (SQLException e) {
                        throw new CopyException("table " + table.qualifiedName() + " cannot move to target " + target.name()
                                + " (" + target.engine().serverName() + "): " + e.getMessage(), e);
                    }
                }
            }
            return capabilities;
        } catch (SQLException e) {
            throw new CopyException("cannot create the tables on target " + target.name() + " ("
                    + target.endpoint().address() + "): " + e.getMessage(), e);
        }
    }

    private static boolean exists(Statement statement, CopyTable table) throws SQLException {
        try (ResultSet rows = statement.executeQuery("SELECT COUNT(*) FROM information_schema.TABLES WHERE TABLE_SCHEMA = '"
                + table.schema().replace("'", "''").replace("\\", "\\\\") + "' AND TABLE_NAME = '"
                + table.table().replace("'", "''").replace("\\", "\\\\") + "'")) {
            return rows.next() && rows.getLong(1) > 0;
        }
    }

    private static boolean hasRows(Statement statement, CopyTable table) throws SQLException {
        try (ResultSet rows = statement.executeQuery("SELECT 1 FROM " + TableShape.quote(table.schema()) + "."
                + TableShape.quote(table.table()) + " LIMIT 1")) {
            return rows.next();
        }
    }

    private static String single(Statement statement, String sql, int column) throws SQLException {
        try (ResultSet rows = statement.executeQuery(sql)) {
            if (!rows.next()) {
                throw new CopyException("the source answered nothing to " + sql);
            }
            return rows.getString(column);
        }
    }
}
