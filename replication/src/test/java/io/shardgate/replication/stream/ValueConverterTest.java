package io.shardgate.replication.stream;

import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.BitSet;

import static org.assertj.core.api.Assertions.assertThat;

class ValueConverterTest {
    private final ValueConverter converter = new ValueConverter();

    private static Column column(ColumnKind kind, boolean unsigned, String charset) {
        return new Column("c", kind, unsigned, charset);
    }

    @Test
    void unsignedIntegersAreWidenedFromTheirSignedBinlogForm() {
        assertThat(converter.convert(column(ColumnKind.TINYINT, true, null), -1)).isEqualTo(255L);
        assertThat(converter.convert(column(ColumnKind.SMALLINT, true, null), -1)).isEqualTo(65535L);
        assertThat(converter.convert(column(ColumnKind.MEDIUMINT, true, null), -1)).isEqualTo(16777215L);
        assertThat(converter.convert(column(ColumnKind.INT, true, null), -1)).isEqualTo(4294967295L);
        assertThat(converter.convert(column(ColumnKind.BIGINT, true, null), -1L))
                .isEqualTo(new BigInteger("18446744073709551615"));
        assertThat(converter.convert(column(ColumnKind.INT, false, null), -1)).isEqualTo(-1L);
        assertThat(converter.convert(column(ColumnKind.BIGINT, true, null), 5L)).isEqualTo(5L);
    }

    @Test
    void temporalMicrosecondsBecomeSqlLiterals() {
        assertThat(converter.convert(column(ColumnKind.DATE, false, null), 1709164800000000L)).isEqualTo("2024-02-29");
        assertThat(converter.convert(column(ColumnKind.DATETIME, false, null), 253402300799999999L))
                .isEqualTo("9999-12-31 23:59:59.999999");
        assertThat(converter.convert(column(ColumnKind.TIMESTAMP, false, null), 1_000_001L))
                .isEqualTo("1970-01-01 00:00:01.000001");
        assertThat(converter.convert(column(ColumnKind.TIME, false, null), 3_020_399_000_000L)).isEqualTo("838:59:59.000000");
        assertThat(ValueConverter.time(-1_500_000L)).isEqualTo("-00:00:01.500000");
    }

    @Test
    void exactTemporalLiteralsPassThroughAndInvalidOldFormatDatesBecomeZero() {
        assertThat(converter.convert(column(ColumnKind.TIME, false, null), "-838:59:59.000000")).isEqualTo("-838:59:59.000000");
        assertThat(converter.convert(column(ColumnKind.DATE, false, null), "2024-02-00")).isEqualTo("2024-02-00");
        assertThat(converter.convert(column(ColumnKind.DATE, false, null), Long.MIN_VALUE)).isEqualTo("0000-00-00");
        assertThat(converter.convert(column(ColumnKind.DATETIME, false, null), Long.MIN_VALUE)).isEqualTo("0000-00-00 00:00:00");
        assertThat(converter.convert(column(ColumnKind.TIMESTAMP, false, null), 0L)).isEqualTo("0000-00-00 00:00:00");
    }

    @Test
    void datesBeforeTheGregorianCutoverKeepTheirCalendarDay() {
        // The library computes 1000-01-01 with the Julian calendar: read it back the same way.
        java.util.GregorianCalendar julian = new java.util.GregorianCalendar(java.util.TimeZone.getTimeZone("UTC"));
        julian.clear();
        julian.set(1000, java.util.Calendar.JANUARY, 1);
        assertThat(converter.convert(column(ColumnKind.DATE, false, null), julian.getTimeInMillis() * 1000))
                .isEqualTo("1000-01-01");
    }

    @Test
    void utf8TextBecomesAStringOtherTextAndBinaryStayBytes() {
        byte[] utf8 = "😀 é".getBytes(StandardCharsets.UTF_8);
        assertThat(converter.convert(column(ColumnKind.STRING, false, "utf8mb4"), utf8)).isEqualTo("😀 é");
        assertThat(converter.convert(column(ColumnKind.BLOB, false, "utf8mb3"), utf8)).isEqualTo("😀 é");
        byte[] latin1 = {(byte) 0x81, (byte) 0xFF};
        assertThat(converter.convert(column(ColumnKind.STRING, false, "latin1"), latin1)).isSameAs(latin1);
        assertThat(converter.convert(column(ColumnKind.BLOB, false, null), latin1)).isSameAs(latin1);
    }

    @Test
    void bitSetsBecomeNumbersAndOtherValuesPassThrough() {
        BitSet bits = new BitSet();
        bits.set(0);
        bits.set(11);
        assertThat(converter.convert(column(ColumnKind.BIT, false, null), bits)).isEqualTo(2049L);
        assertThat(converter.convert(column(ColumnKind.BIT, false, null), new BitSet())).isEqualTo(0L);
        BigDecimal decimal = new BigDecimal("-1.000000000000000000000000000001");
        assertThat(converter.convert(column(ColumnKind.DECIMAL, false, null), decimal)).isSameAs(decimal);
        assertThat(converter.convert(column(ColumnKind.ENUM, false, null), 3)).isEqualTo(3);
        assertThat(converter.convert(column(ColumnKind.INT, false, null), null)).isNull();
    }
}
