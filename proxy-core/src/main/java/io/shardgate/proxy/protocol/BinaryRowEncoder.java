package io.shardgate.proxy.protocol;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.shardgate.router.exec.Row;
import io.shardgate.router.value.SqlValue;

import java.util.List;

/**
 * A binary-protocol result row (https://mariadb.com/kb/en/resultset-row/#binary-resultset-row), as
 * MariaDB 10.11 sends it: 0x00, the NULL bitmap ((columns + 9) / 8 bytes, column i at bit i + 2),
 * then each non-NULL value by its column's type: TINY 1 byte, SHORT and YEAR 2, INT24 and LONG 4,
 * LONGLONG 8, little-endian; FLOAT 4 and DOUBLE 8 bytes IEEE 754; DATE, DATETIME and TIMESTAMP in
 * their 0/4/7/11-byte form and TIME in its 0/8/12-byte form ({@link MySqlTime}); DECIMAL as its
 * text (zero-filled like the text protocol), BIT as big-endian bytes and every other type as
 * bytes, length-encoded. A value of another Java type than the column's is converted as
 * {@link ColumnValues} says.
 */
public final class BinaryRowEncoder {
    private static final int HEADER = 0x00;
    private static final int BITMAP_OFFSET = 2;

    private BinaryRowEncoder() {
    }

    /** The payload of one row of {@code columns}. */
    public static ByteBuf encode(List<ColumnDefinition> columns, Row row, ByteBufAllocator alloc) {
        ColumnFamily.checkRow(columns, row);
        ByteBuf out = alloc.buffer(1 + (columns.size() + 7 + BITMAP_OFFSET) / 8 + 8 * columns.size());
        try {
            out.writeByte(HEADER);
            writeNullBitmap(out, row);
            for (int i = 0; i < columns.size(); i++) {
                SqlValue value = row.get(i);
                if (!value.isNull()) {
                    writeValue(out, columns.get(i), value);
                }
            }
            return out;
        } catch (RuntimeException e) {
            out.release();
            throw e;
        }
    }

    /** One bit per column, from bit 2 of the first byte on, set for NULL. */
    private static void writeNullBitmap(ByteBuf out, Row row) {
        int bits = 0;
        int bit = BITMAP_OFFSET;
        for (int i = 0; i < row.size(); i++, bit++) {
            if (row.get(i).isNull()) {
                bits |= 1 << (bit % 8);
            }
            if (bit % 8 == 7) {
                out.writeByte(bits);
                bits = 0;
            }
        }
        if (bit % 8 != 0) {
            out.writeByte(bits);
        }
    }

    private static void writeValue(ByteBuf out, ColumnDefinition column, SqlValue value) {
        switch (ColumnFamily.of(column)) {
            case INTEGER -> writeInteger(out, column, ColumnValues.integer(value, column));
            case DECIMAL -> ColumnValues.writeLenencAscii(out, ColumnValues.decimalText(value, column));
            case FLOATING -> {
                double d = ColumnValues.toDouble(value, column);
                if (column.type() == ColumnDefinition.TYPE_FLOAT) {
                    out.writeFloatLE((float) d);
                } else {
                    out.writeDoubleLE(d);
                }
            }
            case BIT -> Wire.writeLenencBytes(out, ColumnValues.bits(value, column));
            case DATE_TIME -> ColumnValues.temporal(value, column).writeDateTime(out);
            case TIME -> ColumnValues.temporal(value, column).writeTime(out);
            default -> Wire.writeLenencBytes(out, ColumnValues.textBytes(value, column));
        }
    }

    private static void writeInteger(ByteBuf out, ColumnDefinition column, long value) {
        switch (column.type()) {
            case ColumnDefinition.TYPE_TINY -> out.writeByte((int) value);
            case ColumnDefinition.TYPE_SHORT, ColumnDefinition.TYPE_YEAR -> out.writeShortLE((int) value);
            case ColumnDefinition.TYPE_INT24, ColumnDefinition.TYPE_LONG -> out.writeIntLE((int) value);
            default -> out.writeLongLE(value);
        }
    }
}
