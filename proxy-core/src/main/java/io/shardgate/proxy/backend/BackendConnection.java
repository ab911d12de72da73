package io.shardgate.proxy.backend;

import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.shardgate.errors.ErrorCode;
import io.shardgate.proxy.protocol.Command;
import io.shardgate.proxy.protocol.MySqlPacket;

import io.shardgate.proxy.session.SessionSettings;

import java.util.List;
import java.util.concurrent.CompletableFuture;

import static java.util.Objects.requireNonNull;

/**
 * A logged-in native-protocol connection to one backend. It runs one command at a time: the
 * command packet goes out, and every response packet goes to the command's {@link ResponseSink}
 * until the {@link ResponseTracker} says the response is complete.
 */
public final class BackendConnection {
    /** Set before a topology change closes the connection, so its sessions learn why. */
    private volatile String closedBecause;
    private final Channel channel;
    /** Fails the running command when its packet could not be written (one listener for every command). */
    private final ChannelFutureListener failWhenUnsent = done -> {
        if (!done.isSuccess()) {
            fail(lost());
        }
    };
    private final BackendTarget target;
    private final long capabilities;
    private final long shaping;
    private final long serverThreadId;
    private final ResponseTracker tracker;
    private static final String TRACKING = "SET session_track_system_variables='*', session_track_schema=ON,"
            + " session_track_state_change=ON";
    private final BackendStatementCache statements;
    private volatile ResponseSink sink;
    private volatile String schema;
    private volatile SessionSettings settings = SessionSettings.DEFAULTS;
    private volatile boolean untracked;
    private volatile long lastInsertId;
    private volatile BackendPool owner;
    /** Lent by its pool: set when handed out, cleared by the one release or discard of that loan ({@link BackendPool}). */
    final java.util.concurrent.atomic.AtomicBoolean lent = new java.util.concurrent.atomic.AtomicBoolean();

    BackendConnection(Channel channel, BackendTarget target, long capabilities, long shaping, long serverThreadId,
                      String schema, int statementCacheSize) {
        this.statements = new BackendStatementCache(statementCacheSize);
        this.channel = requireNonNull(channel, "channel is null");
        this.target = requireNonNull(target, "target is null");
        this.capabilities = capabilities;
        this.shaping = shaping;
        this.serverThreadId = serverThreadId;
        this.tracker = new ResponseTracker(capabilities);
        this.schema = schema;
        channel.pipeline().addLast("relay", new BackendRelay(this));
    }

    public BackendTarget target() {
        return target;
    }

    public long capabilities() {
        return capabilities;
    }

    /** The client response-shaping capabilities this connection was opened for (its pool key). */
    public long shaping() {
        return shaping;
    }

    /** The backend's own connection id, for KILL. */
    public long serverThreadId() {
        return serverThreadId;
    }

    /** The schema this connection is in as far as Shardgate knows; null when unknown. */
    public String schema() {
        return schema;
    }

    public void schema(String schema) {
        this.schema = schema;
    }

    /** The session settings this connection was last brought to (see {@link io.shardgate.proxy.session.SettingsSync}). */
    public SessionSettings settings() {
        return settings;
    }

    public void settings(SessionSettings settings) {
        this.settings = requireNonNull(settings, "settings is null");
    }

    /**
     * True when the connection may hold session state Shardgate does not know (temporary tables,
     * locks, SQL prepared statements, unexplained changes): it must be reset before anyone else uses it.
     */
    public boolean untracked() {
        return untracked;
    }

    public void markUntracked() {
        this.untracked = true;
    }

    /** True when the server reports session-state changes on this connection. */
    public boolean tracksSession() {
        return io.shardgate.proxy.protocol.Capabilities.has(capabilities, io.shardgate.proxy.protocol.Capabilities.CLIENT_SESSION_TRACK);
    }

    public BackendStatementCache statements() {
        return statements;
    }

    /** Turns on the session tracking Shardgate relies on (after login, and again after each reset). */
    CompletableFuture<Void> enableTracking() {
        if (!tracksSession()) {
            return CompletableFuture.completedFuture(null);
        }
        return run(Command.QUERY, TRACKING);
    }

    /**
     * Turns Shardgate's own session tracking back on after a client's statement changed it (a
     * client may narrow or switch off {@code session_track_*}; Shardgate must keep seeing every change).
     */
    public CompletableFuture<Void> restoreTracking() {
        if (!tracksSession()) {
            return CompletableFuture.completedFuture(null);
        }
        // Also the transaction-state tracking a client may have turned on: back to what a new connection has.
        return run(Command.QUERY, TRACKING + ", session_track_transaction_info=DEFAULT");
    }

    /**
     * COM_RESET_CONNECTION, then tracking again: the connection is back to the server's defaults,
     * with no user variables, temporary tables, locks or prepared statements.
     */
    public CompletableFuture<Void> reset() {
        return run(Command.RESET_CONNECTION, null).thenCompose(ok -> {
            statements.clear();
            settings = SessionSettings.DEFAULTS;
            untracked = false;
            return enableTracking();
        });
    }

    /**
     * Brings this connection to a session's {@code wanted} settings and, when given, its
     * LAST_INSERT_ID(), with one SET at most (none when they already match).
     */
    public CompletableFuture<Void> adopt(SessionSettings wanted, java.util.OptionalLong wantedLastInsertId) {
        String sql = io.shardgate.proxy.session.SettingsSync.statement(settings, wanted).orElse(null);
        boolean assignId = wantedLastInsertId.isPresent() && lastInsertId != wantedLastInsertId.getAsLong();
        if (assignId) {
            String assign = "SESSION last_insert_id=" + Long.toUnsignedString(wantedLastInsertId.getAsLong());
            sql = sql == null ? "SET " + assign : sql + ", " + assign;
        }
        if (sql == null) {
            return CompletableFuture.completedFuture(null);
        }
        return run(Command.QUERY, sql).thenRun(() -> {
            settings = wanted;
            wantedLastInsertId.ifPresent(id -> lastInsertId = id);
        });
    }

    /** Runs a query and reads its (small) text result whole; an ERR completes exceptionally. */
    public CompletableFuture<TextResult> query(String sql) {
        return collect(Command.QUERY, commandPacket(Command.QUERY, sql), packets -> TextResult.parse(packets, capabilities));
    }

    /**
     * Runs a statement answered by one OK (COMMIT, XA COMMIT) and reads that OK with {@code ok}, as it
     * arrives (so the connection's OK fields are still this statement's); an ERR completes exceptionally.
     */
    public <T> CompletableFuture<T> queryOk(String sql, java.util.function.Function<io.netty.buffer.ByteBuf, T> ok) {
        return collect(Command.QUERY, commandPacket(Command.QUERY, sql), packets -> ok.apply(Unpooled.wrappedBuffer(packets.get(packets.size() - 1))));
    }

    /** Prepares a statement on this connection for Shardgate's own use; its response is not relayed. */
    public CompletableFuture<BackendStatement> prepare(String sql) {
        return prepare(MySqlPacket.command(Command.STMT_PREPARE, sql).content());
    }

    /** Prepares a client's statement, given in its own bytes (its character set), on this connection. */
    public CompletableFuture<BackendStatement> prepare(byte[] sql) {
        return prepare(MySqlPacket.command(Command.STMT_PREPARE, sql).content());
    }

    private CompletableFuture<BackendStatement> prepare(io.netty.buffer.ByteBuf payload) {
        return collect(Command.STMT_PREPARE, payload, packets -> {
            io.netty.buffer.ByteBuf ok = Unpooled.wrappedBuffer(packets.get(0));
            return new BackendStatement(ok.getIntLE(1), ok.getUnsignedShortLE(7));
        });
    }

    private static io.netty.buffer.ByteBuf commandPacket(Command command, String text) {
        return MySqlPacket.command(command, text).content();
    }

    /** Runs one of Shardgate's own commands and reads the whole response into {@code result}. */
    private <T> CompletableFuture<T> collect(Command command, io.netty.buffer.ByteBuf payload,
                                             java.util.function.Function<List<byte[]>, T> result) {
        ResponseCollector<T> collector = new ResponseCollector<>(result, true);
        execute(new MySqlPacket(0, payload), command, collector);
        return collector.result();
    }

    /** COM_STMT_CLOSE for a statement of this connection (the server sends no response). */
    public void closeStatement(int statementId) {
        channel.writeAndFlush(new MySqlPacket(0, Unpooled.buffer(5).writeByte(Command.STMT_CLOSE.code()).writeIntLE(statementId)));
    }

    public boolean isOpen() {
        return channel.isActive();
    }

    /** The warning count of the last response (read on the connection's loop, or after its response). */
    public int lastWarnings() {
        return tracker.warnings();
    }

    /** Whether the server's last reported status had a transaction open (read on the connection's loop, or after its response). */
    public boolean inTransaction() {
        return (tracker.lastStatus() & io.shardgate.proxy.protocol.ServerStatus.IN_TRANS) != 0;
    }

    /** The pool this connection belongs to, and must go back to. */
    public BackendPool owner() {
        return owner;
    }

    void owner(BackendPool pool) {
        this.owner = pool;
    }

    /** The LAST_INSERT_ID() this connection would answer, as far as Shardgate knows. */
    public long lastInsertId() {
        return lastInsertId;
    }

    public void lastInsertId(long id) {
        this.lastInsertId = id;
    }

    /** True when the packet just relayed was an OK packet (on this connection's loop). */
    public boolean lastPacketWasOk() {
        return tracker.lastWasOk();
    }

    /** Of the OK packet just relayed: its status flags, insert id, and whether info or session state follow. */
    public int okStatus() {
        return tracker.lastStatus();
    }

    public long okInsertId() {
        return tracker.okInsertId();
    }

    public long okAffectedRows() {
        return tracker.okAffectedRows();
    }

    /** The rows of the current (or last) response's result sets. */
    public long responseRows() {
        return tracker.rows();
    }

    public boolean okHasTrailer() {
        return tracker.okHasTrailer();
    }

    /** COM_STMT_RESET for a statement of this connection: closes its cursor and drops its long data. */
    public CompletableFuture<Void> resetStatement(int statementId) {
        return collect(Command.STMT_RESET, Unpooled.buffer(5).writeByte(Command.STMT_RESET.code()).writeIntLE(statementId),
                packets -> null);
    }

    /** True when the packet just relayed was the server asking for a local file (on this connection's loop). */
    public boolean localInfileRequested() {
        return tracker.wantsLocalInfile();
    }

    public boolean isBusy() {
        return sink != null;
    }

    public Channel channel() {
        return channel;
    }

    /** False while reading is paused for a slow client ({@link #autoRead}). */
    public boolean isReading() {
        return channel.config().isAutoRead();
    }

    /** Stops or resumes reading from the backend (backpressure from a slow client). */
    public void autoRead(boolean on) {
        channel.config().setAutoRead(on);
    }

    /**
     * Sends a command. {@code packet}'s sequence id must be 0. Commands without a response
     * (COM_STMT_CLOSE, COM_STMT_SEND_LONG_DATA) complete as soon as they are written.
     */
    public void execute(MySqlPacket packet, Command command, ResponseSink sink) {
        requireNonNull(sink, "sink is null");
        if (command.hasNoResponse()) {
            channel.writeAndFlush(packet).addListener(done -> {
                if (done.isSuccess()) {
                    sink.complete(0, false);
                } else {
                    sink.failed(lost());
                }
            });
            return;
        }
        if (this.sink != null) {
            packet.release();
            throw new IllegalStateException("backend connection " + target + " is busy");
        }
        this.sink = sink;
        if (channel.eventLoop().inEventLoop()) {
            send(packet, command);
        } else {
            channel.eventLoop().execute(() -> send(packet, command));
        }
    }

    private void send(MySqlPacket packet, Command command) {
        tracker.start(command);
        channel.writeAndFlush(packet).addListener(failWhenUnsent);
    }

    /** Passes more packets of the same command (LOAD DATA LOCAL content) without restarting the tracker. */
    public void continueCommand(MySqlPacket packet) {
        channel.writeAndFlush(packet);
    }

    /**
     * Runs a simple command (COM_RESET_CONNECTION, COM_INIT_DB, a query whose rows are not needed);
     * completes normally on OK and with a {@link io.shardgate.proxy.error.BackendErrorException} on ERR.
     */
    public CompletableFuture<Void> run(Command command, String argument) {
        ResponseCollector<Void> collector = new ResponseCollector<>(packets -> null, false);
        execute(MySqlPacket.command(command, argument), command, collector);
        return collector.result();
    }

    public void close() {
        channel.close();
    }

    /** Closes the connection because a topology change took its backend out: {@code reason} says which. */
    public void close(String reason) {
        closedBecause = reason;
        channel.close();
    }

    /** Why a topology change closed this connection; null when none did. */
    public String closedBecause() {
        return closedBecause;
    }

    Throwable lost() {
        String reason = closedBecause;
        return reason == null ? ErrorCode.BACKEND_LOST.exception(target.shard(), target.role())
                : ErrorCode.BACKEND_RETIRED.exception(target.shard(), target.role(), reason);
    }

    /** Fails the running command, if any, with {@code cause}. */
    void fail(Throwable cause) {
        ResponseSink current = sink;
        sink = null;
        if (current != null) {
            current.failed(cause);
        }
    }

    /** The command running now, or null (on this connection's loop). */
    ResponseSink sink() {
        return sink;
    }

    /** The response of the running command is complete: no command is running any more. */
    void responseDone() {
        sink = null;
    }

    ResponseTracker tracker() {
        return tracker;
    }
}
