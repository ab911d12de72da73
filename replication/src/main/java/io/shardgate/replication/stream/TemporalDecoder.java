package io.shardgate.replication.stream;

import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.Locale;

/**
 * Decodes the binlog's temporal formats to SQL literals exactly, including what
 * mysql-binlog-connector-java (io.debezium 0.41.0) gets wrong or cannot represent: negative TIME values, zero
 * dates and dates with a zero month or day, and dates before the Gregorian cutover.
 *
 * <p>Formats (MySQL {@code my_time.cc}, used by MariaDB with {@code mysql56_temporal_format=ON}):
 * <ul>
 *   <li>DATE: 3 bytes little-endian, {@code year << 9 | month << 5 | day}.</li>
 *   <li>DATETIME2: 5 bytes big-endian minus {@code 0x8000000000}: {@code (year * 13 + month) << 22 |
 *       day << 17 | hour << 12 | minute << 6 | second}, then the fraction.</li>
 *   <li>TIME2: 3 bytes big-endian minus {@code 0x800000} ({@code hour << 12 | minute << 6 | second},
 *       negative for negative times), then the fraction; with 5 or 6 digits the 6 bytes form one
 *       packed number minus {@code 0x800000000000}.</li>
 *   <li>TIMESTAMP2: 4 bytes big-endian epoch seconds, then the fraction; 0 is the zero timestamp.</li>
 *   <li>Fraction: {@code (fsp + 1) / 2} big-endian bytes holding hundredths, ten-thousandths or
 *       microseconds.</li>
 * </ul>
 */
public final class TemporalDecoder {
    private TemporalDecoder() {
    }

    public static String date(int littleEndian24) {
        int day = littleEndian24 & 31;
        int month = (littleEndian24 >> 5) & 15;
        int year = littleEndian24 >> 9;
        return String.format(Locale.ROOT, "%04d-%02d-%02d", year, month, day);
    }

    /** @param bigEndian40 the first five bytes as an unsigned big-endian number; @param micros the fraction */
    public static String dateTime2(long bigEndian40, int micros) {
        long packed = bigEndian40 - 0x80_0000_0000L;
        long yearMonth = (packed >> 22) & 0x1FFFF;
        return String.format(Locale.ROOT, "%04d-%02d-%02d %02d:%02d:%02d.%06d", yearMonth / 13, yearMonth % 13,
                (packed >> 17) & 31, (packed >> 12) & 31, (packed >> 6) & 63, packed & 63, micros);
    }

    /** @param bytes the 3 integer bytes and the {@code (fsp + 1) / 2} fraction bytes */
    public static String time2(int fsp, byte[] bytes) {
        int fractionBytes = (fsp + 1) / 2;
        long intPart = bigEndian(bytes, 0, 3) - 0x80_0000L;
        long packed;
        switch (fractionBytes) {
            case 0 -> packed = intPart << 24;
            case 1 -> {
                long frac = bigEndian(bytes, 3, 1);
                if (intPart < 0 && frac != 0) {
                    intPart++;
                    frac -= 0x100;
                }
                packed = (intPart << 24) + frac * 10_000;
            }
            case 2 -> {
                long frac = bigEndian(bytes, 3, 2);
                if (intPart < 0 && frac != 0) {
                    intPart++;
                    frac -= 0x10000;
                }
                packed = (intPart << 24) + frac * 100;
            }
            default -> packed = bigEndian(bytes, 0, 6) - 0x8000_0000_0000L;
        }
        String sign = packed < 0 ? "-" : "";
        long abs = Math.abs(packed);
        long hms = abs >> 24;
        long micros = abs % (1L << 24);
        return String.format(Locale.ROOT, "%s%02d:%02d:%02d.%06d", sign, (hms >> 12) % (1 << 10), (hms >> 6) % 64,
                hms % 64, micros);
    }

    public static String timestamp2(long epochSeconds, int micros) {
        if (epochSeconds == 0 && micros == 0) {
            return "0000-00-00 00:00:00";
        }
        LocalDateTime time = LocalDateTime.ofEpochSecond(epochSeconds, micros * 1000, ZoneOffset.UTC);
        return String.format(Locale.ROOT, "%04d-%02d-%02d %02d:%02d:%02d.%06d", time.getYear(), time.getMonthValue(),
                time.getDayOfMonth(), time.getHour(), time.getMinute(), time.getSecond(), micros);
    }

    /** The fraction stored in {@code bytes} big-endian bytes, in microseconds. */
    public static int fractionMicros(long value, int bytes) {
        return switch (bytes) {
            case 0 -> 0;
            case 1 -> (int) value * 10_000;
            case 2 -> (int) value * 100;
            default -> (int) value;
        };
    }

    static long bigEndian(byte[] bytes, int offset, int length) {
        long value = 0;
        for (int i = offset; i < offset + length; i++) {
            value = (value << 8) | (bytes[i] & 0xFF);
        }
        return value;
    }
}
