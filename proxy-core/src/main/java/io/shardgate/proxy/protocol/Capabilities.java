package io.shardgate.proxy.protocol;

/**
 * Capability flags of the handshake ("Capabilities Flags" in the MySQL client/server protocol
 * docs). The lower 32 bits travel in the handshake; Shardgate does not announce MariaDB's
 * extended capabilities, so clients use only what is implemented here.
 */
public final class Capabilities {
    public static final long CLIENT_LONG_PASSWORD = 1L;
    public static final long CLIENT_FOUND_ROWS = 1L << 1;
    public static final long CLIENT_LONG_FLAG = 1L << 2;
    public static final long CLIENT_CONNECT_WITH_DB = 1L << 3;
    public static final long CLIENT_NO_SCHEMA = 1L << 4;
    public static final long CLIENT_COMPRESS = 1L << 5;
    public static final long CLIENT_ODBC = 1L << 6;
    public static final long CLIENT_LOCAL_FILES = 1L << 7;
    public static final long CLIENT_IGNORE_SPACE = 1L << 8;
    public static final long CLIENT_PROTOCOL_41 = 1L << 9;
    public static final long CLIENT_INTERACTIVE = 1L << 10;
    public static final long CLIENT_SSL = 1L << 11;
    public static final long CLIENT_IGNORE_SIGPIPE = 1L << 12;
    public static final long CLIENT_TRANSACTIONS = 1L << 13;
    public static final long CLIENT_RESERVED = 1L << 14;
    public static final long CLIENT_SECURE_CONNECTION = 1L << 15;
    public static final long CLIENT_MULTI_STATEMENTS = 1L << 16;
    public static final long CLIENT_MULTI_RESULTS = 1L << 17;
    public static final long CLIENT_PS_MULTI_RESULTS = 1L << 18;
    public static final long CLIENT_PLUGIN_AUTH = 1L << 19;
    public static final long CLIENT_CONNECT_ATTRS = 1L << 20;
    public static final long CLIENT_PLUGIN_AUTH_LENENC_CLIENT_DATA = 1L << 21;
    public static final long CLIENT_CAN_HANDLE_EXPIRED_PASSWORDS = 1L << 22;
    public static final long CLIENT_SESSION_TRACK = 1L << 23;
    public static final long CLIENT_DEPRECATE_EOF = 1L << 24;
    public static final long CLIENT_OPTIONAL_RESULTSET_METADATA = 1L << 25;
    public static final long CLIENT_ZSTD_COMPRESSION_ALGORITHM = 1L << 26;
    public static final long CLIENT_QUERY_ATTRIBUTES = 1L << 27;

    /** What the proxy announces to clients (SSL is added when TLS is available, LOCAL_FILES when enabled). */
    public static final long SERVER_DEFAULT = CLIENT_LONG_PASSWORD | CLIENT_FOUND_ROWS | CLIENT_LONG_FLAG
            | CLIENT_CONNECT_WITH_DB | CLIENT_NO_SCHEMA | CLIENT_ODBC | CLIENT_IGNORE_SPACE | CLIENT_PROTOCOL_41
            | CLIENT_INTERACTIVE | CLIENT_IGNORE_SIGPIPE | CLIENT_TRANSACTIONS | CLIENT_SECURE_CONNECTION
            | CLIENT_MULTI_STATEMENTS | CLIENT_MULTI_RESULTS | CLIENT_PS_MULTI_RESULTS | CLIENT_PLUGIN_AUTH
            | CLIENT_CONNECT_ATTRS | CLIENT_PLUGIN_AUTH_LENENC_CLIENT_DATA | CLIENT_SESSION_TRACK
            | CLIENT_DEPRECATE_EOF | CLIENT_COMPRESS | CLIENT_ZSTD_COMPRESSION_ALGORITHM;

    /**
     * Flags that change the shape of what a backend sends, and so must be the same on the client's
     * and the backend connection's side for packets to be relayed unchanged. CLIENT_SESSION_TRACK
     * is not one of them: backend connections always track session state, and Shardgate strips
     * the state from OK packets for clients that did not ask for it.
     */
    public static final long RESPONSE_SHAPING = CLIENT_FOUND_ROWS | CLIENT_MULTI_STATEMENTS | CLIENT_MULTI_RESULTS
            | CLIENT_PS_MULTI_RESULTS | CLIENT_DEPRECATE_EOF | CLIENT_IGNORE_SPACE
            | CLIENT_LONG_FLAG | CLIENT_ODBC;

    private Capabilities() {
    }

    public static boolean has(long flags, long flag) {
        return (flags & flag) != 0;
    }
}
