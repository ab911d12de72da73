package io.shardgate.proxy.frontend;

import io.shardgate.proxy.protocol.Command;

/**
 * What one client session is doing, for {@code SHOW PROCESSLIST}: the command it runs (or
 * {@code Sleep} between commands), the statement's text and since when. Written on the session's
 * event loop at each command's start and end; read from any other session's loop, so each field is
 * volatile on its own (a reader may pair a command with the previous statement's text for an
 * instant, as MariaDB's own list may).
 */
final class SessionActivity {
    private volatile Command command;
    private volatile String info;
    private volatile long sinceNanos;

    SessionActivity(long nowNanos) {
        this.sinceNanos = nowNanos;
    }

    /** A command starts: its name shows, without a statement until {@link #statement} names it. */
    void start(Command command, long nowNanos) {
        this.info = null;
        this.command = command;
        this.sinceNanos = nowNanos;
    }

    /** The running command's statement text (COM_QUERY, or the prepared statement of an execute). */
    void statement(String sql) {
        this.info = sql;
    }

    /** The command ended (its answer is sent): the session sleeps, from the first call on. */
    void idle(long nowNanos) {
        if (command == null && info == null) {
            return;
        }
        this.command = null;
        this.info = null;
        this.sinceNanos = nowNanos;
    }

    /** The command's name as MariaDB's {@code Command} column spells it; {@code Sleep} between commands. */
    String command() {
        Command current = command;
        return current == null ? "Sleep" : name(current);
    }

    String info() {
        return info;
    }

    long sinceNanos() {
        return sinceNanos;
    }

    /** MariaDB's names of the commands (sql/sql_class.cc, {@code command_name}). */
    static String name(Command command) {
        return switch (command) {
            case SLEEP -> "Sleep";
            case QUIT -> "Quit";
            case INIT_DB -> "Init DB";
            case QUERY -> "Query";
            case FIELD_LIST -> "Field List";
            case CREATE_DB -> "Create DB";
            case DROP_DB -> "Drop DB";
            case REFRESH -> "Refresh";
            case SHUTDOWN -> "Shutdown";
            case STATISTICS -> "Statistics";
            case PROCESS_INFO -> "Processlist";
            case CONNECT -> "Connect";
            case PROCESS_KILL -> "Kill";
            case DEBUG -> "Debug";
            case PING -> "Ping";
            case TIME -> "Time";
            case DELAYED_INSERT -> "Delayed insert";
            case CHANGE_USER -> "Change user";
            case STMT_PREPARE -> "Prepare";
            case STMT_EXECUTE, STMT_BULK_EXECUTE -> "Execute";
            case STMT_SEND_LONG_DATA -> "Long Data";
            case STMT_CLOSE -> "Close stmt";
            case STMT_RESET -> "Reset stmt";
            case SET_OPTION -> "Set option";
            case STMT_FETCH -> "Fetch";
            case DAEMON -> "Daemon";
            case RESET_CONNECTION -> "Reset connection";
            default -> "Error";
        };
    }
}
