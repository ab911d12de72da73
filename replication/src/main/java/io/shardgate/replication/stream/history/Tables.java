package io.shardgate.replication.stream.history;

import java.util.List;

/** The tables DDL evolution reads and changes: the schema history's present state. */
interface Tables {
    /** The table's shape; null when it does not exist or its shape is unknown. */
    TableShape shape(TableName name);

    /** True when the table exists as far as the history knows (with a known or unknown shape). */
    boolean exists(TableName name);

    void put(TableShape shape);

    void drop(TableName name);

    /** The table exists but the history cannot tell its columns. */
    void unknown(TableName name);

    /** Every table the history holds in {@code schema}. */
    List<TableName> inSchema(String schema);

    /** The database's default character set; null when not known. */
    String databaseCharset(String schema);

    /** Records a database's default character set; null forgets it. */
    void databaseCharset(String schema, String charset);
}
