package io.shardgate.proxy.protocol;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * A text-protocol result set that Shardgate answers itself (SHOW SHARDGATE BACKENDS, SELECT
 * @@shardgate_causal_token, SHOW PROCESSLIST): every column a utf8mb4 VARCHAR unless given its
 * definitions, values as text or NULL. Encodes the
 * column count, the definitions, the rows and the end, with or without CLIENT_DEPRECATE_EOF.
 */
public record LocalResultSet(List<String> columns, List<List<String>> rows, List<ColumnDefinition> definitions) {
    private static final int UTF8MB4_GENERAL_CI = 45;
    private static final int TYPE_VAR_STRING = 253;

    public LocalResultSet {
        columns = List.copyOf(columns);
        rows = List.copyOf(rows);
        definitions = List.copyOf(definitions);
        if (!definitions.isEmpty() && definitions.size() != columns.size()) {
            throw new IllegalArgumentException("definitions: " + definitions.size() + " (expected: " + columns.size() + ")");
        }
    }

    /** Every column a utf8mb4 VARCHAR named {@code columns}. */
    public LocalResultSet(List<String> columns, List<List<String>> rows) {
        this(columns, rows, List.of());
    }

    /** Columns as {@code definitions} describe them (SHOW PROCESSLIST's, as MariaDB types them). */
    public static LocalResultSet of(List<ColumnDefinition> definitions, List<List<String>> rows) {
        return new LocalResultSet(definitions.stream().map(ColumnDefinition::name).toList(), rows, definitions);
    }

    /** The packets, sequence ids from 1, the last one carrying {@code status}. */
    public List<MySqlPacket> encode(ByteBufAllocator alloc, long capabilities, int status) {
        boolean deprecateEof = Capabilities.has(capabilities, Capabilities.CLIENT_DEPRECATE_EOF);
        List<MySqlPacket> packets = new ArrayList<>(columns.size() + rows.size() + 3);
        int sequence = 1;
        ByteBuf count = alloc.buffer(9);
        Wire.writeLenencInt(count, columns.size());
        packets.add(new MySqlPacket(sequence++, count));
        for (ColumnDefinition definition : definitions) {
            packets.add(new MySqlPacket(sequence++, definition.encode(alloc)));
        }
        for (String column : definitions.isEmpty() ? columns : List.<String>of()) {
            ByteBuf def = alloc.buffer(32 + column.length());
            Wire.writeLenencString(def, "def");
            Wire.writeLenencString(def, "");
            Wire.writeLenencString(def, "");
            Wire.writeLenencString(def, "");
            Wire.writeLenencString(def, column);
            Wire.writeLenencString(def, column);
            def.writeByte(0x0c).writeShortLE(UTF8MB4_GENERAL_CI).writeIntLE(1024 * 4).writeByte(TYPE_VAR_STRING)
                    .writeShortLE(0).writeByte(0).writeShortLE(0);
            packets.add(new MySqlPacket(sequence++, def));
        }
        if (!deprecateEof) {
            packets.add(new MySqlPacket(sequence++, eof(alloc, status)));
        }
        for (List<String> row : rows) {
            ByteBuf out = alloc.buffer(64);
            for (String value : row) {
                if (value == null) {
                    out.writeByte(0xFB);
                } else {
                    Wire.writeLenencBytes(out, value.getBytes(StandardCharsets.UTF_8));
                }
            }
            packets.add(new MySqlPacket(sequence++, out));
        }
        packets.add(new MySqlPacket(sequence, deprecateEof
                ? new OkPacket(OkPacket.EOF_HEADER, 0, 0, status, 0, "", new byte[0]).encode(alloc, capabilities)
                : eof(alloc, status)));
        return packets;
    }

    private static ByteBuf eof(ByteBufAllocator alloc, int status) {
        return alloc.buffer(5).writeByte(0xFE).writeShortLE(0).writeShortLE(status);
    }
}
