package io.shardgate.router.schema;

/** How one table of a logical schema is placed: config {@code schemas[].tables.NAME}. */
public sealed interface TableRule permits ShardedTable, ReferenceTable, UnshardedTable {
    /** The table name as configured. */
    String name();
}
