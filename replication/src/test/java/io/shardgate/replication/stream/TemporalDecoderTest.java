package io.shardgate.replication.stream;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** Vectors built with the encoders of MySQL's my_time.cc, written out below. */
class TemporalDecoderTest {
    /** MY_PACKED_TIME_MAKE for a signed time. */
    private static long packedTime(boolean negative, int hours, int minutes, int seconds, int micros) {
        long hms = ((long) hours << 12) | ((long) minutes << 6) | seconds;
        long packed = (hms << 24) + micros;
        return negative ? -packed : packed;
    }

    /** my_time_packed_to_binary. */
    private static byte[] time2(long packed, int fsp) {
        int fractionBytes = (fsp + 1) / 2;
        byte[] out = new byte[3 + fractionBytes];
        switch (fractionBytes) {
            case 0 -> put(out, 0, 3, (packed >> 24) + 0x800000L);
            case 1 -> {
                put(out, 0, 3, (packed >> 24) + 0x800000L);
                out[3] = (byte) ((packed % (1L << 24)) / 10_000);
            }
            case 2 -> {
                put(out, 0, 3, (packed >> 24) + 0x800000L);
                put(out, 3, 2, (packed % (1L << 24)) / 100);
            }
            default -> put(out, 0, 6, packed + 0x8000_0000_0000L);
        }
        return out;
    }

    private static void put(byte[] out, int offset, int length, long value) {
        for (int i = offset + length - 1; i >= offset; i--) {
            out[i] = (byte) value;
            value >>= 8;
        }
    }

    @Test
    void timesIncludingNegativeOnesAtEveryPrecision() {
        assertThat(TemporalDecoder.time2(0, time2(packedTime(false, 838, 59, 59, 0), 0))).isEqualTo("838:59:59.000000");
        assertThat(TemporalDecoder.time2(0, time2(packedTime(true, 838, 59, 59, 0), 0))).isEqualTo("-838:59:59.000000");
        assertThat(TemporalDecoder.time2(1, time2(packedTime(true, 0, 0, 1, 500_000), 1))).isEqualTo("-00:00:01.500000");
        assertThat(TemporalDecoder.time2(4, time2(packedTime(true, 12, 34, 56, 789_900), 4))).isEqualTo("-12:34:56.789900");
        assertThat(TemporalDecoder.time2(6, time2(packedTime(true, 0, 0, 0, 500_000), 6))).isEqualTo("-00:00:00.500000");
        assertThat(TemporalDecoder.time2(6, time2(packedTime(false, 12, 34, 56, 789_012), 6))).isEqualTo("12:34:56.789012");
        assertThat(TemporalDecoder.time2(3, time2(0, 3))).isEqualTo("00:00:00.000000");
    }

    @Test
    void datesKeepZeroPartsAndOldCalendarDays() {
        assertThat(TemporalDecoder.date((2024 << 9) | (2 << 5) | 29)).isEqualTo("2024-02-29");
        assertThat(TemporalDecoder.date(0)).isEqualTo("0000-00-00");
        assertThat(TemporalDecoder.date((2024 << 9) | (2 << 5))).isEqualTo("2024-02-00");
        assertThat(TemporalDecoder.date((1000 << 9) | (1 << 5) | 1)).isEqualTo("1000-01-01");
    }

    @Test
    void dateTimes() {
        long packed = ((9999L * 13 + 12) << 22) | (31L << 17) | (23L << 12) | (59L << 6) | 59;
        assertThat(TemporalDecoder.dateTime2(packed + 0x80_0000_0000L, 999_999)).isEqualTo("9999-12-31 23:59:59.999999");
        assertThat(TemporalDecoder.dateTime2(0x80_0000_0000L, 0)).isEqualTo("0000-00-00 00:00:00.000000");
        long zeroMonth = ((2024L * 13) << 22) | (10L << 12);
        assertThat(TemporalDecoder.dateTime2(zeroMonth + 0x80_0000_0000L, 0)).isEqualTo("2024-00-00 10:00:00.000000");
    }

    @Test
    void timestampsAreUtcAndZeroIsTheZeroTimestamp() {
        assertThat(TemporalDecoder.timestamp2(2147483647L, 999_999)).isEqualTo("2038-01-19 03:14:07.999999");
        assertThat(TemporalDecoder.timestamp2(1, 0)).isEqualTo("1970-01-01 00:00:01.000000");
        assertThat(TemporalDecoder.timestamp2(0, 0)).isEqualTo("0000-00-00 00:00:00");
    }

    @Test
    void fractionsScaleByTheirByteCount() {
        assertThat(TemporalDecoder.fractionMicros(50, 1)).isEqualTo(500_000);
        assertThat(TemporalDecoder.fractionMicros(7899, 2)).isEqualTo(789_900);
        assertThat(TemporalDecoder.fractionMicros(789_012, 3)).isEqualTo(789_012);
    }
}
