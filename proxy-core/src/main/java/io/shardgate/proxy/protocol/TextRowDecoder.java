package io.shardgate.proxy.protocol;

import io.netty.buffer.ByteBuf;
import io.shardgate.router.exec.Row;
import io.shardgate.router.exec.ValueKind;
import io.shardgate.router.value.SqlValue;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * Reads a shard's text-protocol result row (https://mariadb.com/kb/en/resultset-row/#text-resultset-row)
 * into a router row, each value a {@link SqlValue} of the type its {@link ValueKind} calls for: INTEGER an
 * INTEGER (a BIG_INTEGER above Long.MAX_VALUE; a BIT column's big-endian bytes as a number), DECIMAL a
 * DECIMAL with the scale of its text, FLOAT a FLOAT, TEMPORAL the TEXT, STRING TEXT in the
 * column's charset ({@link CollationCharsets}), BINARY BYTES, OTHER TEXT in the column's charset.
 *
 * <p>It runs for every row of a scatter query, so it reads values in place without moving the
 * payload's reader index, and parses short numbers without building strings.
 */
public final class TextRowDecoder {
    private static final int NULL_VALUE = 0xFB;
    /** Digits that always fit a long, with or without a sign. */
    private static final int LONG_SAFE_DIGITS = 18;
    /** Digits whose integer a double holds exactly (below 2^53). */
    private static final int DOUBLE_SAFE_DIGITS = 15;
    /** Marks text that is not a plain decimal of few enough digits. */
    private static final long NOT_SHORT = Long.MIN_VALUE;
    private static final double[] POWERS_OF_TEN = {1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
        1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};

    private final List<ColumnDefinition> columns;
    private final ValueKind[] kinds;
    private final boolean[] bits;
    private final Charset[] charsets;

    public TextRowDecoder(List<ColumnDefinition> columns) {
        this.columns = List.copyOf(columns);
        this.kinds = new ValueKind[columns.size()];
        this.bits = new boolean[columns.size()];
        this.charsets = new Charset[columns.size()];
        for (int i = 0; i < kinds.length; i++) {
            ColumnDefinition column = columns.get(i);
            kinds[i] = ValueKind.of(column.type(), column.charset());
            bits[i] = column.type() == ColumnDefinition.TYPE_BIT;
            charsets[i] = CollationCharsets.charset(column.charset());
        }
    }

    /** The row in {@code payload}, which must hold exactly one value per column. */
    public Row decode(ByteBuf payload) {
        SqlValue[] values = new SqlValue[kinds.length];
        int at = payload.readerIndex();
        int end = payload.writerIndex();
        for (int i = 0; i < values.length; i++) {
            if (at >= end) {
                throw new MalformedPacketException("text row: " + i + " values (expected: " + values.length + ")");
            }
            int first = payload.getUnsignedByte(at);
            if (first == NULL_VALUE) {
                at++;
                values[i] = SqlValue.NULL;
                continue;
            }
            int header = first < NULL_VALUE ? 1 : first == 0xFC ? 3 : first == 0xFD ? 4 : 9;
            if (first == 0xFF || at + header > end) {
                throw new MalformedPacketException("text row value " + i + ": bad length-encoded string at byte " + (at - payload.readerIndex()));
            }
            long length = switch (header) {
                case 1 -> first;
                case 3 -> payload.getUnsignedShortLE(at + 1);
                case 4 -> payload.getUnsignedMediumLE(at + 1);
                default -> payload.getLongLE(at + 1);
            };
            at += header;
            if (length < 0 || length > end - at) {
                throw new MalformedPacketException("text row value " + i + " length: " + Long.toUnsignedString(length)
                        + " (expected: <= " + (end - at) + " remaining bytes)");
            }
            values[i] = value(i, payload, at, (int) length);
            at += (int) length;
        }
        if (at != end) {
            throw new MalformedPacketException("text row: " + (end - at) + " bytes after " + values.length + " values (expected: none)");
        }
        return Row.wrap(values);
    }

    private SqlValue value(int column, ByteBuf buf, int at, int length) {
        return switch (kinds[column]) {
            case INTEGER -> bits[column] ? bits(buf, at, length) : integer(column, buf, at, length);
            case DECIMAL -> SqlValue.ofDecimal(decimal(column, buf, at, length));
            case FLOAT -> SqlValue.ofDouble(floating(column, buf, at, length));
            case TEMPORAL -> SqlValue.ofText(buf.toString(at, length, StandardCharsets.ISO_8859_1));
            case BINARY -> {
                byte[] bytes = new byte[length];
                buf.getBytes(at, bytes);
                yield SqlValue.ofBytes(bytes);
            }
            default -> SqlValue.ofText(buf.toString(at, length, charsets[column]));
        };
    }

    private SqlValue integer(int column, ByteBuf buf, int at, int length) {
        int end = at + length;
        boolean negative = length > 0 && buf.getByte(at) == '-';
        int start = negative ? at + 1 : at;
        if (end - start > LONG_SAFE_DIGITS || start == end) {
            return bigInteger(column, buf, at, length);
        }
        long value = 0;
        for (int i = start; i < end; i++) {
            int digit = buf.getByte(i) - '0';
            if (digit < 0 || digit > 9) {
                throw notA("an integer", column, buf, at, length);
            }
            value = value * 10 + digit;
        }
        return SqlValue.ofLong(negative ? -value : value);
    }

    private SqlValue bigInteger(int column, ByteBuf buf, int at, int length) {
        try {
            BigInteger value = new BigInteger(buf.toString(at, length, StandardCharsets.ISO_8859_1));
            return SqlValue.ofInteger(value);
        } catch (NumberFormatException e) {
            throw notA("an integer", column, buf, at, length);
        }
    }

    private static SqlValue bits(ByteBuf buf, int at, int length) {
        if (length == Long.BYTES && buf.getByte(at) < 0) {
            byte[] bytes = new byte[length];
            buf.getBytes(at, bytes);
            return SqlValue.ofInteger(new BigInteger(1, bytes));
        }
        long value = 0;
        for (int i = at; i < at + length; i++) {
            value = value << 8 | buf.getUnsignedByte(i);
        }
        return SqlValue.ofLong(value);
    }

    private BigDecimal decimal(int column, ByteBuf buf, int at, int length) {
        long unscaled = unscaled(buf, at, length, LONG_SAFE_DIGITS);
        if (unscaled != NOT_SHORT) {
            return BigDecimal.valueOf(unscaled, scale(buf, at, length));
        }
        try {
            return new BigDecimal(buf.toString(at, length, StandardCharsets.ISO_8859_1));
        } catch (NumberFormatException e) {
            throw notA("a decimal", column, buf, at, length);
        }
    }

    private double floating(int column, ByteBuf buf, int at, int length) {
        long unscaled = unscaled(buf, at, length, DOUBLE_SAFE_DIGITS);
        if (unscaled != NOT_SHORT) {
            int scale = scale(buf, at, length);
            if (scale < POWERS_OF_TEN.length) {
                double magnitude = Math.abs(unscaled) / POWERS_OF_TEN[scale];
                return buf.getByte(at) == '-' ? -magnitude : magnitude;
            }
        }
        try {
            return Double.parseDouble(buf.toString(at, length, StandardCharsets.ISO_8859_1));
        } catch (NumberFormatException e) {
            throw notA("a number", column, buf, at, length);
        }
    }

    /**
     * The digits of '[-]DIGITS[.DIGITS]' as a long, ignoring the point, when there are at most
     * {@code maxDigits} of them; {@link #NOT_SHORT} for anything else (an exponent, more digits).
     */
    private static long unscaled(ByteBuf buf, int at, int length, int maxDigits) {
        int end = at + length;
        int i = length > 0 && buf.getByte(at) == '-' ? at + 1 : at;
        long value = 0;
        int digits = 0;
        boolean point = false;
        for (; i < end; i++) {
            byte b = buf.getByte(i);
            if (b == '.' && !point) {
                point = true;
            } else if (b >= '0' && b <= '9' && ++digits <= maxDigits) {
                value = value * 10 + (b - '0');
            } else {
                return NOT_SHORT;
            }
        }
        if (digits == 0) {
            return NOT_SHORT;
        }
        return buf.getByte(at) == '-' ? -value : value;
    }

    /** The digits after the point of a plain decimal. */
    private static int scale(ByteBuf buf, int at, int length) {
        int point = buf.indexOf(at, at + length, (byte) '.');
        return point < 0 ? 0 : at + length - point - 1;
    }

    private MalformedPacketException notA(String what, int column, ByteBuf buf, int at, int length) {
        return new MalformedPacketException("column " + columns.get(column).name() + ": '"
                + buf.toString(at, length, StandardCharsets.ISO_8859_1) + "' (expected: " + what + ")");
    }
}
