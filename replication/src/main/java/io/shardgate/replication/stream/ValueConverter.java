package io.shardgate.replication.stream;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.BitSet;
import java.util.Calendar;
import java.util.GregorianCalendar;
import java.util.Locale;
import java.util.TimeZone;

import static java.util.Objects.requireNonNull;

/**
 * Turns a value as the stream's row deserializers decode it into a JDBC parameter that stores the
 * same value on the target.
 *
 * <ul>
 *   <li>DATE, DATETIME2, TIME2 and TIMESTAMP2 arrive as exact SQL literals from
 *       {@link TemporalDecoder} (zero dates, negative times and TIMESTAMP in UTC included); the
 *       applier sets {@code time_zone='+00:00'}. The pre-MySQL-5.6 formats still come from the
 *       library ({@code DATE_AND_TIME_AS_LONG_MICRO}) as microseconds and are converted here; the
 *       library reports their invalid dates as {@code Long.MIN_VALUE}, written as the zero date.</li>
 *   <li>Integers arrive signed; an unsigned column's negative value is widened by 2^bits
 *       ({@code -1} in an unsigned BIGINT becomes {@code 18446744073709551615}).</li>
 *   <li>Text of a utf8 column becomes a String; text of other character sets and binary data stay
 *       bytes ({@code CHAR_AND_BINARY_AS_BYTE_ARRAY}), which the target stores unchanged.</li>
 *   <li>ENUM and SET arrive as their index and bit mask and are written as numbers; BIT as a BitSet,
 *       written as a number.</li>
 * </ul>
 */
public final class ValueConverter {
    private static final BigInteger TWO_TO_64 = BigInteger.ONE.shiftLeft(64);
    private static final TimeZone UTC = TimeZone.getTimeZone("UTC");
    /** What the library gives for a date it cannot represent ({@code INVALID_DATE_AND_TIME_AS_MIN_VALUE}). */
    static final long INVALID = Long.MIN_VALUE;
    private static final String ZERO_DATE = "0000-00-00";
    private static final String ZERO_DATETIME = "0000-00-00 00:00:00";

    public ValueConverter() {
    }

    public Object convert(Column column, Object raw) {
        requireNonNull(column, "column is null");
        if (raw == null) {
            return null;
        }
        ColumnKind kind = column.type();
        if (raw instanceof String literal && (kind == ColumnKind.DATE || kind == ColumnKind.DATETIME
                || kind == ColumnKind.TIMESTAMP || kind == ColumnKind.TIME)) {
            return literal;
        }
        return switch (kind) {
            case TINYINT, SMALLINT, MEDIUMINT, INT, BIGINT -> integer(column, ((Number) raw).longValue());
            case DATE -> micros(raw) == INVALID ? ZERO_DATE : dateTime(micros(raw)).substring(0, 10);
            case DATETIME -> micros(raw) == INVALID ? ZERO_DATETIME : dateTime(micros(raw));
            // TIMESTAMP 0 is the zero timestamp: its real minimum is 1970-01-01 00:00:01 UTC.
            case TIMESTAMP -> micros(raw) == 0 || micros(raw) == INVALID ? ZERO_DATETIME : dateTime(micros(raw));
            case TIME -> time(micros(raw));
            case BIT -> raw instanceof BitSet bits ? (bits.isEmpty() ? 0L : bits.toLongArray()[0]) : raw;
            case STRING, BLOB, JSON -> text(column, raw);
            default -> raw;
        };
    }

    private static Object integer(Column column, long value) {
        if (!column.unsigned() || value >= 0) {
            return value;
        }
        int bits = column.type().integerBits();
        if (bits == 64) {
            return BigInteger.valueOf(value).add(TWO_TO_64);
        }
        return value + (1L << bits);
    }

    private static long micros(Object raw) {
        if (raw instanceof Number number) {
            return number.longValue();
        }
        throw new StreamException("expected a temporal value as microseconds, got " + raw.getClass().getName());
    }

    /**
     * The library builds these microseconds with {@link GregorianCalendar} (Julian before
     * 1582-10-15), so they are read back with the same calendar: {@code 1000-01-01} stays
     * {@code 1000-01-01}, which java.time's proleptic calendar would move by days.
     */
    static String dateTime(long micros) {
        long millis = Math.floorDiv(micros, 1000L);
        int fraction = (int) Math.floorMod(micros, 1_000_000L);
        GregorianCalendar calendar = new GregorianCalendar(UTC);
        calendar.setTimeInMillis(millis);
        return String.format(Locale.ROOT, "%04d-%02d-%02d %02d:%02d:%02d.%06d", calendar.get(Calendar.YEAR),
                calendar.get(Calendar.MONTH) + 1, calendar.get(Calendar.DAY_OF_MONTH),
                calendar.get(Calendar.HOUR_OF_DAY), calendar.get(Calendar.MINUTE), calendar.get(Calendar.SECOND), fraction);
    }

    static String time(long micros) {
        String sign = micros < 0 ? "-" : "";
        long abs = Math.abs(micros);
        long seconds = abs / 1_000_000L;
        return String.format(Locale.ROOT, "%s%02d:%02d:%02d.%06d", sign, seconds / 3600, (seconds / 60) % 60,
                seconds % 60, abs % 1_000_000L);
    }

    private static Object text(Column column, Object raw) {
        if (raw instanceof byte[] bytes && isUtf8(column.charset())) {
            return new String(bytes, StandardCharsets.UTF_8);
        }
        return raw;
    }

    static boolean isUtf8(String charset) {
        return charset != null && charset.regionMatches(true, 0, "utf8", 0, 4);
    }
}
