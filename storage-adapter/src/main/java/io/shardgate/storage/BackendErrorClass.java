package io.shardgate.storage;

/**
 * What a backend error number means for the proxy: whether retrying can help, whether an operator
 * must act, or whether the outcome of the statement is unknown. The error itself is still relayed
 * to the client verbatim; the class only feeds metrics and retry decisions.
 *
 * <p>The numbers were observed on MariaDB 10.11 with InnoDB and MyRocks; see docs/engines.md.
 */
public enum BackendErrorClass {
    /** Deadlock (1213) or lock wait timeout (1205): the transaction may succeed when run again. */
    RETRYABLE,
    /**
     * The server's settings do not fit the engine: {@code binlog_format=STATEMENT} with a
     * row-only engine (1665), an isolation level MyRocks lacks (4057), updates inside a
     * consistent-snapshot transaction (4059).
     */
    MISCONFIGURATION,
    /** The engine ran out of an internal limit, for example MyRocks' {@code rocksdb_max_row_locks} (1296). */
    CAPACITY,
    /** A table or index is corrupt (1034, 1712). */
    CORRUPTION,
    /** The table's engine is not loaded on this server (1286). */
    ENGINE_UNAVAILABLE,
    /** The connection was lost mid-statement (2013, 2006, 1927): whether it took effect is unknown. */
    OUTCOME_UNKNOWN,
    /** Anything else: syntax errors, duplicate keys, missing tables, ... */
    OTHER;

    /** The class of a MySQL/MariaDB error number. */
    public static BackendErrorClass of(int errno) {
        return switch (errno) {
            case 1213, 1205 -> RETRYABLE;
            case 1665, 4057, 4059 -> MISCONFIGURATION;
            case 1296 -> CAPACITY;
            case 1034, 1712 -> CORRUPTION;
            case 1286 -> ENGINE_UNAVAILABLE;
            case 2013, 2006, 1927 -> OUTCOME_UNKNOWN;
            default -> OTHER;
        };
    }
}
