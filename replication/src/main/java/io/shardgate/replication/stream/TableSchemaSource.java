package io.shardgate.replication.stream;

import com.github.shyiko.mysql.binlog.event.TableMapEventData;
import io.shardgate.replication.gtid.MariaDbGtid;
import io.shardgate.replication.stream.history.TableVersion;

import java.util.List;

/** Resolves a binlog table map to the table's columns and key; told when DDL may have changed them. */
public interface TableSchemaSource {
    TableSchema resolve(TableMapEventData tableMap);

    /** Forgets what is known about {@code schema}'s tables; null forgets everything. */
    void invalidate(String schema);

    /**
     * Told of a DDL statement read at {@code gtid}, before any later row is resolved. Returns the
     * table versions it made, to be stored with the DDL's position; by default it forgets
     * everything and keeps no history.
     */
    default List<TableVersion> afterDdl(MariaDbGtid gtid, DdlChange ddl) {
        invalidate(null);
        return List.of();
    }
}
