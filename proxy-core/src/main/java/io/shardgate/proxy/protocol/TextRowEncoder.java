package io.shardgate.proxy.protocol;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.shardgate.router.exec.Row;
import io.shardgate.router.value.SqlValue;

import java.util.List;

/**
 * A text-protocol result row (https://mariadb.com/kb/en/resultset-row/#text-resultset-row): each
 * value a length-encoded string, NULL as 0xFB. Values print as MariaDB prints them: integers and
 * DECIMALs as digits (a BigDecimal with its own scale), FLOAT and DOUBLE as {@link FloatingPointText}
 * does, ZEROFILL columns padded to the column length, BIT columns as their raw big-endian bytes,
 * temporal text unchanged, strings in the column's charset ({@link CollationCharsets}). A value of
 * another Java type than the column's is converted as {@link ColumnValues} says.
 */
public final class TextRowEncoder {
    private static final int NULL_VALUE = 0xFB;

    private TextRowEncoder() {
    }

    /** The payload of one row of {@code columns}. */
    public static ByteBuf encode(List<ColumnDefinition> columns, Row row, ByteBufAllocator alloc) {
        ColumnFamily.checkRow(columns, row);
        ByteBuf out = alloc.buffer(8 * columns.size());
        try {
            for (int i = 0; i < columns.size(); i++) {
                SqlValue value = row.get(i);
                if (value.isNull()) {
                    out.writeByte(NULL_VALUE);
                } else {
                    writeValue(out, columns.get(i), value);
                }
            }
            return out;
        } catch (RuntimeException e) {
            out.release();
            throw e;
        }
    }

    private static void writeValue(ByteBuf out, ColumnDefinition column, SqlValue value) {
        switch (ColumnFamily.of(column)) {
            case INTEGER -> ColumnValues.writeLenencAscii(out, ColumnValues.integerText(value, column));
            case DECIMAL -> ColumnValues.writeLenencAscii(out, ColumnValues.decimalText(value, column));
            case FLOATING -> ColumnValues.writeLenencAscii(out, ColumnValues.floatingText(value, column));
            case BIT -> Wire.writeLenencBytes(out, ColumnValues.bits(value, column));
            case DATE_TIME, TIME -> {
                if (value.type() == SqlValue.Type.BYTES) {
                    Wire.writeLenencBytes(out, value.bytes());
                } else {
                    ColumnValues.writeLenencAscii(out, ColumnValues.temporalText(value, column));
                }
            }
            default -> Wire.writeLenencBytes(out, ColumnValues.textBytes(value, column));
        }
    }
}
