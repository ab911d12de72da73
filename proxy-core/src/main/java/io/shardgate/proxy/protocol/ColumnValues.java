package io.shardgate.proxy.protocol;

import io.netty.buffer.ByteBuf;
import io.shardgate.router.value.SqlValue;

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
 * A row value ({@link SqlValue}, of any of its types) converted to what a column of some type sends, the way MariaDB converts on
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
    static long integer(SqlValue value, ColumnDefinition column) {
        boolean unsigned = column.unsigned();
        if (value.type() == SqlValue.Type.INTEGER) {
            long l = value.longValue();
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
    static String integerText(SqlValue value, ColumnDefinition column) {
        long bits = integer(value, column);
        String text = column.type() == TYPE_LONGLONG && column.unsigned() ? Long.toUnsignedString(bits) : Long.toString(bits);
        return zerofill(text, column);
    }

    /**
     * The text of a DECIMAL column's value: a DECIMAL with its own scale, any other number with
     * the column's decimals.
     */
    static String decimalText(SqlValue value, ColumnDefinition column) {
        BigDecimal decimal;
        if (value.type() == SqlValue.Type.DECIMAL) {
            decimal = value.decimalValue();
        } else {
            decimal = toBigDecimal(value, column);
            if (column.decimals() <= MAX_DECIMAL_SCALE) {
                decimal = decimal.setScale(column.decimals(), RoundingMode.HALF_UP);
            }
        }
        return zerofill(decimal.toPlainString(), column);
    }

    /** The text of a FLOAT or DOUBLE column's value, as MariaDB prints it. */
    static String floatingText(SqlValue value, ColumnDefinition column) {
        double d = toDouble(value, column);
        String text = column.type() == TYPE_FLOAT
                ? FloatingPointText.ofFloat((float) d, column.decimals())
                : FloatingPointText.ofDouble(d, column.decimals());
        return zerofill(text, column);
    }

    /** A number as a double; MariaDB holds no negative zero, so -0.0 becomes 0.0. */
    static double toDouble(SqlValue value, ColumnDefinition column) {
        double d;
        if (value.isNumber()) {
            d = ((Number) value.toJava()).doubleValue();
        } else if (value.type() == SqlValue.Type.BOOLEAN) {
            d = value.booleanValue() ? 1 : 0;
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

    /** The bytes of a BIT column's value: a binary string as it is, a number big-endian in (length + 7) / 8 bytes. */
    static byte[] bits(SqlValue value, ColumnDefinition column) {
        if (value.type() == SqlValue.Type.BYTES) {
            return value.bytes();
        }
        long bits = value.type() == SqlValue.Type.INTEGER ? value.longValue() : toBigInteger(value, column).longValue();
        int length = (int) Math.max(1, Math.min(8, (column.length() + 7) / 8));
        byte[] out = new byte[length];
        for (int i = length - 1; i >= 0; i--, bits >>>= 8) {
            out[i] = (byte) bits;
        }
        return out;
    }

    /** The fields of a temporal column's value: its text (ASCII, as text or bytes), or a TEMPORAL value. */
    static MySqlTime temporal(SqlValue value, ColumnDefinition column) {
        MySqlTime time = value.type() == SqlValue.Type.TEMPORAL ? MySqlTime.of(value.toJava()) : null;
        if (time == null) {
            String text = value.type() == SqlValue.Type.BYTES ? new String(value.bytes(), StandardCharsets.ISO_8859_1)
                    : String.valueOf(value.toJava());
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

    /** The text of a temporal column's value: text as it is, a TEMPORAL value in the column's format. */
    static String temporalText(SqlValue value, ColumnDefinition column) {
        if (value.type() == SqlValue.Type.TEXT) {
            return value.text();
        }
        if (value.type() != SqlValue.Type.TEMPORAL) {
            return text(value);
        }
        MySqlTime time = MySqlTime.of(value.toJava());
        return switch (column.type()) {
            case TYPE_DATE, TYPE_NEWDATE -> time.dateText();
            case TYPE_TIME, TYPE_TIME2 -> time.timeText(column.decimals());
            default -> time.dateTimeText(column.decimals());
        };
    }

    /**
     * A value as text, as MariaDB prints it in a string column: numbers as digits (DOUBLE with the
     * fewest digits that read back), temporal values in their SQL form, a binary string's bytes as
     * ISO-8859-1 (one char per byte).
     */
    static String text(SqlValue value) {
        return switch (value.type()) {
            case TEXT -> value.text();
            case DECIMAL -> value.decimalValue().toPlainString();
            case FLOAT -> value.toJava() instanceof Float f
                    ? FloatingPointText.ofFloat(f, ColumnDefinition.NOT_FIXED_DECIMALS)
                    : FloatingPointText.ofDouble(value.doubleValue(), ColumnDefinition.NOT_FIXED_DECIMALS);
            case BOOLEAN -> value.booleanValue() ? "1" : "0";
            case BYTES -> new String(value.bytes(), StandardCharsets.ISO_8859_1);
            case TEMPORAL -> temporalText(value.toJava());
            default -> String.valueOf(value.toJava());
        };
    }

    private static String temporalText(Object value) {
        MySqlTime time = MySqlTime.of(value);
        boolean hasDate = !(value instanceof LocalTime || value instanceof Duration);
        boolean hasClock = !(value instanceof LocalDate);
        int fraction = time.micros() != 0 ? 6 : 0;
        return hasDate ? (hasClock ? time.dateTimeText(fraction) : time.dateText()) : time.timeText(fraction);
    }

    /** The bytes of a value in a string column: a binary string's as they are, text in the column's charset. */
    static byte[] textBytes(SqlValue value, ColumnDefinition column) {
        if (value.type() == SqlValue.Type.BYTES) {
            return value.bytes();
        }
        return text(value).getBytes(CollationCharsets.charset(column.charset()));
    }

    /** Writes ASCII text (digits, temporal text) as a length-encoded string. */
    static void writeLenencAscii(ByteBuf out, String text) {
        Wire.writeLenencInt(out, text.length());
        out.writeCharSequence(text, StandardCharsets.ISO_8859_1);
    }

    private static BigDecimal toBigDecimal(SqlValue value, ColumnDefinition column) {
        switch (value.type()) {
            case DECIMAL:
                return value.decimalValue();
            case INTEGER:
                return BigDecimal.valueOf(value.longValue());
            case BIG_INTEGER:
                return new BigDecimal(value.bigInteger());
            case FLOAT:
                return new BigDecimal(text(value));
            case BOOLEAN:
                return value.booleanValue() ? BigDecimal.ONE : BigDecimal.ZERO;
            default:
                try {
                    return new BigDecimal(numberText(value, column));
                } catch (NumberFormatException e) {
                    return new BigDecimal(text(SqlValue.ofDouble(toDouble(value, column))));
                }
        }
    }

    private static BigInteger toBigInteger(SqlValue value, ColumnDefinition column) {
        if (value.type() == SqlValue.Type.BIG_INTEGER) {
            return value.bigInteger();
        }
        if (value.type() == SqlValue.Type.FLOAT) {
            double d = Math.rint(value.doubleValue());
            return Double.isFinite(d) ? new BigDecimal(d).toBigInteger() : BigInteger.ZERO;
        }
        return toBigDecimal(value, column).setScale(0, RoundingMode.HALF_UP).toBigInteger();
    }

    private static String numberText(SqlValue value, ColumnDefinition column) {
        if (value.type() == SqlValue.Type.TEXT || value.type() == SqlValue.Type.BYTES) {
            return text(value).trim();
        }
        throw cannotConvert(value, column);
    }

    private static IllegalArgumentException cannotConvert(SqlValue value, ColumnDefinition column) {
        String shown = value.type() == SqlValue.Type.BYTES ? value.bytes().length + " bytes" : "'" + value.toJava() + "'";
        return new IllegalArgumentException("column " + column.name() + ": cannot send " + shown + " ("
                + value.toJava().getClass().getSimpleName() + ") as a value of type " + column.type());
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
