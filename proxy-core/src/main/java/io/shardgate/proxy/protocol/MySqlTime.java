package io.shardgate.proxy.protocol;

import io.netty.buffer.ByteBuf;

import java.time.Duration;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;

/**
 * The fields of a DATE, DATETIME, TIMESTAMP or TIME value (the server's MYSQL_TIME), read from
 * the text form or the binary protocol and written to either. A TIME keeps its whole hours in
 * {@code hour} (up to 838) and its sign in {@code negative}; the binary form splits them into days
 * and hours.
 *
 * <p>Binary forms (https://mariadb.com/kb/en/resultset-row/#binary-resultset-row), as MariaDB
 * 10.11 sends them: a date or datetime has length 0 when every field is zero ('0000-00-00
 * 00:00:00'), 4 (year, month, day) when the time is midnight, 7 with the time and 11 with
 * microseconds; a TIME has length 0 at zero, 8 (sign, int&lt;4&gt; days, hour, minute, second) and
 * 12 with microseconds.
 */
record MySqlTime(boolean negative, int year, int month, int day, int hour, int minute, int second, int micros) {
    private static final int HOURS_PER_DAY = 24;

    /** A date or datetime in the text form 'YYYY-MM-DD[( |T)HH:MM:SS[.ffffff]]'. */
    static MySqlTime parseDateTime(CharSequence text) {
        Cursor in = new Cursor(text);
        int year = in.number(4);
        in.expectOneOf("-");
        int month = in.number(2);
        in.expectOneOf("-");
        int day = in.number(2);
        if (in.atEnd()) {
            return new MySqlTime(false, year, month, day, 0, 0, 0, 0);
        }
        in.expectOneOf(" T");
        return clock(in, false, year, month, day);
    }

    /** A time in the text form '[-]H+:MM:SS[.ffffff]', or the time of a datetime. */
    static MySqlTime parseTime(CharSequence text) {
        if (isDateTime(text)) {
            MySqlTime dateTime = parseDateTime(text);
            return new MySqlTime(false, 0, 0, 0, dateTime.hour, dateTime.minute, dateTime.second, dateTime.micros);
        }
        Cursor in = new Cursor(text);
        boolean negative = in.skip('-');
        return clock(in, negative, 0, 0, 0);
    }

    /** A {@code java.time} value or {@code Duration}, or null for any other object. */
    static MySqlTime of(Object value) {
        if (value instanceof LocalDateTime t) {
            return new MySqlTime(false, t.getYear(), t.getMonthValue(), t.getDayOfMonth(), t.getHour(), t.getMinute(),
                    t.getSecond(), t.getNano() / 1000);
        }
        if (value instanceof LocalDate d) {
            return new MySqlTime(false, d.getYear(), d.getMonthValue(), d.getDayOfMonth(), 0, 0, 0, 0);
        }
        if (value instanceof LocalTime t) {
            return new MySqlTime(false, 0, 0, 0, t.getHour(), t.getMinute(), t.getSecond(), t.getNano() / 1000);
        }
        if (value instanceof Duration d) {
            Duration abs = d.abs();
            return new MySqlTime(d.isNegative(), 0, 0, 0, (int) abs.toHours(), abs.toMinutesPart(), abs.toSecondsPart(),
                    abs.toNanosPart() / 1000);
        }
        return null;
    }

    /** A date or datetime in the binary form: its length byte, then the fields. */
    static MySqlTime readDateTime(ByteBuf in) {
        Wire.need(in, 1, "binary datetime length");
        int length = in.readUnsignedByte();
        Wire.need(in, length, "binary datetime of length " + length);
        if (length == 0) {
            return new MySqlTime(false, 0, 0, 0, 0, 0, 0, 0);
        }
        if (length < 4) {
            throw new MalformedPacketException("binary datetime length: " + length + " (expected: 0, 4, 7 or 11)");
        }
        int year = in.readUnsignedShortLE();
        int month = in.readUnsignedByte();
        int day = in.readUnsignedByte();
        int hour = length >= 7 ? in.readUnsignedByte() : 0;
        int minute = length >= 7 ? in.readUnsignedByte() : 0;
        int second = length >= 7 ? in.readUnsignedByte() : 0;
        int micros = length >= 11 ? in.readIntLE() : 0;
        in.skipBytes(length - (length >= 11 ? 11 : length >= 7 ? 7 : 4));
        return new MySqlTime(false, year, month, day, hour, minute, second, micros);
    }

    /** A time in the binary form: its length byte, then the fields. */
    static MySqlTime readTime(ByteBuf in) {
        Wire.need(in, 1, "binary time length");
        int length = in.readUnsignedByte();
        Wire.need(in, length, "binary time of length " + length);
        if (length == 0) {
            return new MySqlTime(false, 0, 0, 0, 0, 0, 0, 0);
        }
        if (length < 8) {
            throw new MalformedPacketException("binary time length: " + length + " (expected: 0, 8 or 12)");
        }
        boolean negative = in.readByte() != 0;
        long days = in.readUnsignedIntLE();
        int hour = in.readUnsignedByte();
        int minute = in.readUnsignedByte();
        int second = in.readUnsignedByte();
        int micros = length >= 12 ? in.readIntLE() : 0;
        in.skipBytes(length - (length >= 12 ? 12 : 8));
        return new MySqlTime(negative, 0, 0, 0, (int) (days * HOURS_PER_DAY + hour), minute, second, micros);
    }

    void writeDateTime(ByteBuf out) {
        if (micros != 0) {
            out.writeByte(11);
        } else if (hour != 0 || minute != 0 || second != 0) {
            out.writeByte(7);
        } else if (year != 0 || month != 0 || day != 0) {
            out.writeByte(4);
        } else {
            out.writeByte(0);
            return;
        }
        out.writeShortLE(year).writeByte(month).writeByte(day);
        if (micros != 0 || hour != 0 || minute != 0 || second != 0) {
            out.writeByte(hour).writeByte(minute).writeByte(second);
            if (micros != 0) {
                out.writeIntLE(micros);
            }
        }
    }

    void writeTime(ByteBuf out) {
        if (hour == 0 && minute == 0 && second == 0 && micros == 0) {
            out.writeByte(0);
            return;
        }
        out.writeByte(micros != 0 ? 12 : 8).writeByte(negative ? 1 : 0).writeIntLE(hour / HOURS_PER_DAY)
                .writeByte(hour % HOURS_PER_DAY).writeByte(minute).writeByte(second);
        if (micros != 0) {
            out.writeIntLE(micros);
        }
    }

    /** 'YYYY-MM-DD'. */
    String dateText() {
        StringBuilder out = new StringBuilder(10);
        appendDate(out);
        return out.toString();
    }

    /** 'YYYY-MM-DD HH:MM:SS' and, when {@code fractionDigits} is 1 to 6, that many digits of the microseconds. */
    String dateTimeText(int fractionDigits) {
        StringBuilder out = new StringBuilder(26);
        appendDate(out);
        out.append(' ');
        appendClock(out, fractionDigits);
        return out.toString();
    }

    /** '[-]HH:MM:SS' and, when {@code fractionDigits} is 1 to 6, that many digits of the microseconds. */
    String timeText(int fractionDigits) {
        StringBuilder out = new StringBuilder(17);
        if (negative) {
            out.append('-');
        }
        appendClock(out, fractionDigits);
        return out.toString();
    }

    private void appendDate(StringBuilder out) {
        pad(out, year, 4).append('-');
        pad(out, month, 2).append('-');
        pad(out, day, 2);
    }

    private void appendClock(StringBuilder out, int fractionDigits) {
        pad(out, hour, 2).append(':');
        pad(out, minute, 2).append(':');
        pad(out, second, 2);
        if (fractionDigits >= 1 && fractionDigits <= 6) {
            out.append('.');
            int fraction = micros;
            for (int i = 6; i > fractionDigits; i--) {
                fraction /= 10;
            }
            pad(out, fraction, fractionDigits);
        }
    }

    private static StringBuilder pad(StringBuilder out, int value, int width) {
        for (int limit = 10, i = 1; i < width; i++, limit *= 10) {
            if (value < limit) {
                out.append('0');
            }
        }
        return out.append(value);
    }

    private static boolean isDateTime(CharSequence text) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == ':') {
                return false;
            }
            if (c == '-' && i > 0) {
                return true;
            }
        }
        return false;
    }

    private static MySqlTime clock(Cursor in, boolean negative, int year, int month, int day) {
        int hour = in.number(9);
        in.expectOneOf(":");
        int minute = in.number(2);
        in.expectOneOf(":");
        int second = in.number(2);
        int micros = 0;
        if (in.skip('.')) {
            micros = in.fraction();
        }
        in.expectEnd();
        return new MySqlTime(negative, year, month, day, hour, minute, second, micros);
    }

    /** Reads digits and separators of a temporal text, failing with the whole text in the message. */
    private static final class Cursor {
        private final CharSequence text;
        private int at;

        Cursor(CharSequence text) {
            this.text = text;
        }

        boolean atEnd() {
            return at == text.length();
        }

        boolean skip(char c) {
            if (at < text.length() && text.charAt(at) == c) {
                at++;
                return true;
            }
            return false;
        }

        /** One to {@code maxDigits} digits. */
        int number(int maxDigits) {
            int start = at;
            int value = 0;
            while (at < text.length() && at - start < maxDigits && isDigit(text.charAt(at))) {
                value = value * 10 + (text.charAt(at++) - '0');
            }
            if (at == start) {
                throw malformed();
            }
            return value;
        }

        /** Up to six digits after the point, as microseconds; further digits are cut off. */
        int fraction() {
            int value = 0;
            int digits = 0;
            while (at < text.length() && isDigit(text.charAt(at))) {
                if (digits < 6) {
                    value = value * 10 + (text.charAt(at) - '0');
                    digits++;
                }
                at++;
            }
            for (; digits < 6; digits++) {
                value *= 10;
            }
            return value;
        }

        void expectOneOf(String separators) {
            if (at >= text.length() || separators.indexOf(text.charAt(at)) < 0) {
                throw malformed();
            }
            at++;
        }

        void expectEnd() {
            if (at != text.length()) {
                throw malformed();
            }
        }

        private static boolean isDigit(char c) {
            return c >= '0' && c <= '9';
        }

        private IllegalArgumentException malformed() {
            return new IllegalArgumentException("temporal value: '" + text + "' (expected: 'YYYY-MM-DD[ HH:MM:SS[.ffffff]]' or '[-]HH:MM:SS[.ffffff]')");
        }
    }
}
