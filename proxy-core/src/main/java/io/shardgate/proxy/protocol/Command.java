package io.shardgate.proxy.protocol;

/** Client command bytes ("Text Protocol" and "Prepared Statements" pages of the protocol docs). */
public enum Command {
    SLEEP(0x00), QUIT(0x01), INIT_DB(0x02), QUERY(0x03), FIELD_LIST(0x04), CREATE_DB(0x05), DROP_DB(0x06),
    REFRESH(0x07), SHUTDOWN(0x08), STATISTICS(0x09), PROCESS_INFO(0x0A), CONNECT(0x0B), PROCESS_KILL(0x0C),
    DEBUG(0x0D), PING(0x0E), TIME(0x0F), DELAYED_INSERT(0x10), CHANGE_USER(0x11), BINLOG_DUMP(0x12),
    TABLE_DUMP(0x13), CONNECT_OUT(0x14), REGISTER_SLAVE(0x15), STMT_PREPARE(0x16), STMT_EXECUTE(0x17),
    STMT_SEND_LONG_DATA(0x18), STMT_CLOSE(0x19), STMT_RESET(0x1A), SET_OPTION(0x1B), STMT_FETCH(0x1C),
    DAEMON(0x1D), BINLOG_DUMP_GTID(0x1E), RESET_CONNECTION(0x1F), STMT_BULK_EXECUTE(0xFA), UNKNOWN(-1);

    private static final Command[] BY_CODE = new Command[256];

    static {
        for (Command command : values()) {
            if (command.code >= 0) {
                BY_CODE[command.code] = command;
            }
        }
    }

    private final int code;

    Command(int code) {
        this.code = code;
    }

    public int code() {
        return code;
    }

    public static Command of(int code) {
        Command command = code >= 0 && code < 256 ? BY_CODE[code] : null;
        return command == null ? UNKNOWN : command;
    }

    /** Commands the server answers with nothing at all. */
    public boolean hasNoResponse() {
        return this == STMT_SEND_LONG_DATA || this == STMT_CLOSE || this == QUIT;
    }
}
