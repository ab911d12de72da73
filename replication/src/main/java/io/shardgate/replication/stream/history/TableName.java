package io.shardgate.replication.stream.history;

import static java.util.Objects.requireNonNull;

/**
 * A source table, named as MariaDB names it on Linux: database and table names are case
 * sensitive ({@code lower_case_table_names=0}), so they are kept and compared exactly.
 */
public record TableName(String schema, String table) {
    public TableName {
        requireNonNull(schema, "schema is null");
        requireNonNull(table, "table is null");
    }

    @Override
    public String toString() {
        return schema + "." + table;
    }
}
