package io.shardgate.proxy.session;

/**
 * Why a session keeps its backend connection between commands instead of handing it back to the
 * pool: state that lives on that connection and cannot be moved. An open transaction, an open
 * cursor and long data waiting for its execute pin too; the session keeps those itself.
 */
public enum SessionPin {
    /** CREATE TEMPORARY TABLE: the table exists only on this connection. */
    TEMPORARY_TABLES(true),
    /** GET_LOCK(): held until RELEASE_ALL_LOCKS() (RELEASE_LOCK of one of several cannot be followed). */
    NAMED_LOCKS(true),
    /** LOCK TABLES, until UNLOCK TABLES. */
    TABLE_LOCKS(true),
    /** SQL-level PREPARE/EXECUTE: the statements live on the connection. */
    SQL_PREPARED_STATEMENTS(true),
    /** The server reported a session change Shardgate cannot name (for example inside a procedure). */
    UNTRACKED_STATE(true),
    /** COM_SET_OPTION changed the connection's multi-statement option. */
    STATEMENT_OPTION(true),
    /**
     * SQL_CALC_FOUND_ROWS, warnings or an error: the next statement may ask FOUND_ROWS(), SHOW
     * WARNINGS, SHOW ERRORS or GET DIAGNOSTICS, whose answers live on this connection.
     */
    NEXT_STATEMENT(false);

    private final boolean resetsConnection;

    SessionPin(boolean resetsConnection) {
        this.resetsConnection = resetsConnection;
    }

    /** Whether the connection must be reset (COM_RESET_CONNECTION) before another session uses it. */
    public boolean resetsConnection() {
        return resetsConnection;
    }
}
