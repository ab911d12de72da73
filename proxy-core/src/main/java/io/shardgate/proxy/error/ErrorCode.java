package io.shardgate.proxy.error;

import io.shardgate.proxy.protocol.ErrPacket;

import java.util.Locale;

/**
 * Every error Shardgate itself sends, with its MySQL error number, SQLSTATE, message template
 * and what it means. docs/errors.md lists the same entries; keep them in step. Backend errors
 * are not in here: they are relayed verbatim.
 */
public enum ErrorCode {
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
    BACKEND_UNAVAILABLE(1429, "HY000", "Unable to reach shard %s %s (%s): %s",
            "Shardgate could not connect or log in to the backend serving this statement. Names the shard, "
                    + "the role and the address, never credentials. The client connection stays usable."),
    BACKEND_POOL_TIMEOUT(1429, "HY000", "Timed out after %d ms waiting for a connection to shard %s %s (%d of %d in use)",
            "Every backend connection of the pool is in use and none came free within limits.backend_acquire_timeout_ms."),
    BACKEND_LOST(1927, "HY000", "Lost connection to shard %s %s during the statement; its outcome is unknown",
            "The backend connection closed while a statement was running. Whether it took effect is unknown; "
                    + "the client connection stays usable."),
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
    NO_FRESH_REPLICA(1429, "HY000", "No replica of shard %s is within the read's freshness budget of %d ms",
            "routing.fallback is error and no replica's measured lag fits the read's budget (hint, session or routing.max_replica_lag_ms)."),
    CROSS_SHARD_TRANSACTION(1235, "42000", "Shardgate does not support a transaction writing to shard %s after writing to %s (transactions.cross_shard is reject)",
            "With transactions.cross_shard: reject, a transaction's write to a second shard is refused; the transaction stays open on the first."),
    XA_COMMIT_FAILED(1402, "XA100", "The cross-shard transaction was rolled back: %s",
            "Two-phase commit could not prepare every shard's branch, so every branch was rolled back; nothing of the transaction is committed."),
    XA_OUTCOME_UNKNOWN(1927, "HY000", "The cross-shard commit's outcome is unknown until recovery resolves it: %s",
            "Every branch was prepared but the commit decision could not be logged or read back; the branches stay prepared and XA recovery commits or rolls back all of them together."),
    UNSUPPORTED(1235, "42000", "Shardgate does not support %s",
            "A statement or command form that Shardgate refuses rather than risk a wrong result."),
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

    public int errno() {
        return errno;
    }

    public String sqlState() {
        return sqlState;
    }

    public String template() {
        return template;
    }

    public String description() {
        return description;
    }

    public ErrPacket packet(Object... args) {
        return new ErrPacket(errno, sqlState, String.format(Locale.ROOT, template, args));
    }

    public ShardgateException exception(Object... args) {
        return new ShardgateException(this, args);
    }
}
