package io.shardgate.proxy.protocol;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;

import java.nio.charset.StandardCharsets;

import static java.util.Objects.requireNonNull;

/**
 * A column definition packet of a result set
 * (https://mariadb.com/kb/en/result-set-packets/#column-definition-packet): six length-encoded
 * strings ({@code def}, schema, table alias, table, column alias, column), the length 0x0c of the
 * fixed fields, then int&lt;2&gt; collation id, int&lt;4&gt; column length, int&lt;1&gt; field type,
 * int&lt;2&gt; flags, int&lt;1&gt; decimals and two unused bytes. Without MariaDB's extended metadata,
 * which Shardgate does not negotiate.
 *
 * @param charset  the collation id (63 for binary and for numbers and temporal values)
 * @param length   the column length, unsigned
 * @param type     the field type, one of the {@code TYPE_} constants
 * @param flags    the column flags ({@link #FLAG_UNSIGNED}, {@link #FLAG_ZEROFILL}, ...)
 * @param decimals the decimals; 31 ({@link #NOT_FIXED_DECIMALS}) for FLOAT and DOUBLE without a fixed scale
 */
public record ColumnDefinition(String catalog, String schema, String table, String orgTable, String name,
                               String orgName, int charset, long length, int type, int flags, int decimals) {
    public static final int TYPE_DECIMAL = 0x00;
    public static final int TYPE_TINY = 0x01;
    public static final int TYPE_SHORT = 0x02;
    public static final int TYPE_LONG = 0x03;
    public static final int TYPE_FLOAT = 0x04;
    public static final int TYPE_DOUBLE = 0x05;
    public static final int TYPE_NULL = 0x06;
    public static final int TYPE_TIMESTAMP = 0x07;
    public static final int TYPE_LONGLONG = 0x08;
    public static final int TYPE_INT24 = 0x09;
    public static final int TYPE_DATE = 0x0A;
    public static final int TYPE_TIME = 0x0B;
    public static final int TYPE_DATETIME = 0x0C;
    public static final int TYPE_YEAR = 0x0D;
    public static final int TYPE_NEWDATE = 0x0E;
    public static final int TYPE_VARCHAR = 0x0F;
    public static final int TYPE_BIT = 0x10;
    public static final int TYPE_TIMESTAMP2 = 0x11;
    public static final int TYPE_DATETIME2 = 0x12;
    public static final int TYPE_TIME2 = 0x13;
    public static final int TYPE_JSON = 0xF5;
    public static final int TYPE_NEWDECIMAL = 0xF6;
    public static final int TYPE_ENUM = 0xF7;
    public static final int TYPE_SET = 0xF8;
    public static final int TYPE_TINY_BLOB = 0xF9;
    public static final int TYPE_MEDIUM_BLOB = 0xFA;
    public static final int TYPE_LONG_BLOB = 0xFB;
    public static final int TYPE_BLOB = 0xFC;
    public static final int TYPE_VAR_STRING = 0xFD;
    public static final int TYPE_STRING = 0xFE;
    public static final int TYPE_GEOMETRY = 0xFF;

    public static final int FLAG_NOT_NULL = 0x01;
    public static final int FLAG_UNSIGNED = 0x20;
    public static final int FLAG_ZEROFILL = 0x40;
    public static final int FLAG_BINARY = 0x80;
    public static final int FLAG_NUM = 0x8000;

    /** The collation id of binary strings, numbers and temporal values. */
    public static final int BINARY_CHARSET = 63;

    /** The decimals of a FLOAT or DOUBLE without a fixed scale. */
    public static final int NOT_FIXED_DECIMALS = 31;

    private static final String CATALOG = "def";

    private static final int FIXED_FIELDS_LENGTH = 0x0C;

    public ColumnDefinition {
        requireNonNull(catalog, "catalog is null");
        requireNonNull(schema, "schema is null");
        requireNonNull(table, "table is null");
        requireNonNull(orgTable, "orgTable is null");
        requireNonNull(name, "name is null");
        requireNonNull(orgName, "orgName is null");
    }

    /**
     * The definition of a column the proxy computed rather than read from a table (as MariaDB
     * describes an expression): catalog {@code def}, no schema, table or original name.
     */
    public static ColumnDefinition computed(String name, int type, int charset, long length, int flags, int decimals) {
        return new ColumnDefinition(CATALOG, "", "", "", name, "", charset, length, type, flags, decimals);
    }

    /** Reads a column definition without moving the reader index of {@code payload}; bytes after the fixed fields are ignored. */
    public static ColumnDefinition parse(ByteBuf payload) {
        ByteBuf buf = payload.duplicate();
        String catalog = Wire.readLenencString(buf, StandardCharsets.UTF_8);
        String schema = Wire.readLenencString(buf, StandardCharsets.UTF_8);
        String table = Wire.readLenencString(buf, StandardCharsets.UTF_8);
        String orgTable = Wire.readLenencString(buf, StandardCharsets.UTF_8);
        String name = Wire.readLenencString(buf, StandardCharsets.UTF_8);
        String orgName = Wire.readLenencString(buf, StandardCharsets.UTF_8);
        long fixed = Wire.readLenencInt(buf);
        if (fixed < 10) {
            throw new MalformedPacketException("column definition fixed fields length: " + fixed + " (expected: 0x0c)");
        }
        Wire.need(buf, 10, "column definition fixed fields");
        int charset = buf.readUnsignedShortLE();
        long length = buf.readUnsignedIntLE();
        int type = buf.readUnsignedByte();
        int flags = buf.readUnsignedShortLE();
        int decimals = buf.readUnsignedByte();
        return new ColumnDefinition(catalog, schema, table, orgTable, name, orgName, charset, length, type, flags, decimals);
    }

    public ByteBuf encode(ByteBufAllocator alloc) {
        ByteBuf buf = alloc.buffer(32 + 3 * (schema.length() + table.length() + orgTable.length() + name.length() + orgName.length()));
        Wire.writeLenencString(buf, catalog);
        Wire.writeLenencString(buf, schema);
        Wire.writeLenencString(buf, table);
        Wire.writeLenencString(buf, orgTable);
        Wire.writeLenencString(buf, name);
        Wire.writeLenencString(buf, orgName);
        buf.writeByte(FIXED_FIELDS_LENGTH).writeShortLE(charset).writeIntLE((int) length).writeByte(type)
                .writeShortLE(flags).writeByte(decimals).writeShortLE(0);
        return buf;
    }

    /** Whether the column is UNSIGNED. */
    public boolean unsigned() {
        return (flags & FLAG_UNSIGNED) != 0;
    }

    /** Whether the column is ZEROFILL: text results pad numbers with zeros to the column length. */
    public boolean zerofill() {
        return (flags & FLAG_ZEROFILL) != 0;
    }
}
