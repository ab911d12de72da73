package io.shardgate.replication.stream;

import com.github.shyiko.mysql.binlog.event.TableMapEventData;

/** Resolves a binlog table map to the table's columns and key; told when DDL may have changed them. */
public interface TableSchemaSource {
    TableSchema resolve(TableMapEventData tableMap);

    /** Forgets what is known about {@code schema}'s tables; null forgets everything. */
    void invalidate(String schema);
}
