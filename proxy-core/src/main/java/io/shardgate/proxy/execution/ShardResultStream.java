package io.shardgate.proxy.execution;

import io.netty.buffer.ByteBuf;
import io.shardgate.proxy.backend.BackendConnection;
import io.shardgate.proxy.backend.ResponseSink;
import io.shardgate.proxy.error.BackendErrorException;
import io.shardgate.errors.ErrorCode;
import io.shardgate.proxy.protocol.ColumnDefinition;
import io.shardgate.proxy.protocol.ErrPacket;
import io.shardgate.proxy.protocol.MySqlPacket;
import io.shardgate.proxy.protocol.TextRowDecoder;
import io.shardgate.proxy.protocol.Wire;
import io.shardgate.router.exec.ColumnMeta;
import io.shardgate.router.exec.Completion;
import io.shardgate.router.exec.Row;
import io.shardgate.router.exec.RowStream;
import io.shardgate.router.exec.ValueKind;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * One shard statement's response, read by a plan operator on the statement's worker thread while
 * the backend connection's event loop feeds it. Rows wait in a small queue: above
 * {@link #HIGH_WATER} queued rows the connection stops reading from the server, and it resumes when
 * the reader has taken the queue down to {@link #LOW_WATER}, so a scatter query holds a bounded
 * number of rows per shard however large the result.
 *
 * <p>The backend connection runs with CLIENT_DEPRECATE_EOF (see {@code StatementCursor} in {@code sharding}), so
 * a result ends with an OK packet whose header is 0xFE. When the reader stops early the rest of the
 * response is read and dropped, and the connection is handed back once it is complete.
 */
public final class ShardResultStream implements RowStream, ResponseSink {
    static final int HIGH_WATER = 512;
    static final int LOW_WATER = 64;

    private enum Phase { FIRST, COLUMNS, ROWS, DONE }

    private final String shard;
    private final ColumnCollations collations;
    private final Consumer<ShardResultStream> onComplete;
    private final ArrayDeque<MySqlPacket> rows = new ArrayDeque<>();
    private final List<ColumnDefinition> definitions = new ArrayList<>();
    private BackendConnection connection;
    private Phase phase = Phase.FIRST;
    private int columnCount;
    private List<ColumnMeta> columns;
    private TextRowDecoder decoder;
    private Completion completion = Completion.NONE;
    private RuntimeException error;
    private boolean complete;
    private boolean closed;
    private boolean paused;
    private boolean handedBack;
    private String lastGtid;

    /**
     * @param shard      the shard, for errors
     * @param onComplete called once the response is complete (or failed) and the reader is done,
     *                   to hand the connection back
     */
    private volatile CompletableFuture<Void> settled = CompletableFuture.completedFuture(null);
    /** Whether its connection may be closed, rather than read to the end, when its reader stops early. */
    private volatile boolean abandonable;

    /**
     * How long the rest of a result its reader stopped reading is drained before the connection is closed
     * instead: MariaDB stops sending a result only when its connection goes (or on KILL QUERY), and a shard
     * result of millions of rows would hold the connection for seconds.
     */
    public static final long ABANDON_AFTER_MS = 200;

    public ShardResultStream(String shard, ColumnCollations collations, Consumer<ShardResultStream> onComplete) {
        this.shard = shard;
        this.collations = collations;
        this.onComplete = onComplete;
    }

    /** The connection the statement runs on, once acquired. */
    public synchronized void connection(BackendConnection connection) {
        this.connection = connection;
    }

    public synchronized BackendConnection connection() {
        return connection;
    }

    public String shard() {
        return shard;
    }

    /** The statement could not be sent (no connection, a failed settings statement). */
    public void failBeforeStart(Throwable cause) {
        synchronized (this) {
            error = cause instanceof RuntimeException e ? e : new IllegalStateException(cause);
            complete = true;
            phase = Phase.DONE;
            notifyAll();
        }
        handBackIfDone();
    }

    // ----- ResponseSink: the connection's event loop -----

    @Override
    public void packet(MySqlPacket packet) {
        ByteBuf payload = packet.payload();
        int header = packet.header();
        synchronized (this) {
            if (closed && phase == Phase.ROWS) {
                packet.release();
                return;
            }
            switch (phase) {
                case FIRST -> {
                    if (header == ErrPacket.HEADER) {
                        error = new BackendErrorException(ErrPacket.decode(payload));
                        phase = Phase.DONE;
                    } else if (header == 0x00) {
                        completion = ok(payload);
                        phase = Phase.DONE;
                    } else {
                        columnCount = (int) Wire.readLenencInt(payload.duplicate());
                        phase = columnCount == 0 ? Phase.ROWS : Phase.COLUMNS;
                    }
                    packet.release();
                }
                case COLUMNS -> {
                    definitions.add(ColumnDefinition.parse(payload));
                    packet.release();
                    if (definitions.size() == columnCount) {
                        phase = Phase.ROWS;
                        decoder = new TextRowDecoder(definitions);
                        notifyAll();
                    }
                }
                case ROWS -> {
                    if (header == ErrPacket.HEADER) {
                        error = new BackendErrorException(ErrPacket.decode(payload));
                        phase = Phase.DONE;
                        packet.release();
                    } else if (header == 0xFE && payload.readableBytes() < 0xFFFFFF) {
                        completion = ok(payload);
                        phase = Phase.DONE;
                        packet.release();
                    } else {
                        rows.add(packet);
                        if (rows.size() >= HIGH_WATER && !paused && connection != null) {
                            paused = true;
                            connection.autoRead(false);
                        }
                    }
                }
                case DONE -> packet.release();
            }
            notifyAll();
        }
    }

    private Completion ok(ByteBuf payload) {
        ShardOk ok = ShardOk.of(connection, payload);
        if (ok.lastGtid() != null) {
            lastGtid = ok.lastGtid();
        }
        return ok.completion();
    }

    @Override
    public void flush() {
    }

    @Override
    public void complete(int status, boolean failed) {
        synchronized (this) {
            complete = true;
            if (phase != Phase.DONE) {
                phase = Phase.DONE;
            }
            notifyAll();
        }
        handBackIfDone();
    }

    @Override
    public void failed(Throwable cause) {
        synchronized (this) {
            if (error == null) {
                error = ErrorCode.BACKEND_LOST.exception(shard, connection == null ? "backend" : connection.target().role());
            }
            complete = true;
            phase = Phase.DONE;
            notifyAll();
        }
        handBackIfDone();
    }

    // ----- RowStream: the plan's worker thread -----

    @Override
    public List<ColumnMeta> columns() {
        List<ColumnDefinition> known;
        synchronized (this) {
            while (decoder == null && phase != Phase.DONE) {
                await();
            }
            if (error != null) {
                throw error;
            }
            if (columns != null) {
                return columns;
            }
            known = List.copyOf(definitions);
        }
        // On the plan worker, outside the lock the event loop takes: a column's own collation may need
        // one catalog read (cached).
        List<ColumnMeta> metas = metas(known, collations);
        synchronized (this) {
            columns = metas;
        }
        return metas;
    }

    /** The shard's column definitions (empty for a write); valid after {@link #columns()}. */
    public synchronized List<ColumnDefinition> definitions() {
        return List.copyOf(definitions);
    }

    @Override
    public Row next() {
        MySqlPacket packet;
        TextRowDecoder rowDecoder;
        synchronized (this) {
            while (rows.isEmpty() && phase != Phase.DONE) {
                await();
            }
            if (rows.isEmpty()) {
                if (error != null) {
                    throw error;
                }
                while (!complete) {
                    await();
                }
                return null;
            }
            packet = rows.poll();
            if (paused && rows.size() <= LOW_WATER) {
                paused = false;
                connection.autoRead(true);
            }
            rowDecoder = decoder;
        }
        try {
            return rowDecoder.decode(packet.payload());
        } finally {
            packet.release();
        }
    }

    @Override
    public synchronized Completion completion() {
        return completion;
    }

    /** The GTID of the write this statement committed (autocommit), if the server reported one. */
    public synchronized String lastGtid() {
        return lastGtid;
    }

    /** Waits until the response is complete; true when it ended in an error. */
    public RuntimeException awaitComplete() {
        RuntimeException failure;
        synchronized (this) {
            while (!complete) {
                await();
            }
            failure = error;
        }
        // What runs on the connection after the statement (the removal of a join's copies) ends before it is used again.
        settled.join();
        return failure;
    }

    /** The connection will be free only once {@link #settle()} is called, after statements run once the result ended. */
    public void settleLater() {
        settled = new CompletableFuture<>();
    }

    /** What ran on the connection after the statement has ended: {@link #awaitComplete()} returns. */
    public void settle() {
        settled.complete(null);
    }

    /**
     * Its connection is a pooled one, not a transaction's or a session's own: if the reader stops before
     * the result ends and the rest takes longer than {@link #ABANDON_AFTER_MS} to drain, the connection is
     * closed (and then discarded) instead.
     */
    public void abandonable() {
        abandonable = true;
    }

    @Override
    public void close() {
        BackendConnection draining = null;
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
            MySqlPacket packet;
            while ((packet = rows.poll()) != null) {
                packet.release();
            }
            if (paused) {
                paused = false;
                connection.autoRead(true);
            }
            if (!complete && abandonable && connection != null) {
                draining = connection;
            }
        }
        if (draining != null) {
            BackendConnection abandoned = draining;
            abandoned.channel().eventLoop().schedule(() -> {
                if (!isComplete()) {
                    abandoned.channel().close();
                }
            }, ABANDON_AFTER_MS, TimeUnit.MILLISECONDS);
        }
        handBackIfDone();
    }

    public synchronized boolean isComplete() {
        return complete;
    }

    /** Whether its reader closed it: what is left of the response is drained, for no one. */
    public synchronized boolean isClosed() {
        return closed;
    }

    private void handBackIfDone() {
        synchronized (this) {
            if (!complete || handedBack || !(closed || error != null)) {
                return;
            }
            handedBack = true;
        }
        onComplete.accept(this);
    }

    private void await() {
        try {
            wait(TimeUnit.SECONDS.toMillis(1));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw ErrorCode.INTERNAL.exception("interrupted while reading shard " + shard);
        }
    }

    private static List<ColumnMeta> metas(List<ColumnDefinition> definitions, ColumnCollations collations) {
        List<ColumnMeta> metas = new ArrayList<>(definitions.size());
        for (ColumnDefinition definition : definitions) {
            metas.add(new ColumnMeta(definition.name(), ValueKind.of(definition.type(), definition.charset()),
                    collations.of(definition), definition.decimals()));
        }
        return metas;
    }
}
