package io.shardgate.proxy.execution;

import io.netty.buffer.ByteBuf;
import io.shardgate.proxy.protocol.BinaryRowEncoder;
import io.shardgate.proxy.protocol.Capabilities;
import io.shardgate.proxy.protocol.ColumnDefinition;
import io.shardgate.proxy.protocol.OkPacket;
import io.shardgate.proxy.protocol.TextRowEncoder;
import io.shardgate.proxy.protocol.Wire;
import io.shardgate.router.exec.Completion;
import io.shardgate.router.exec.Row;
import io.shardgate.router.exec.RowStream;

import java.util.List;

/**
 * Writes a merged result to the client in the protocol the command asked for: the text protocol
 * for COM_QUERY, the binary one for COM_STMT_EXECUTE; with or without the EOF packets that
 * CLIENT_DEPRECATE_EOF drops.
 */
public final class ResultWriter {
    private final ClientChannel out;
    private final boolean binary;
    private final boolean deprecateEof;
    private final boolean waits;

    /** A writer for a plan worker: it waits while the client's socket is full. */
    public ResultWriter(ClientChannel out, boolean binary) {
        this(out, binary, true);
    }

    /** {@code waits} false: for an event loop, whose caller handles a full socket itself. */
    public ResultWriter(ClientChannel out, boolean binary, boolean waits) {
        this.out = out;
        this.binary = binary;
        this.waits = waits;
        this.deprecateEof = Capabilities.has(out.capabilities(), Capabilities.CLIENT_DEPRECATE_EOF);
    }

    private void write(ByteBuf payload) {
        if (waits) {
            out.write(payload);
        } else {
            out.send(payload);
        }
    }

    /** The column count and definitions; rows follow through {@link #row}. */
    public void header(List<ColumnDefinition> columns, int status) {
        ByteBuf count = out.alloc().buffer(9);
        Wire.writeLenencInt(count, columns.size());
        write(count);
        for (ColumnDefinition column : columns) {
            write(column.encode(out.alloc()));
        }
        afterColumns(status);
    }

    /**
     * The column count and definitions of a result left open for COM_STMT_FETCH, ended as MariaDB ends them
     * ({@code status} carrying SERVER_STATUS_CURSOR_EXISTS): by an EOF packet, or under CLIENT_DEPRECATE_EOF by
     * an OK packet with the EOF header (the server sends one there too, unlike for a result whose rows follow).
     */
    public void cursorHeader(List<ColumnDefinition> columns, int status) {
        header(columns, status);
        if (deprecateEof) {
            end(status, 0);
        } else {
            out.flush();
        }
    }

    /** What ends the column definitions: an EOF packet, unless the client dropped those. */
    public void afterColumns(int status) {
        if (!deprecateEof) {
            write(eof(status, 0));
        }
    }

    public void row(List<ColumnDefinition> columns, Row row) {
        write(binary ? BinaryRowEncoder.encode(columns, row, out.alloc()) : TextRowEncoder.encode(columns, row, out.alloc()));
    }

    /** The end of a result set. */
    public void end(int status, int warnings) {
        write(deprecateEof ? new OkPacket(OkPacket.EOF_HEADER, 0, 0, status, warnings, "", new byte[0])
                .encode(out.alloc(), out.capabilities()) : eof(status, warnings));
        out.flush();
    }

    /** The OK of a statement without a result set. */
    public void ok(Completion completion, int status) {
        write(OkPacket.of(completion.affectedRows(), completion.lastInsertId(), status, completion.warnings())
                .encode(out.alloc(), out.capabilities()));
        out.flush();
    }

    private ByteBuf eof(int status, int warnings) {
        return out.alloc().buffer(5).writeByte(0xFE).writeShortLE(warnings).writeShortLE(status);
    }
}
