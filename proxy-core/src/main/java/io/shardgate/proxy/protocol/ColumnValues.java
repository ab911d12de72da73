package io.shardgate.proxy.protocol;

import io.netty.buffer.ByteBuf;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.LocalDate;
import java.time.LocalTime;

import static io.shardgate.proxy.protocol.ColumnDefinition.TYPE_DATE;
import static io.shardgate.proxy.protocol.ColumnDefinition.TYPE_FLOAT;
import static io.shardgate.proxy.protocol.ColumnDefinition.TYPE_INT24;
import static io.shardgate.proxy.protocol.ColumnDefinition.TYPE_LONG;
import static io.shardgate.proxy.protocol.ColumnDefinition.TYPE_LONGLONG;
import static io.shardgate.proxy.protocol.ColumnDefinition.TYPE_NEWDATE;
import static io.shardgate.proxy.protocol.ColumnDefinition.TYPE_SHORT;
import static io.shardgate.proxy.protocol.ColumnDefinition.TYPE_TIME;
import static io.shardgate.proxy.protocol.ColumnDefinition.TYPE_TIME2;
import static io.shardgate.proxy.protocol.ColumnDefinition.TYPE_TINY;
import static io.shardgate.proxy.protocol.ColumnDefinition.TYPE_YEAR;

/**
 * A row value, of any of the Java types a router row holds ({@code Long}, {@code BigInteger},
 * {@code BigDecimal}, {@code Double}, {@code String}, {@code byte[]}, {@code java.time} values,
 * {@code Duration}), converted to what a column of some type sends, the way MariaDB converts on
 * store: numbers round half away from zero into integer and DECIMAL columns (doubles to the nearest
 * even integer), integers are clamped to the column's range, strings are read as numbers or
 * temporal text. A value that cannot be converted fails with an {@link IllegalArgumentException}
 * naming the column.
 */
final class ColumnValues {
    private static final BigInteger UNSIGNED_LONG_MAX = BigInteger.ONE.shiftLeft(64).subtract(BigInteger.ONE);
    private static final int MAX_DECIMAL_SCALE = 38;

    private ColumnValues() {
    }

    /**
     * The value of an integer column (TINY, SHORT, INT24, LONG, LONGLONG, YEAR), rounded and clamped
     * to the column's range; for BIGINT UNSIGNED the 64 bits of the unsigned number.
     */
    static long integer(Object value, ColumnDefinition column) {
        boolean unsigned = column.unsigned();
        if (value instanceof Long l) {
            return column.type() == TYPE_LONGLONG
                    ? (unsigned && l < 0 ? 0 : l)
                    : Math.max(min(column.type(), unsigned), Math.min(max(column.type(), unsigned), l));
        }
        BigInteger big = toBigInteger(value, column);
        if (column.type() == TYPE_LONGLONG && unsigned) {
            return big.signum() < 0 ? 0 : big.compareTo(UNSIGNED_LONG_MAX) > 0 ? -1L : big.longValue();
        }
        long min = min(column.type(), unsigned);
        long max = max(column.type(), unsigned);
        if (big.bitLength() > 63) {
            return big.signum() < 0 ? min : max;
        }
        return Math.max(min, Math.min(max, big.longValue()));
    }

    /** The text of an integer column's value, zero-filled to the column length for ZEROFILL columns. */
    static String integerText(Object value, ColumnDefinition column) {
        long bits = integer(value, column);
        String text = column.type() == TYPE_LONGLONG && column.unsigned() ? Long.toUnsignedString(bits) : Long.toString(bits);
        return zerofill(text, column);
    }

    /**
     * The text of a DECIMAL column's value: a BigDecimal with its own scale, any other number with
     * the column's decimals.
     */
    static String decimalText(Object value, ColumnDefinition column) {
        BigDecimal decimal;
        if (value instanceof BigDecimal d) {
            decimal = d;
        } else {
            decimal = toBigDecimal(value, column);
            if (column.decimals() <= MAX_DECIMAL_SCALE) {
                decimal = decimal.setScale(column.decimals(), RoundingMode.HALF_UP);
            }
        }
        return zerofill(decimal.toPlainString(), column);
    }

    /** The text of a FLOAT or DOUBLE column's value, as MariaDB prints it. */
    static String floatingText(Object value, ColumnDefinition column) {
        double d = toDouble(value, column);
        String text = column.type() == TYPE_FLOAT
                ? FloatingPointText.ofFloat((float) d, column.decimals())
                : FloatingPointText.ofDouble(d, column.decimals());
        return zerofill(text, column);
    }

    /** A number as a double; MariaDB holds no negative zero, so -0.0 becomes 0.0. */
    static double toDouble(Object value, ColumnDefinition column) {
        double d;
        if (value instanceof Number n) {
            d = n.doubleValue();
        } else if (value instanceof Boolean b) {
            d = b ? 1 : 0;
        } else {
            String text = numberText(value, column);
            try {
                d = Double.parseDouble(text);
            } catch (NumberFormatException e) {
                throw cannotConvert(value, column);
            }
        }
        return d + 0.0;
    }

    /** The bytes of a BIT column's value: a byte[] as it is, a number big-endian in (length + 7) / 8 bytes. */
    static byte[] bits(Object value, ColumnDefinition column) {
        if (value instanceof byte[] bytes) {
            return bytes;
        }
        long bits = value instanceof Long l ? l : toBigInteger(value, column).longValue();
        int length = (int) Math.max(1, Math.min(8, (column.length() + 7) / 8));
        byte[] out = new byte[length];
        for (int i = length - 1; i >= 0; i--, bits >>>= 8) {
            out[i] = (byte) bits;
        }
        return out;
    }

    /** The fields of a temporal column's value: its text, or a {@code java.time} value or Duration. */
    static MySqlTime temporal(Object value, ColumnDefinition column) {
        MySqlTime time = MySqlTime.of(value);
        if (time == null) {
            String text = value instanceof byte[] bytes ? new String(bytes, StandardCharsets.ISO_8859_1) : String.valueOf(value);
            boolean isTime = column.type() == TYPE_TIME || column.type() == TYPE_TIME2;
            try {
                time = isTime ? MySqlTime.parseTime(text.trim()) : MySqlTime.parseDateTime(text.trim());
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("column " + column.name() + ": " + e.getMessage(), e);
            }
        }
        if (column.type() == TYPE_DATE || column.type() == TYPE_NEWDATE) {
            return new MySqlTime(false, time.year(), time.month(), time.day(), 0, 0, 0, 0);
        }
        return time;
    }

    /** The text of a temporal column's value: text as it is, a {@code java.time} value in the column's format. */
    static String temporalText(Object value, ColumnDefinition column) {
        if (value instanceof String s) {
            return s;
        }
        MySqlTime time = MySqlTime.of(value);
        if (time == null) {
            return text(value);
        }
        return switch (column.type()) {
            case TYPE_DATE, TYPE_NEWDATE -> time.dateText();
            case TYPE_TIME, TYPE_TIME2 -> time.timeText(column.decimals());
            default -> time.dateTimeText(column.decimals());
        };
    }

    /**
     * A value as text, as MariaDB prints it in a string column: numbers as digits (DOUBLE with the
     * fewest digits that read back), temporal values in their SQL form.
     */
    static String text(Object value) {
        if (value instanceof String s) {
            return s;
        }
        if (value instanceof BigDecimal d) {
            return d.toPlainString();
        }
        if (value instanceof Double d) {
            return FloatingPointText.ofDouble(d, ColumnDefinition.NOT_FIXED_DECIMALS);
        }
        if (value instanceof Float f) {
            return FloatingPointText.ofFloat(f, ColumnDefinition.NOT_FIXED_DECIMALS);
        }
        if (value instanceof Boolean b) {
            return b ? "1" : "0";
        }
        if (value instanceof byte[] bytes) {
            return new String(bytes, StandardCharsets.ISO_8859_1);
        }
        MySqlTime time = MySqlTime.of(value);
        if (time != null) {
            boolean hasDate = !(value instanceof LocalTime || value instanceof Duration);
            boolean hasClock = !(value instanceof LocalDate);
            int fraction = time.micros() != 0 ? 6 : 0;
            return hasDate ? (hasClock ? time.dateTimeText(fraction) : time.dateText()) : time.timeText(fraction);
        }
        return String.valueOf(value);
    }

    /** The bytes of a value in a string column: a byte[] as it is, text in the column's charset. */
    static byte[] textBytes(Object value, ColumnDefinition column) {
        if (value instanceof byte[] bytes) {
            return bytes;
        }
        return text(value).getBytes(CollationCharsets.charset(column.charset()));
    }

    /** Writes ASCII text (digits, temporal text) as a length-encoded string. */
    static void writeLenencAscii(ByteBuf out, String text) {
        Wire.writeLenencInt(out, text.length());
        out.writeCharSequence(text, StandardCharsets.ISO_8859_1);
    }

    private static BigDecimal toBigDecimal(Object value, ColumnDefinition column) {
        if (value instanceof BigDecimal d) {
            return d;
        }
        if (value instanceof Long || value instanceof Integer || value instanceof Short || value instanceof Byte) {
            return BigDecimal.valueOf(((Number) value).longValue());
        }
        if (value instanceof BigInteger b) {
            return new BigDecimal(b);
        }
        if (value instanceof Double || value instanceof Float) {
            return new BigDecimal(text(value));
        }
        if (value instanceof Boolean b) {
            return b ? BigDecimal.ONE : BigDecimal.ZERO;
        }
        try {
            return new BigDecimal(numberText(value, column));
        } catch (NumberFormatException e) {
            return new BigDecimal(text(toDouble(value, column)));
        }
    }

    private static BigInteger toBigInteger(Object value, ColumnDefinition column) {
        if (value instanceof BigInteger b) {
            return b;
        }
        if (value instanceof Double || value instanceof Float) {
            double d = Math.rint(((Number) value).doubleValue());
            return Double.isFinite(d) ? new BigDecimal(d).toBigInteger() : BigInteger.ZERO;
        }
        return toBigDecimal(value, column).setScale(0, RoundingMode.HALF_UP).toBigInteger();
    }

    private static String numberText(Object value, ColumnDefinition column) {
        if (value instanceof String || value instanceof byte[]) {
            return text(value).trim();
        }
        throw cannotConvert(value, column);
    }

    private static IllegalArgumentException cannotConvert(Object value, ColumnDefinition column) {
        String shown = value instanceof byte[] bytes ? bytes.length + " bytes" : "'" + value + "'";
        return new IllegalArgumentException("column " + column.name() + ": cannot send " + shown + " ("
                + value.getClass().getSimpleName() + ") as a value of type " + column.type());
    }

    private static String zerofill(String text, ColumnDefinition column) {
        if (!column.zerofill() || text.length() >= column.length()) {
            return text;
        }
        return "0".repeat((int) column.length() - text.length()) + text;
    }

    private static long min(int type, boolean unsigned) {
        if (unsigned) {
            return 0;
        }
        return switch (type) {
            case TYPE_TINY -> Byte.MIN_VALUE;
            case TYPE_SHORT -> Short.MIN_VALUE;
            case TYPE_INT24 -> -(1 << 23);
            case TYPE_LONG -> Integer.MIN_VALUE;
            case TYPE_YEAR -> 0;
            default -> Long.MIN_VALUE;
        };
    }

    private static long max(int type, boolean unsigned) {
        return switch (type) {
            case TYPE_TINY -> unsigned ? 0xFF : Byte.MAX_VALUE;
            case TYPE_SHORT, TYPE_YEAR -> unsigned ? 0xFFFF : Short.MAX_VALUE;
            case TYPE_INT24 -> unsigned ? 0xFFFFFF : (1 << 23) - 1;
            case TYPE_LONG -> unsigned ? 0xFFFFFFFFL : Integer.MAX_VALUE;
            default -> Long.MAX_VALUE;
        };
    }
}
