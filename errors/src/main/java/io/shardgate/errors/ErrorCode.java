package io.shardgate.errors;

import java.util.Locale;

import static java.util.Objects.requireNonNull;

/**
 * Every error Shardgate itself sends, in one list: each with the MySQL error number and SQLSTATE a
 * client sees, a message template and what it means (the shape of Vitess's vterrors/code.go). Where
 * MySQL or MariaDB has an error for the same condition (1045 for a wrong password, 1748 for a row
 * outside the named partitions, 1146 for an unknown table), it is reused so that drivers react as
 * they would to the server. docs/errors.md lists the same entries; keep them in step.
 *
 * <p>Templates take {@code %s} and {@code %d} arguments, or positional ones ({@code %1$s}): the DDL
 * refusals take the shard, the engine (as MariaDB names it), the clause and a detail. Backend errors
 * are not in here: they are relayed verbatim.
 */
public enum ErrorCode {
    // Connection phase and protocol.
    ACCESS_DENIED(1045, "28000", "Access denied for user '%s'@'%s' (using password: %s)",
            "Unknown user or wrong password. The connection is closed after this error."),
    INSECURE_TRANSPORT(3159, "HY000", "Connections using insecure transport are prohibited for user '%s'",
            "The user has require_tls set and connected without TLS. The connection is closed."),
    TOO_MANY_CONNECTIONS(1040, "08004", "Too many connections",
            "limits.max_client_connections is reached. The connection is closed."),
    HANDSHAKE_ERROR(1043, "08S01", "Bad handshake: %s",
            "The handshake response could not be read. The connection is closed."),
    UNKNOWN_COMMAND(1047, "08S01", "Unknown command",
            "A command byte Shardgate does not implement (for example binlog or replication commands)."),
    PACKET_TOO_LARGE(1153, "08S01", "Got a packet bigger than 'max_allowed_packet' bytes",
            "A client packet exceeded limits.max_allowed_packet. The connection is closed, as MariaDB does."),
    PACKETS_OUT_OF_ORDER(1156, "08S01", "Got packets out of order",
            "A command packet whose sequence id is not 0 (every command starts a new exchange). The connection is closed, as MariaDB does."),
    WRONG_ARGUMENTS(1210, "HY000", "Incorrect arguments to %s",
            "A COM_STMT_EXECUTE whose parameter block does not fit its statement (cut short, an unknown type, no types on a first execute), "
                    + "or that follows a COM_STMT_SEND_LONG_DATA for a parameter the statement does not have. The session stays usable."),
    MALFORMED_PACKET(1835, "HY000", "Malformed communication packet: %s",
            "A client packet does not follow the protocol. The connection is closed; other sessions are unaffected."),
    // Backends.
    BACKEND_UNAVAILABLE(1429, "HY000", "Unable to reach shard %s %s (%s): %s",
            "Shardgate could not connect or log in to the backend serving this statement. Names the shard, "
                    + "the role and the address, never credentials. The client connection stays usable."),
    BACKEND_POOL_TIMEOUT(1429, "HY000",
            "Timed out after %d ms waiting for a connection to shard %s %s (%s): %d of %d in use; last connection failure: %s",
            "Every backend connection of the pool is in use and none came free within limits.backend_acquire_timeout_ms. "
                    + "Names the pool (shard, role, address), how long the statement waited, and the last failure to open "
                    + "a connection to that backend with how long ago it was (none: the pool is busy, not failing)."),
    BACKEND_LOST(1927, "HY000", "Lost connection to shard %s %s during the statement; its outcome is unknown",
            "The backend connection closed while a statement was running. Whether it took effect is unknown; "
                    + "the client connection stays usable."),
    BACKEND_RETIRED(1927, "HY000", "Shard %s %s was taken out of service during the statement (%s); its outcome is unknown",
            "A topology change closed the backend connection while a statement ran on it: a drain that ran past "
                    + "topology.drain_timeout_ms, or the shard's primary replaced. Says which. The client connection stays usable."),
    WRITES_HELD(1205, "HY000", "Writes to shard %s are held while cutover %s moves its keys, and this one could not wait (%s); nothing was written, run it again",
            "A resharding or table-move cutover holds new writes to the shard it moves for a bounded time. A write that "
                    + "waits longer than the hold's bound, or finds as many statements waiting as the proxy takes client connections "
                    + "(limits.max_client_connections), fails without running. Lock wait timeout's code, as drivers retry it; "
                    + "the transaction, if one is open, stays open."),
    TRANSACTION_ABORTED(1213, "40001", "The transaction was rolled back: its connection to shard %s %s closed (%s); start it again",
            "The backend connection that held the session's open transaction closed between its statements (a topology "
                    + "change replaced the primary, a drain timed out, or the server went away), so the server rolled the "
                    + "transaction back. SQLSTATE 40001, as for a deadlock, tells drivers and frameworks to retry the whole "
                    + "transaction; the session is out of the transaction and stays usable."),
    // Commands and session state.
    UNKNOWN_THREAD(1094, "HY000", "Unknown thread id: %d",
            "KILL named a connection id that is not a Shardgate client connection."),
    NOT_THREAD_OWNER(1095, "HY000", "You are not owner of thread %d",
            "KILL named a connection of another user."),
    UNKNOWN_STATEMENT(1243, "HY000", "Unknown prepared statement handler (%d) given to %s",
            "A prepared-statement command named a statement id this session does not have (never prepared, or closed)."),
    NO_OPEN_CURSOR(1421, "HY000", "The statement (%d) has no open cursor",
            "COM_STMT_FETCH for a statement whose execute opened no cursor, or whose cursor was read to the end."),
    TOO_MANY_PREPARED_STATEMENTS(1461, "42000", "Can't create more than max_prepared_stmt_count statements (current value: %d)",
            "The session holds limits.max_prepared_statements prepared statements; close some first."),
    WRONG_VALUE_FOR_VARIABLE(1231, "42000", "Variable '%s' can't be set to the value of '%s'",
            "A Shardgate session variable got a value it cannot take (for example a malformed shardgate_causal_token)."),
    SHARDGATE_SYNTAX(1064, "42000", "You have an error in your SQL syntax near '%s': Shardgate's own statements are %s; SHOW SHARDGATE HELP describes them",
            "SHOW SHARDGATE followed by a word it does not take, or by more than that word; or EXPLAIN SHARDGATE without a"
                    + " statement. MariaDB's syntax error number; the message lists the statements there are. The session stays usable."),
    NO_FRESH_REPLICA(1429, "HY000", "No replica of shard %s is within the read's freshness budget of %d ms",
            "routing.fallback is error and no replica's measured lag fits the read's budget (hint, session or routing.max_replica_lag_ms)."),
    // Transactions, sequences.
    CROSS_SHARD_TRANSACTION(1235, "42000", "Shardgate does not support a transaction writing to shard %s after writing to %s (transactions.cross_shard is reject)",
            "With transactions.cross_shard: reject, a transaction's write to a second shard is refused; the transaction stays open on the first."),
    READ_ONLY_TRANSACTION(1792, "25006", "Cannot execute statement in a READ ONLY transaction",
            "A write inside START TRANSACTION READ ONLY, refused before it reaches a shard, as MariaDB refuses it."),
    TABLE_NOT_LOCKED(1100, "HY000", "Table '%s' was not locked with LOCK TABLES",
            "Under LOCK TABLES in a sharded deployment, a statement that needs a shard on which the session locked no table:"
                    + " MariaDB's own error for a table the session did not lock. The locks stay held."),
    XA_COMMIT_FAILED(1402, "XA100", "The cross-shard transaction was rolled back: %s",
            "Two-phase commit could not prepare every shard's branch, so every branch was rolled back; nothing of the transaction is committed."),
    XA_OUTCOME_UNKNOWN(1927, "HY000", "The cross-shard commit's outcome is unknown until recovery resolves it: %s",
            "Every branch was prepared but the commit decision could not be logged or read back; the branches stay prepared and XA recovery commits or rolls back all of them together."),
    XA_FAILED(1401, "XAE03", "The cross-shard transaction failed: %s",
            "A step of a cross-shard (XA) transaction other than its commit failed: starting a branch, rolling back, "
                    + "or reading or writing the decision log. MySQL's XAER_RMERR; the message names the shard and the step. "
                    + "The client connection stays usable; roll the transaction back."),
    SEQUENCE_UNAVAILABLE(4135, "HY000", "Cannot take a value of the global %s",
            "A global sequence could not reserve a block of values on its shard (the shard is unreachable, or the "
                    + "sequence has no values left): MariaDB's ER_SEQUENCE_RUN_OUT. The statement that needed the value "
                    + "is not sent; the client connection stays usable."),
    // Planning, binding and merging (router).
    UNSUPPORTED(1235, "42000", "Shardgate does not support %s",
            "A statement or command form that Shardgate refuses rather than risk a wrong result."),
    UNPARSEABLE(1235, "42000", "Shardgate cannot plan this statement over sharded tables: its SQL parser does not read this form of %s: '%s'",
            "In a sharded deployment, a statement Shardgate's SQL parser cannot read that is valid SQL: the first shard's primary"
                    + " prepared it (COM_STMT_PREPARE, closed at once, never executed) without error, or answered that it does not"
                    + " prepare such statements (1295). A statement the shard refuses gets the shard's own error instead, verbatim"
                    + " (1064 for a syntax error). Names the statement's first word and quotes its start (up to 80 characters)."),
    SHARD_KEY_CHANGE(1235, "42000", "Shardgate does not support changing the shard key %s of a row: delete the row and insert it with the new key",
            "An UPDATE (or INSERT ... ON DUPLICATE KEY UPDATE) assigning the shard key column."),
    ROW_NOT_IN_PARTITION_SET(1748, "HY000", "Found a row not matching the given partition set",
            "An inserted row whose shard is not among the shards named in PARTITION (...)."),
    UNKNOWN_PARTITION(1735, "HY000", "Unknown partition '%s' in table '%s'",
            "PARTITION (...) names a shard that does not hold the (unsharded) table."),
    NO_SHARD_FOR_VALUE(1526, "HY000", "Table has no partition for value %s",
            "A value of a range or list vindex that no shard owns."),
    BAD_SHARD_KEY_VALUE(1366, "22007", "Incorrect %s value: '%s' for column %s at row %d",
            "An inserted shard key value that cannot be read as the key's type, such as '5x' for an integer key."),
    NULL_SHARD_KEY(1048, "23000", "Column '%s' cannot be null",
            "An inserted row with a NULL shard key."),
    NO_DATABASE_SELECTED(1046, "3D000", "No database selected",
            "An unqualified table name while the session has no current schema."),
    SCALAR_SUBQUERY_ROWS(1242, "21000", "Subquery returns more than 1 row",
            "A scalar subquery that Shardgate ran first, on other shards than its statement, returned several rows."),
    OPERAND_COLUMNS(1241, "21000", "Operand should contain %d column(s)",
            "A subquery that Shardgate ran first, on other shards than its statement, returned another number of columns."),
    BUFFER_LIMIT(1038, "HY001", "Shardgate buffered more than %d rows for %s; narrow the query or raise the row limit",
            "A merge operator that must hold rows in memory reached its row limit."),
    /*
     * MariaDB's ER_QUERY_ON_FOREIGN_DATA_SOURCE: the statement failed on a remote server, which is what a shard is
     * to the proxy (1429, its sibling, is the unreachable shard); not 1105, which is reserved for Shardgate's own
     * bugs, nor 1296, which MyRocks uses for its row lock cap.
     */
    DDL_PARTIALLY_FAILED(1430, "HY000", "The statement failed on shard(s) %s and succeeded on %s: %s",
            "DDL failed on some shards and succeeded on others; the message names both and carries the first shard's own error."),
    WRONG_PARAMETER_COUNT(1210, "HY000", "Incorrect arguments to EXECUTE: expected %d parameters, got %d",
            "Fewer or more parameters bound than the prepared statement has placeholders."),
    COLUMN_COUNT_MISMATCH(1136, "21S01", "Column count doesn't match value count at row %d",
            "A row of an INSERT without a column list into a sharded table has another number of values than the table has columns."),
    // DDL refusals (storage adapters): %1$s the shard, %2$s the engine, %3$s the clause, %4$s a detail.
    FOREIGN_KEY_UNSUPPORTED(1235, "42000", "Shard %1$s (%2$s) does not support foreign keys: %3$s",
            "A FOREIGN KEY or an inline REFERENCES on an engine without foreign keys. MyRocks refuses the"
                    + " table-level form but accepts inline REFERENCES and silently drops it."),
    FULLTEXT_UNSUPPORTED(1214, "HY000", "Shard %1$s (%2$s) does not support FULLTEXT indexes: %3$s",
            "A FULLTEXT index on an engine without them (MyRocks)."),
    SPATIAL_UNSUPPORTED(1178, "42000", "Shard %1$s (%2$s) does not support spatial types or indexes: %3$s",
            "A GEOMETRY-family column or a SPATIAL index on an engine without them (MyRocks)."),
    TABLE_OPTION_UNSUPPORTED(1478, "HY000", "Shard %1$s (%2$s) does not support the table option %3$s: %4$s",
            "ROW_FORMAT, KEY_BLOCK_SIZE or PAGE_COMPRESSED on MyRocks, which stores them and ignores them;"
                    + " or ROW_FORMAT=COMPRESSED on InnoDB while innodb_read_only_compressed=ON."),
    INVALID_KEY_BLOCK_SIZE(1478, "HY000", "Shard %1$s (%2$s) does not accept %3$s: %4$s",
            "A KEY_BLOCK_SIZE InnoDB rejects for the server's innodb_page_size."),
    CONFLICTING_COMPRESSION(1221, "HY000", "Incorrect usage of %3$s on shard %1$s (%2$s): %4$s",
            "ROW_FORMAT=COMPRESSED (or a KEY_BLOCK_SIZE) together with PAGE_COMPRESSED=1."),
    COMPRESSION_PROVIDER_NOT_LOADED(4185, "HY000",
            "Shard %1$s (%2$s) cannot use %3$s: its provider plugin is not loaded (available: %4$s)",
            "A page-compression algorithm whose provider_* plugin the shard's server has not loaded."),
    ENGINE_MISMATCH(1235, "42000", "Shard %1$s runs %2$s; %3$s would put the table in another engine: %4$s",
            "An ENGINE= clause (the table's or a partition's) of a table in a sharded schema naming an engine Shardgate"
                    + " has no storage adapter for, such as MEMORY, Aria or MyISAM. One naming an engine with an adapter"
                    + " (InnoDB, RocksDB) is rewritten to the shard's engine instead. In a schema that is not sharded such a"
                    + " statement passes as it is."),
    ALTER_ALGORITHM_UNAVAILABLE(1845, "0A000", "%3$s is not supported for this operation on shard %1$s (%2$s). Try %4$s",
            "The statement asks for an ALGORITHM or LOCK cheaper than the shard's engine allows for it."),
    BLOCKING_DDL(1846, "0A000",
            "%3$s is not supported. Reason: it blocks writes on shard %1$s (%2$s) for the whole operation. Try %4$s",
            "The ALTER would block writes (ALGORITHM=COPY, or LOCK=SHARED/EXCLUSIVE on a non-instant change)"
                    + " and the session has not allowed blocking DDL (SET SESSION shardgate_allow_blocking_ddl = ON)."),
    BLOCKING_DDL_LARGE_TABLE(1846, "0A000",
            "%s is not supported. Reason: it blocks writes on shard %s (%s) for the whole operation, and table %s there"
                    + " holds %s rows and about %s bytes: above the %s rows or %s bytes up to which blocking DDL runs"
                    + " without the session's consent (ddl.blocking_max_rows, ddl.blocking_max_bytes). Try %s",
            "The ALTER or CREATE INDEX would block writes and the table is larger, by the engine's own statistics"
                    + " (information_schema.TABLES), than the configured bounds for blocking DDL; below both it runs"
                    + " without SET SESSION shardgate_allow_blocking_ddl = ON."),
    DDL_NOT_UNDERSTOOD(1235, "42000", "Shardgate cannot check this DDL for shard %1$s (%2$s): %4$s",
            "The statement could not be parsed well enough to check it against the shard's engine, so it is"
                    + " not sent to any shard."),
    // Last: a bug.
    INTERNAL(1105, "HY000", "Internal error in Shardgate: %s",
            "A bug. The message names the failure; the connection is closed to keep it consistent.");

    private final int errno;
    private final String sqlState;
    private final String template;
    private final String description;

    ErrorCode(int errno, String sqlState, String template, String description) {
        this.errno = errno;
        this.sqlState = sqlState;
        this.template = template;
        this.description = description;
    }

    /** The MySQL error number of the ERR packet. */
    public int errno() {
        return errno;
    }

    /** The five-character SQLSTATE of the ERR packet. */
    public String sqlState() {
        return sqlState;
    }

    /** The message template, a {@link String#format} pattern. */
    public String template() {
        return template;
    }

    /** What the error means, for docs/errors.md. */
    public String description() {
        return description;
    }

    /** The message of one occurrence: the template filled with {@code args}. */
    public String message(Object... args) {
        requireNonNull(args, "args is null");
        return String.format(Locale.ROOT, template, args);
    }

    /** An exception carrying this error, its template filled with {@code args}. */
    public ShardgateException exception(Object... args) {
        return ShardgateException.of(this, message(args));
    }
}
