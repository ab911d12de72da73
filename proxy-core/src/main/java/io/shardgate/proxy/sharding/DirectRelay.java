package io.shardgate.proxy.sharding;

import io.netty.buffer.ByteBuf;
import io.shardgate.proxy.backend.BackendConnection;
import io.shardgate.proxy.backend.ResponseSink;
import io.shardgate.errors.ErrorCode;
import io.shardgate.proxy.protocol.ColumnDefinition;
import io.shardgate.proxy.protocol.ErrPacket;
import io.shardgate.proxy.protocol.MySqlPacket;
import io.shardgate.proxy.protocol.TextRowDecoder;
import io.shardgate.proxy.protocol.Wire;
import io.shardgate.router.exec.Completion;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.BiConsumer;

/**
 * The response of a statement that runs on exactly one shard, relayed to the client on the
 * backend connection's event loop with no plan worker in between (the common OLTP case: a point
 * read or write by shard key). Column definitions and text rows pass through as they are; for a
 * prepared statement the text rows are re-encoded in the binary protocol; the end of a result and
 * the OK of a write are written anew with the session's status. While the client's socket is full
 * the backend connection stops reading.
 */
final class DirectRelay implements ResponseSink {
    private enum Phase { FIRST, COLUMNS, ROWS, DONE }

    private final BackendConnection connection;
    private final ClientChannel out;
    private final ResultWriter writer;
    private final boolean binary;
    private final int status;
    private final BiConsumer<DirectRelay, Throwable> done;
    private final CompletableFuture<StatementOutcome> outcome = new CompletableFuture<>();
    private final List<ColumnDefinition> columns = new ArrayList<>();
    private Phase phase = Phase.FIRST;
    private int columnCount;
    private TextRowDecoder decoder;
    private long insertId;
    private String lastGtid;
    private ErrPacket error;

    /**
     * @param status the session's status flags for the result's end
     * @param done   called once with the relay and the failure (null when the response completed)
     */
    DirectRelay(BackendConnection connection, ClientChannel out, boolean binary, int status, BiConsumer<DirectRelay, Throwable> done) {
        this.connection = connection;
        this.out = out;
        this.binary = binary;
        this.status = status;
        this.writer = new ResultWriter(out, binary, false);
        this.done = done;
    }

    CompletableFuture<StatementOutcome> outcome() {
        return outcome;
    }

    BackendConnection connection() {
        return connection;
    }

    String lastGtid() {
        return lastGtid;
    }

    @Override
    public void packet(MySqlPacket packet) {
        ByteBuf payload = packet.payload();
        int header = packet.header();
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
                    phase = Phase.COLUMNS;
                    out.send(payload.retain());
                }
                packet.release();
            }
            case COLUMNS -> {
                columns.add(ColumnDefinition.parse(payload));
                out.send(payload.retain());
                packet.release();
                if (columns.size() == columnCount) {
                    phase = Phase.ROWS;
                    decoder = binary ? new TextRowDecoder(columns) : null;
                    writer.afterColumns(status);
                }
            }
            case ROWS -> {
                if (header == ErrPacket.HEADER) {
                    error = ErrPacket.decode(payload);
                    phase = Phase.DONE;
                    out.send(payload.retain());
                    packet.release();
                } else if (header == 0xFE && payload.readableBytes() < 0xFFFFFF) {
                    Completion completion = ok(payload);
                    phase = Phase.DONE;
                    writer.end(status, completion.warnings());
                    packet.release();
                } else if (binary) {
                    try {
                        writer.row(columns, decoder.decode(payload));
                    } finally {
                        packet.release();
                    }
                } else {
                    out.send(payload.retain());
                    packet.release();
                }
                if (!out.isWritable()) {
                    connection.autoRead(false);
                    out.onWritable(() -> connection.autoRead(true));
                }
            }
            case DONE -> packet.release();
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
        out.flush();
        done.accept(this, null);
        outcome.complete(new StatementOutcome(insertId, error == null ? 0 : error.errno(), status));
    }

    @Override
    public void failed(Throwable cause) {
        done.accept(this, cause);
        outcome.completeExceptionally(ErrorCode.BACKEND_LOST.exception(connection.target().shard(), connection.target().role()));
    }
}
