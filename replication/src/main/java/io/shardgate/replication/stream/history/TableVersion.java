package io.shardgate.replication.stream.history;

import io.shardgate.replication.gtid.MariaDbGtid;

import static java.util.Objects.requireNonNull;

/**
 * One stored step of the schema history: what a table became at a source transaction.
 *
 * @param table      the table
 * @param gtid       the source transaction (the DDL) that made it so; a bootstrap version carries
 *                   the last transaction of its domain before the stream's start
 * @param ordinal    increases with every version the history makes: among the versions a start
 *                   position covers, the highest ordinal is the newest
 * @param shape      the table's shape; null when the table was dropped or its shape is unknown
 * @param unknownDdl the statement the history could not follow, when the shape is unknown
 */
public record TableVersion(TableName table, MariaDbGtid gtid, long ordinal, TableShape shape, String unknownDdl) {
    public TableVersion {
        requireNonNull(table, "table is null");
        requireNonNull(gtid, "gtid is null");
    }

    public boolean dropped() {
        return shape == null && unknownDdl == null;
    }
}
