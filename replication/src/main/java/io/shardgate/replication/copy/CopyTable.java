package io.shardgate.replication.copy;

import io.shardgate.router.vindex.HashVindex;

import static java.util.Objects.requireNonNull;

/**
 * A table to copy, and how its rows are placed on the targets.
 *
 * @param schema        the source schema
 * @param table         the table
 * @param shardKey      the column whose hash vindex places a row in a target's key range; null when
 *                      every row goes to every target whose range is the whole keyspace (a table move)
 * @param vindex        the vindex of {@code shardKey}; null exactly when {@code shardKey} is
 */
public record CopyTable(String schema, String table, String shardKey, HashVindex vindex) {
    public CopyTable {
        requireNonNull(schema, "schema is null");
        requireNonNull(table, "table is null");
        if ((shardKey == null) != (vindex == null)) {
            throw new IllegalArgumentException("table " + schema + "." + table + ": a shard key needs a vindex and back");
        }
    }

    /** A table moved whole, without a shard key. */
    public static CopyTable whole(String schema, String table) {
        return new CopyTable(schema, table, null, null);
    }

    public String qualifiedName() {
        return schema + "." + table;
    }
}
