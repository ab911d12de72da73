package io.shardgate.proxy.execution;

import io.shardgate.proxy.protocol.ColumnDefinition;
import io.shardgate.router.collation.Collations;
import io.shardgate.router.exec.ValueKind;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * The collation a merge must compare a string column under. A result's column definition carries
 * the connection's result collation (a utf8mb4_bin column reads as utf8mb4_general_ci, 45), not
 * the column's own, and merging shards' streams sorted under one collation while comparing under
 * another gives a wrong order, or DISTINCT rows lost. For a column of a table the definition names
 * ({@code orgTable}, {@code orgName}), the column's own collation is read once from
 * information_schema and cached until DDL runs through Shardgate (DDL sent to the shards directly
 * leaves the cache stale until the proxy restarts); an expression keeps the definition's.
 */
public final class ColumnCollations {
    private static final System.Logger LOG = System.getLogger(ColumnCollations.class.getName());
    private static final String QUERY = "SELECT COLLATION_NAME FROM information_schema.COLUMNS"
            + " WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ? AND COLUMN_NAME = ?";

    private final Supplier<DataSource> catalog;
    private final Map<String, Integer> cache = new ConcurrentHashMap<>();

    /** @param catalog a shard primary to read information_schema from (every shard has the same tables) */
    public ColumnCollations(Supplier<DataSource> catalog) {
        this.catalog = catalog;
    }

    /** A resolver that keeps every definition's collation (for tests, or without a control plane). */
    public static ColumnCollations asReported() {
        return new ColumnCollations(null);
    }

    /** DDL ran through Shardgate: a column's collation may have changed. */
    public void forgetAll() {
        cache.clear();
    }

    /** The collation id to compare {@code definition}'s values under. */
    int of(ColumnDefinition definition) {
        if (catalog == null || ValueKind.of(definition.type(), definition.charset()) != ValueKind.STRING
                || definition.orgTable().isEmpty() || definition.orgName().isEmpty() || definition.schema().isEmpty()) {
            return definition.charset();
        }
        String key = definition.schema() + '\u0000' + definition.orgTable() + '\u0000' + definition.orgName();
        Integer cached = cache.get(key);
        if (cached != null) {
            return cached;
        }
        int id = lookUp(definition);
        cache.put(key, id);
        return id;
    }

    private int lookUp(ColumnDefinition definition) {
        try (Connection connection = catalog.get().getConnection(); PreparedStatement select = connection.prepareStatement(QUERY)) {
            select.setString(1, definition.schema());
            select.setString(2, definition.orgTable());
            select.setString(3, definition.orgName());
            try (ResultSet rows = select.executeQuery()) {
                if (rows.next() && rows.getString(1) != null) {
                    String name = rows.getString(1);
                    // A collation the router cannot compare gets an id it does not know: merging refuses it clearly.
                    return Collations.byName(name).map(c -> c.id()).orElse(-1);
                }
            }
        } catch (SQLException e) {
            LOG.log(System.Logger.Level.WARNING, "cannot read the collation of " + definition.schema() + "." + definition.orgTable()
                    + "." + definition.orgName() + "; merging compares it under the result's collation: " + e.getMessage());
        }
        return definition.charset();
    }
}
