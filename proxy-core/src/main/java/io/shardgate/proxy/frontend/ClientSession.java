package io.shardgate.proxy.frontend;

import io.netty.channel.Channel;
import io.shardgate.proxy.backend.BackendConnection;
import io.shardgate.proxy.protocol.ClientCharset;
import io.shardgate.proxy.protocol.ServerStatus;
import io.shardgate.proxy.session.ClientStatements;
import io.shardgate.proxy.session.HandshakeCharset;
import io.shardgate.proxy.session.SessionPin;
import io.shardgate.proxy.session.SessionSettings;
import io.shardgate.proxy.session.SessionVariables;

import io.shardgate.replication.gtid.MariaDbGtidPosition;

import java.util.EnumSet;
import java.util.OptionalLong;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.Set;

/**
 * What Shardgate knows about one authenticated client connection: who it is, the capabilities
 * it negotiated, its schema, the settings it carries from one backend connection to the next,
 * why (if at all) it holds its current backend connection, and its prepared statements.
 *
 * <p>Touched only on the client channel's event loop, except {@link #backend()}, which KILL reads.
 */
final class ClientSession {
    private final long connectionId;
    private final Channel channel;
    private final String user;
    private final String host;
    private final long capabilities;
    private final int collation;
    private final ClientStatements statements;
    private final EnumSet<SessionPin> pins = EnumSet.noneOf(SessionPin.class);
    private final Set<String> unreadUserVariables = new LinkedHashSet<>();
    private final Set<Integer> cursors = new HashSet<>();
    private final Set<Integer> longData = new HashSet<>();
    private final Set<String> temporaryTables = new HashSet<>();
    private String schema;
    private int status = ServerStatus.AUTOCOMMIT;
    private SessionSettings settings;
    private long lastInsertId;
    private String lastGtid = "";
    private MariaDbGtidPosition causalPosition = MariaDbGtidPosition.empty();
    private final io.shardgate.proxy.routing.CausalPositions shardPositions = new io.shardgate.proxy.routing.CausalPositions();
    private OptionalLong maxLagMs = OptionalLong.empty();
    private String nextTransaction;
    private boolean nextTransactionReadOnly;
    private boolean allowBlockingDdl;
    private TrackingChange trackingChange;
    private volatile BackendConnection backend;
    /** {@link #clientCharset()} of the system variables {@code charsetOf}: read again only when they change. */
    private SessionVariables charsetOf;
    private ClientCharset charset = ClientCharset.UTF8MB4;
    private io.shardgate.proxy.digest.DigestRecorder digests = io.shardgate.proxy.digest.DigestRecorder.disabled();
    private boolean backendNoBackslashEscapes;
    private final SessionActivity activity = new SessionActivity(System.nanoTime());

    ClientSession(long connectionId, Channel channel, String user, String host, long capabilities, String schema,
                  int collation, int maxPreparedStatements) {
        this.connectionId = connectionId;
        this.channel = channel;
        this.user = user;
        this.host = host;
        this.capabilities = capabilities;
        this.schema = schema;
        this.collation = collation;
        this.statements = new ClientStatements(maxPreparedStatements);
        this.settings = initialSettings();
    }

    private SessionSettings initialSettings() {
        return SessionSettings.DEFAULTS.withSystem(HandshakeCharset.settings(collation));
    }

    /** COM_RESET_CONNECTION: back to the state right after login, keeping user and schema. */
    void reset() {
        pins.clear();
        unreadUserVariables.clear();
        cursors.clear();
        longData.clear();
        temporaryTables.clear();
        statements.clear();
        status = ServerStatus.AUTOCOMMIT;
        settings = initialSettings();
        lastInsertId = 0;
        maxLagMs = OptionalLong.empty();
        nextTransaction = null;
        nextTransactionReadOnly = false;
        allowBlockingDdl = false;
        backendNoBackslashEscapes = false;
        trackingChange = null;
    }

    /** The running command changes the session tracking of its connection (see {@link TrackingChange}); null when not. */
    TrackingChange trackingChange() {
        return trackingChange;
    }

    void trackingChange(TrackingChange change) {
        this.trackingChange = change;
    }

    /** SET SESSION shardgate_allow_blocking_ddl = ON: ALTERs that block writes are let through. */
    boolean allowBlockingDdl() {
        return allowBlockingDdl;
    }

    void allowBlockingDdl(boolean allowed) {
        this.allowBlockingDdl = allowed;
    }

    /**
     * What a replica must have applied before it may serve this session a read: the session's own
     * writes, and any causality token it presented.
     */
    MariaDbGtidPosition causalPosition() {
        return causalPosition;
    }

    void causalPosition(MariaDbGtidPosition position) {
        this.causalPosition = position;
    }

    /**
     * In a sharded deployment, what a replica of each shard must have applied before it serves this
     * session a read (its writes there, and tokens it presented); the sharded session reads and feeds it.
     */
    io.shardgate.proxy.routing.CausalPositions shardPositions() {
        return shardPositions;
    }

    /** The session's freshness budget (SET @@session.shardgate_max_lag_ms); empty: the config default. */
    OptionalLong maxLagMs() {
        return maxLagMs;
    }

    void maxLagMs(OptionalLong maxLagMs) {
        this.maxLagMs = maxLagMs;
    }

    /** A SET TRANSACTION (next transaction only) to run before the session's next statement; null when none. */
    String nextTransaction() {
        return nextTransaction;
    }

    boolean nextTransactionReadOnly() {
        return nextTransactionReadOnly;
    }

    void nextTransaction(String sql, boolean readOnly) {
        this.nextTransaction = sql;
        this.nextTransactionReadOnly = readOnly;
    }

    long connectionId() {
        return connectionId;
    }

    Channel channel() {
        return channel;
    }

    String user() {
        return user;
    }

    String host() {
        return host;
    }

    long capabilities() {
        return capabilities;
    }

    String schema() {
        return schema;
    }

    void schema(String schema) {
        this.schema = schema;
    }

    /** Transaction-related status flags from the backend's last complete response. */
    int status() {
        return status;
    }

    void status(int serverStatus) {
        int kept = ServerStatus.IN_TRANS | ServerStatus.AUTOCOMMIT | ServerStatus.IN_TRANS_READONLY
                | ServerStatus.NO_BACKSLASH_ESCAPES;
        this.status = serverStatus & kept;
    }

    boolean inTransaction() {
        return (status & ServerStatus.IN_TRANS) != 0;
    }

    SessionSettings settings() {
        return settings;
    }

    /**
     * The character set the client's statements are in: {@code character_set_client} as the
     * handshake set it and session tracking last reported it (SET NAMES, SET character_set_client).
     */
    ClientCharset clientCharset() {
        SessionVariables system = settings.system();
        if (system != charsetOf) {
            charset = ClientCharset.named(system.values().get("character_set_client"));
            charsetOf = system;
        }
        return charset;
    }

    /**
     * Whether the session's sql_mode has NO_BACKSLASH_ESCAPES (a backslash in a string is then an
     * ordinary character): as session tracking reported it, or as the status flag of the last
     * backend response said (a client that narrows session_track_system_variables, as MariaDB
     * Connector/J does, hides sql_mode from tracking).
     */
    boolean noBackslashEscapes() {
        if (backendNoBackslashEscapes) {
            return true;
        }
        String mode = settings.system().values().get("sql_mode");
        return mode != null && mode.toUpperCase(java.util.Locale.ROOT).contains("NO_BACKSLASH_ESCAPES");
    }

    /** The NO_BACKSLASH_ESCAPES status flag of the last response a backend sent this session. */
    void backendNoBackslashEscapes(boolean set) {
        this.backendNoBackslashEscapes = set;
    }

    void settings(SessionSettings settings) {
        this.settings = settings;
    }

    long lastInsertId() {
        return lastInsertId;
    }

    void lastInsertId(long id) {
        this.lastInsertId = id;
    }

    /** The GTID of the session's last committed write, as the server reported it (empty before any). */
    String lastGtid() {
        return lastGtid;
    }

    void lastGtid(String gtid) {
        this.lastGtid = gtid;
        try {
            causalPosition = causalPosition.with(io.shardgate.replication.gtid.MariaDbGtid.parse(gtid));
        } catch (IllegalArgumentException e) {
            // Not a MariaDB GTID (another server family): nothing to wait for.
        }
    }

    EnumSet<SessionPin> pins() {
        return pins;
    }

    /** User variables the session may have assigned whose values Shardgate has not read yet. */
    Set<String> unreadUserVariables() {
        return unreadUserVariables;
    }

    Set<Integer> cursors() {
        return cursors;
    }

    /** The temporary tables the session created and has not dropped (names without schema, lower case). */
    Set<String> temporaryTables() {
        return temporaryTables;
    }

    Set<Integer> longData() {
        return longData;
    }

    ClientStatements statements() {
        return statements;
    }

    /** Whether the session must keep its backend connection after the current command. */
    boolean holdsBackend() {
        return inTransaction() || !pins.isEmpty() || !cursors.isEmpty() || !longData.isEmpty();
    }

    private io.shardgate.proxy.sharding.ShardedSession sharded;

    BackendConnection backend() {
        return backend;
    }

    void backend(BackendConnection backend) {
        this.backend = backend;
    }

    /** The session's sharded state, in a sharded deployment (null otherwise). */
    io.shardgate.proxy.sharding.ShardedSession sharded() {
        return sharded;
    }

    void sharded(io.shardgate.proxy.sharding.ShardedSession sharded) {
        this.sharded = sharded;
    }

    /** What the session is doing, for SHOW PROCESSLIST (read from other sessions' loops). */
    SessionActivity activity() {
        return activity;
    }

    /** The connection's query digest recorder (one that records nothing until the connection sets its own). */
    io.shardgate.proxy.digest.DigestRecorder digests() {
        return digests;
    }

    void digests(io.shardgate.proxy.digest.DigestRecorder digests) {
        this.digests = digests;
    }
}
