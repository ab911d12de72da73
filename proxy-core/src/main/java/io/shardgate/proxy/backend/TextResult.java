package io.shardgate.proxy.backend;

import io.netty.buffer.ByteBuf;
import io.shardgate.proxy.protocol.Capabilities;
import io.shardgate.proxy.protocol.MalformedPacketException;
import io.shardgate.proxy.protocol.Wire;

import java.util.ArrayList;
import java.util.List;

/**
 * A small text-protocol result set read whole, for Shardgate's own queries on a backend
 * connection (never for client traffic, which streams). Values are raw bytes, null for SQL NULL.
 */
public record TextResult(List<Column> columns, List<List<byte[]>> rows) {

    /** A column's type code and flags from its definition packet. */
    public record Column(String name, int type, int flags, int charset) {
    }

    /** Parses the packets of one COM_QUERY result set (first packet: the column count). */
    static TextResult parse(List<byte[]> packets, long capabilities) {
        if (packets.isEmpty()) {
            throw new MalformedPacketException("empty result");
        }
        ByteBuf first = io.netty.buffer.Unpooled.wrappedBuffer(packets.get(0));
        if (first.getUnsignedByte(0) == 0x00) {
            return new TextResult(List.of(), List.of());
        }
        int count = (int) Wire.readLenencInt(first);
        List<Column> columns = new ArrayList<>(count);
        for (int i = 1; i <= count; i++) {
            ByteBuf def = io.netty.buffer.Unpooled.wrappedBuffer(packets.get(i));
            for (int skip = 0; skip < 4; skip++) {
                Wire.readLenencBytes(def); // catalog, schema, table, org_table
            }
            String name = new String(Wire.readLenencBytes(def), java.nio.charset.StandardCharsets.UTF_8);
            Wire.readLenencBytes(def); // org_name
            Wire.readLenencInt(def);
            int charset = def.readUnsignedShortLE();
            def.skipBytes(4);
            int type = def.readUnsignedByte();
            int flags = def.readUnsignedShortLE();
            columns.add(new Column(name, type, flags, charset));
        }
        int firstRow = count + 1 + (Capabilities.has(capabilities, Capabilities.CLIENT_DEPRECATE_EOF) ? 0 : 1);
        List<List<byte[]>> rows = new ArrayList<>();
        for (int i = firstRow; i < packets.size() - 1; i++) {
            ByteBuf row = io.netty.buffer.Unpooled.wrappedBuffer(packets.get(i));
            List<byte[]> values = new ArrayList<>(count);
            for (int c = 0; c < count; c++) {
                if (row.getUnsignedByte(row.readerIndex()) == 0xFB) {
                    row.skipBytes(1);
                    values.add(null);
                } else {
                    values.add(Wire.readLenencBytes(row));
                }
            }
            rows.add(values);
        }
        return new TextResult(List.copyOf(columns), List.copyOf(rows));
    }
}
