package io.shardgate.proxy.sharding;

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
final class ResultWriter {
    private final ClientChannel out;
    private final boolean binary;
    private final boolean deprecateEof;

    ResultWriter(ClientChannel out, boolean binary) {
        this.out = out;
        this.binary = binary;
        this.deprecateEof = Capabilities.has(out.capabilities(), Capabilities.CLIENT_DEPRECATE_EOF);
    }

    /** The column count and definitions; rows follow through {@link #row}. */
    void header(List<ColumnDefinition> columns, int status) {
        ByteBuf count = out.alloc().buffer(9);
        Wire.writeLenencInt(count, columns.size());
        out.write(count);
        for (ColumnDefinition column : columns) {
            out.write(column.encode(out.alloc()));
        }
        if (!deprecateEof) {
            out.write(eof(status, 0));
        }
    }

    void row(List<ColumnDefinition> columns, Row row) {
        out.write(binary ? BinaryRowEncoder.encode(columns, row, out.alloc()) : TextRowEncoder.encode(columns, row, out.alloc()));
    }

    /** The end of a result set. */
    void end(int status, int warnings) {
        out.write(deprecateEof ? new OkPacket(OkPacket.EOF_HEADER, 0, 0, status, warnings, "", new byte[0])
                .encode(out.alloc(), out.capabilities()) : eof(status, warnings));
        out.flush();
    }

    /** The OK of a statement without a result set. */
    void ok(Completion completion, int status) {
        out.write(OkPacket.of(completion.affectedRows(), completion.lastInsertId(), status, completion.warnings())
                .encode(out.alloc(), out.capabilities()));
        out.flush();
    }

    /** Streams {@code root} to the client: its columns, rows and end, or an OK for a write. */
    Completion stream(RowStream root, List<ColumnDefinition> shardColumns, java.util.function.IntSupplier status) {
        List<io.shardgate.router.exec.ColumnMeta> metas = root.columns();
        if (metas.isEmpty()) {
            while (root.next() != null) {
                // A write has no rows.
            }
            return root.completion();
        }
        List<ColumnDefinition> columns = OutputColumns.of(metas, shardColumns);
        // Read the first row before sending anything, so a failing shard still gets a clean ERR.
        Row first = root.next();
        header(columns, status.getAsInt());
        for (Row row = first; row != null; row = root.next()) {
            row(columns, row);
        }
        Completion completion = root.completion();
        end(status.getAsInt(), completion.warnings());
        return null;
    }

    private ByteBuf eof(int status, int warnings) {
        return out.alloc().buffer(5).writeByte(0xFE).writeShortLE(warnings).writeShortLE(status);
    }
}
