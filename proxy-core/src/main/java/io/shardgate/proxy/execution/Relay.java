package io.shardgate.proxy.execution;

import io.netty.buffer.ByteBuf;
import io.shardgate.proxy.backend.BackendConnection;
import io.shardgate.proxy.backend.ResponseSink;
import io.shardgate.proxy.protocol.ColumnDefinition;
import io.shardgate.proxy.protocol.ErrPacket;
import io.shardgate.proxy.protocol.MySqlPacket;
import io.shardgate.proxy.protocol.TextRowDecoder;
import io.shardgate.proxy.protocol.Wire;
import io.shardgate.router.exec.Completion;

import java.util.ArrayList;
import java.util.List;

import static java.util.Objects.requireNonNull;

/**
 * One statement's response on one backend connection, relayed to the client on the connection's
 * event loop as it arrives: the single relay of every path that answers from one backend (an
 * unsharded command, a sharded statement whose plan is one route to one shard). How the packets
 * reach the client is its {@link Shape}; what the caller learns on the way, and what it does at the
 * end, its {@link Listener}. While the client's socket is full the backend connection stops reading
 * ({@link ClientChannel#pauseWhileFull}).
 */
public final class Relay implements ResponseSink {
    /** How a response reaches the client. */
    public enum Shape {
        /** Every packet as the backend sent it, sequence ids included (the listener may rewrite an OK). */
        PASSTHROUGH,
        /** Column definitions and text rows as they are; the end of a result and an OK anew with the session's status. */
        TEXT,
        /** As {@link #TEXT}, with the text rows re-encoded in the binary protocol (a COM_STMT_EXECUTE). */
        BINARY
    }

    /** What the caller does with a relayed response; its methods run on the backend connection's event loop. */
    public interface Listener {
        /** A packet about to go out as it is ({@link Shape#PASSTHROUGH} only): returns what goes out instead (or itself). */
        default MySqlPacket relaying(Relay relay, MySqlPacket packet) {
            return packet;
        }

        /** The response is complete ({@code status}: the backend's last status flags; {@code error}: it ended in an ERR). */
        void completed(Relay relay, int status, boolean error);

        /** The connection failed before the response was complete ({@link Relay#started()}: part of it reached the client). */
        void failed(Relay relay, Throwable cause);
    }

    private enum Phase { FIRST, COLUMNS, ROWS, DONE }

    private final BackendConnection connection;
    private final ClientChannel out;
    private final Shape shape;
    private final int status;
    private final Listener listener;
    private final ResultWriter writer;
    private List<ColumnDefinition> columns;
    private Phase phase = Phase.FIRST;
    private int columnCount;
    private TextRowDecoder decoder;
    private long insertId;
    private String lastGtid;
    private ErrPacket error;
    private volatile boolean started;

    /**
     * @param status the session's status flags for a rewritten end ({@link Shape#TEXT}, {@link Shape#BINARY})
     */
    public Relay(BackendConnection connection, ClientChannel out, Shape shape, int status, Listener listener) {
        this.connection = requireNonNull(connection, "connection is null");
        this.out = requireNonNull(out, "out is null");
        this.shape = requireNonNull(shape, "shape is null");
        this.status = status;
        this.listener = requireNonNull(listener, "listener is null");
        this.writer = shape == Shape.PASSTHROUGH ? null : new ResultWriter(out, shape == Shape.BINARY, false);
    }

    public BackendConnection connection() {
        return connection;
    }

    /** Whether part of the response went to the client (a failure then can no longer be answered with an ERR). */
    public boolean started() {
        return started;
    }

    /** The insert id the response's OK reported (0: none; rewritten shapes only). */
    public long insertId() {
        return insertId;
    }

    /** The GTID the statement committed, when the server tracked one (rewritten shapes only). */
    public String lastGtid() {
        return lastGtid;
    }

    /** The number of the ERR the response ended with, relayed as it was (0: none; rewritten shapes only). */
    public int relayedErrno() {
        return error == null ? 0 : error.errno();
    }

    @Override
    public void packet(MySqlPacket packet) {
        if (!started) {
            // Written once per response, not per packet (a volatile write is a fence).
            started = true;
        }
        if (shape == Shape.PASSTHROUGH) {
            out.relay(listener.relaying(this, packet));
        } else {
            reencode(packet);
        }
        if (!out.isWritable()) {
            out.pauseWhileFull(connection);
        }
    }

    private void reencode(MySqlPacket packet) {
        ByteBuf payload = packet.payload();
        int header = packet.header();
        try {
            switch (phase) {
                case FIRST -> {
                    if (header == ErrPacket.HEADER) {
                        error = ErrPacket.decode(payload);
                        phase = Phase.DONE;
                        out.send(payload.retain());
                    } else if (header == 0x00) {
                        Completion completion = ok(payload);
                        phase = Phase.DONE;
                        writer.ok(completion, status);
                    } else {
                        columnCount = (int) Wire.readLenencInt(payload.duplicate());
                        columns = new ArrayList<>(columnCount);
                        phase = Phase.COLUMNS;
                        out.send(payload.retain());
                    }
                }
                case COLUMNS -> {
                    columns.add(ColumnDefinition.parse(payload));
                    out.send(payload.retain());
                    if (columns.size() == columnCount) {
                        phase = Phase.ROWS;
                        decoder = shape == Shape.BINARY ? new TextRowDecoder(columns) : null;
                        writer.afterColumns(status);
                    }
                }
                case ROWS -> {
                    if (header == ErrPacket.HEADER) {
                        error = ErrPacket.decode(payload);
                        phase = Phase.DONE;
                        out.send(payload.retain());
                    } else if (header == 0xFE && payload.readableBytes() < 0xFFFFFF) {
                        Completion completion = ok(payload);
                        phase = Phase.DONE;
                        writer.end(status, completion.warnings());
                    } else if (decoder != null) {
                        writer.row(columns, decoder.decode(payload));
                    } else {
                        out.send(payload.retain());
                    }
                }
                case DONE -> {
                }
            }
        } finally {
            packet.release();
        }
    }

    private Completion ok(ByteBuf payload) {
        ShardOk ok = ShardOk.of(connection, payload);
        insertId = ok.completion().lastInsertId();
        if (ok.lastGtid() != null) {
            lastGtid = ok.lastGtid();
        }
        return ok.completion();
    }

    @Override
    public void flush() {
        out.flush();
    }

    @Override
    public void complete(int serverStatus, boolean failed) {
        // The connection reads again by itself at a response's end: a resume still waiting is not needed.
        out.cancelPause(connection);
        // The response goes to the client now, before the session's bookkeeping of it: that is off the
        // client's wait (its next command cannot run before the bookkeeping, which runs on its loop).
        out.flush();
        listener.completed(this, serverStatus, failed);
    }

    @Override
    public void failed(Throwable cause) {
        out.cancelPause(connection);
        out.drain();
        listener.failed(this, cause);
    }
}
