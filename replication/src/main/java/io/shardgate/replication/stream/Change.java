package io.shardgate.replication.stream;

/** One part of a committed transaction: a row change or a DDL statement. */
public sealed interface Change permits RowChange, DdlChange {
    /** The schema this change belongs to; for a database-wide DDL the database it names. */
    String schema();
}
