package io.shardgate.router.error;

import java.util.Locale;

import static java.util.Objects.requireNonNull;

/**
 * The errors the router raises while planning, binding or merging a statement: each with the MySQL
 * error number and SQLSTATE a client sees, and a message template ({@code %s}, {@code %d}). Where
 * MySQL has an error for the same condition (1748 for a row outside the named partitions, 1146 for
 * an unknown table), it is reused so that drivers react as they would to the server.
 *
 * <p>proxy-core maps these into its own error catalog; docs/errors.md lists them.
 */
public enum PlanningError {
    /** A construct Shardgate refuses rather than risk a wrong result; the argument names it. */
    UNSUPPORTED(1235, "42000", "Shardgate does not support %s"),
    /** An UPDATE (or INSERT ... ON DUPLICATE KEY UPDATE) assigning the shard key column. */
    SHARD_KEY_CHANGE(1235, "42000", "Shardgate does not support changing the shard key %s of a row: delete the row and insert it with the new key"),
    /** An inserted row whose shard is not among the shards named in PARTITION (...). */
    ROW_NOT_IN_PARTITION_SET(1748, "HY000", "Found a row not matching the given partition set"),
    /** PARTITION (...) names a shard that does not hold the (unsharded) table. */
    UNKNOWN_PARTITION(1735, "HY000", "Unknown partition '%s' in table '%s'"),
    /** A value of a range or list vindex that no shard owns. */
    NO_SHARD_FOR_VALUE(1526, "HY000", "Table has no partition for value %s"),
    /** An inserted shard key value that cannot be read as the key's type, such as '5x' for an integer key. */
    BAD_SHARD_KEY_VALUE(1366, "22007", "Incorrect %s value: '%s' for column %s at row %d"),
    /** An inserted row with a NULL shard key. */
    NULL_SHARD_KEY(1048, "23000", "Column '%s' cannot be null"),
    /** An unqualified table name while the session has no current schema. */
    NO_DATABASE_SELECTED(1046, "3D000", "No database selected"),
    /** A table of a sharded schema that the sharding schema does not list. */
    UNKNOWN_TABLE(1146, "42S02", "Table '%s.%s' doesn't exist in the sharding schema"),
    /** A merge operator that must hold rows in memory reached its row limit. */
    BUFFER_LIMIT(1038, "HY001", "Shardgate buffered more than %d rows for %s; narrow the query or raise the row limit"),
    /**
     * DDL failed on some shards and succeeded on others. MariaDB's ER_QUERY_ON_FOREIGN_DATA_SOURCE (1430,
     * "There was a problem processing the query on the foreign data source"): the statement failed on a
     * remote server, which is what a shard is to the proxy (1429, its sibling, is the unreachable shard);
     * not 1105, which is reserved for Shardgate's own bugs, nor 1296, which MyRocks uses for its row lock cap.
     */
    DDL_PARTIALLY_FAILED(1430, "HY000", "The statement failed on shard(s) %s and succeeded on %s: %s"),
    /** Fewer parameters bound than the prepared statement has placeholders. */
    WRONG_PARAMETER_COUNT(1210, "HY000", "Incorrect arguments to EXECUTE: expected %d parameters, got %d");

    private final int errno;
    private final String sqlState;
    private final String template;

    PlanningError(int errno, String sqlState, String template) {
        this.errno = errno;
        this.sqlState = sqlState;
        this.template = template;
    }

    public int errno() {
        return errno;
    }

    public String sqlState() {
        return sqlState;
    }

    public String template() {
        return template;
    }

    /** An exception carrying this error, its template filled with {@code arguments}. */
    public PlanningException exception(Object... arguments) {
        requireNonNull(arguments, "arguments is null");
        return new PlanningException(this, String.format(Locale.ROOT, template, arguments));
    }
}
