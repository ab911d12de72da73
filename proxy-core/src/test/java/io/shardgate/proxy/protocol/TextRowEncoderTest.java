package io.shardgate.proxy.protocol;

import static io.shardgate.proxy.protocol.RowCodecFixtures.BIGINT_UNSIGNED;
import static io.shardgate.proxy.protocol.RowCodecFixtures.BIT_10;
import static io.shardgate.proxy.protocol.RowCodecFixtures.BLOB;
import static io.shardgate.proxy.protocol.RowCodecFixtures.DATE;
import static io.shardgate.proxy.protocol.RowCodecFixtures.DATETIME_3;
import static io.shardgate.proxy.protocol.RowCodecFixtures.DECIMAL_10_2;
import static io.shardgate.proxy.protocol.RowCodecFixtures.DOUBLE;
import static io.shardgate.proxy.protocol.RowCodecFixtures.FLOAT;
import static io.shardgate.proxy.protocol.RowCodecFixtures.INT;
import static io.shardgate.proxy.protocol.RowCodecFixtures.TEXT;
import static io.shardgate.proxy.protocol.RowCodecFixtures.TIME_3;
import static io.shardgate.proxy.protocol.RowCodecFixtures.TINY;
import static io.shardgate.proxy.protocol.RowCodecFixtures.UTF8_VARCHAR;
import static io.shardgate.proxy.protocol.RowCodecFixtures.column;
import static io.shardgate.proxy.protocol.RowCodecFixtures.hexAndRelease;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.shardgate.router.exec.Row;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;

class TextRowEncoderTest {
    private static final List<ColumnDefinition> CAPTURED = MariaDbCapture.columns();

    private static String hex(List<ColumnDefinition> columns, Object... values) {
        return hexAndRelease(TextRowEncoder.encode(columns, Row.of(values), ByteBufAllocator.DEFAULT));
    }

    /** The one value, as its text: the length byte must match. */
    private static String text(ColumnDefinition column, Object value) {
        byte[] bytes = HexFormat.of().parseHex(hex(List.of(column), value));
        assertThat(bytes[0] & 0xFF).isEqualTo(bytes.length - 1);
        return new String(bytes, 1, bytes.length - 1, StandardCharsets.ISO_8859_1);
    }

    @Test
    void reencodesEveryCapturedRowToTheBytesMariaDbSent() {
        TextRowDecoder decoder = new TextRowDecoder(CAPTURED);
        for (String row : MariaDbCapture.TEXT_ROWS) {
            Row decoded = decoder.decode(Unpooled.wrappedBuffer(MariaDbCapture.bytes(row)));

            assertThat(hex(CAPTURED, decoded.values().toArray())).isEqualTo(row.replaceAll("\\s", ""));
        }
    }

    @Test
    void printsDoublesAndFloatsAsMariaDb() {
        assertThat(text(DOUBLE, 0.1)).isEqualTo("0.1");
        assertThat(text(DOUBLE, 1e20)).isEqualTo("1e20");
        assertThat(text(DOUBLE, 123456789012345680000.0)).isEqualTo("1.2345678901234568e20");
        assertThat(text(DOUBLE, 1.5e-7)).isEqualTo("0.00000015");
        assertThat(text(DOUBLE, 100.0)).isEqualTo("100");
        assertThat(text(DOUBLE, -0.0)).isEqualTo("0");
        assertThat(text(FLOAT, 0.1)).isEqualTo("0.1");
        assertThat(text(FLOAT, 123456789012345.0)).isEqualTo("123457000000000");
        assertThat(text(column(ColumnDefinition.TYPE_DOUBLE, 63, 8, 0, 3), 1.0)).isEqualTo("1.000");
    }

    @Test
    void zeroFillsNumbersToTheColumnLength() {
        int zerofill = ColumnDefinition.FLAG_ZEROFILL | ColumnDefinition.FLAG_UNSIGNED;

        assertThat(text(column(ColumnDefinition.TYPE_LONG, 63, 5, zerofill, 0), 42L)).isEqualTo("00042");
        assertThat(text(column(ColumnDefinition.TYPE_NEWDECIMAL, 63, 7, zerofill, 2), new BigDecimal("1.50"))).isEqualTo("0001.50");
        assertThat(text(column(ColumnDefinition.TYPE_DOUBLE, 63, 22, zerofill, 31), 2.5)).isEqualTo("00000000000000000002.5");
        assertThat(text(column(ColumnDefinition.TYPE_LONG, 63, 5, zerofill, 0), 1234567L)).isEqualTo("1234567");
    }

    @Test
    void convertsValuesOfAnotherTypeThanTheColumn() {
        // A SUM of integers in a DECIMAL(10,2) column: MariaDB's c3.dc = 5 printed 5.00.
        assertThat(text(DECIMAL_10_2, 5L)).isEqualTo("5.00");
        assertThat(text(DECIMAL_10_2, new BigDecimal("1.5"))).isEqualTo("1.5");
        assertThat(text(DECIMAL_10_2, 0.1)).isEqualTo("0.10");
        assertThat(text(DECIMAL_10_2, "2.345")).isEqualTo("2.35");
        assertThat(text(DOUBLE, new BigDecimal("0.1"))).isEqualTo("0.1");
        assertThat(text(DOUBLE, 3L)).isEqualTo("3");
        assertThat(text(DOUBLE, "1e20")).isEqualTo("1e20");
        assertThat(text(INT, "007")).isEqualTo("7");
        assertThat(text(INT, " -12 ")).isEqualTo("-12");
        assertThat(text(INT, 2.5)).isEqualTo("2");
        assertThat(text(INT, new BigDecimal("2.5"))).isEqualTo("3");
        assertThat(text(INT, new BigDecimal("-2.5"))).isEqualTo("-3");
        assertThat(text(TINY, 300L)).isEqualTo("127");
        assertThat(text(TINY, -300L)).isEqualTo("-128");
        assertThat(text(BIGINT_UNSIGNED, new BigInteger("18446744073709551615"))).isEqualTo("18446744073709551615");
        assertThat(text(BIGINT_UNSIGNED, new BigInteger("9223372036854775808"))).isEqualTo("9223372036854775808");
        assertThat(text(BIGINT_UNSIGNED, -1L)).isEqualTo("0");
        assertThatThrownBy(() -> text(INT, "abc")).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("column c: cannot send 'abc' (String) as a value of type 3");
    }

    @Test
    void printsTemporalValues() {
        assertThat(text(DATETIME_3, "2024-01-02 03:04:05.123")).isEqualTo("2024-01-02 03:04:05.123");
        assertThat(text(DATETIME_3, LocalDateTime.of(2024, 1, 2, 3, 4, 5, 123_000_000))).isEqualTo("2024-01-02 03:04:05.123");
        assertThat(text(TIME_3, Duration.ofHours(-25).minusMillis(1500))).isEqualTo("-25:00:01.500");
        assertThat(text(DATE, LocalDate.of(2024, 1, 2))).isEqualTo("2024-01-02");
        assertThat(text(DATE, LocalDateTime.of(2024, 1, 2, 3, 4))).isEqualTo("2024-01-02");
        assertThat(text(DATE, "0000-00-00")).isEqualTo("0000-00-00");
    }

    @Test
    void writesStringsInTheColumnCharset() {
        ColumnDefinition latin1 = column(ColumnDefinition.TYPE_VAR_STRING, 8, 10, 0, 0);

        assertThat(hex(List.of(UTF8_VARCHAR, latin1, BLOB, BLOB), "é€", "é", new byte[] {0, (byte) 0xFF}, "\u00e9"))
                .isEqualTo("05c3a9e282ac" + "01e9" + "0200ff" + "01e9");
        assertThat(hex(List.of(UTF8_VARCHAR, UTF8_VARCHAR, UTF8_VARCHAR), 1e20, new BigDecimal("1.50"), LocalDateTime.of(2024, 1, 2, 3, 4, 5)))
                .isEqualTo("0431653230" + "04312e3530" + "13" + HexFormat.of().formatHex("2024-01-02 03:04:05".getBytes(StandardCharsets.US_ASCII)));
    }

    @Test
    void writesBitColumnsAsBigEndianBytes() {
        ColumnDefinition bit64 = column(ColumnDefinition.TYPE_BIT, 63, 64, ColumnDefinition.FLAG_UNSIGNED, 0);

        assertThat(hex(List.of(BIT_10, bit64, BIT_10), 0x281L, new BigInteger("9223372036854775809"), new byte[] {1, 2}))
                .isEqualTo("020281" + "088000000000000001" + "020102");
    }

    @Test
    void writesNullsAndLongValues() {
        String big = "x".repeat(70_000);

        String hex = hex(List.of(TEXT, TEXT, TEXT), null, big, "y".repeat(300));

        assertThat(hex).startsWith("fb" + "fd701101").contains("fc2c01" + "7979").hasSize(2 * (1 + 4 + 70_000 + 3 + 300));
    }

    @Test
    void rejectsARowOfAnotherWidth() {
        assertThatThrownBy(() -> hex(List.of(TEXT, TEXT), "a")).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("row values: 1 (expected: 2, one per column)");
    }
}
