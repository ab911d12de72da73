package io.shardgate.proxy.protocol;

import static io.shardgate.proxy.protocol.RowCodecFixtures.BIT_10;
import static io.shardgate.proxy.protocol.RowCodecFixtures.BLOB;
import static io.shardgate.proxy.protocol.RowCodecFixtures.DATE;
import static io.shardgate.proxy.protocol.RowCodecFixtures.DATETIME_3;
import static io.shardgate.proxy.protocol.RowCodecFixtures.DECIMAL_10_2;
import static io.shardgate.proxy.protocol.RowCodecFixtures.DOUBLE;
import static io.shardgate.proxy.protocol.RowCodecFixtures.FLOAT;
import static io.shardgate.proxy.protocol.RowCodecFixtures.INT;
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
import java.time.Duration;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;

class BinaryRowEncoderTest {
    private static final List<ColumnDefinition> CAPTURED = MariaDbCapture.columns();

    private static String hex(List<ColumnDefinition> columns, Object... values) {
        return hexAndRelease(BinaryRowEncoder.encode(columns, Row.of(values), ByteBufAllocator.DEFAULT));
    }

    /** The value bytes of a one-column row, after the header and the one-byte bitmap. */
    private static String value(ColumnDefinition column, Object value) {
        String hex = hex(List.of(column), value);
        assertThat(hex).startsWith("0000");
        return hex.substring(4);
    }

    @Test
    void encodesTheCapturedShardRowsAsMariaDbDoes() {
        // Text rows read by the decoder, as a scatter query receives them, must come out as the
        // binary rows MariaDB sent for the same statement.
        TextRowDecoder decoder = new TextRowDecoder(CAPTURED);
        for (int i = 0; i < MariaDbCapture.TEXT_ROWS.size(); i++) {
            Row row = decoder.decode(Unpooled.wrappedBuffer(MariaDbCapture.bytes(MariaDbCapture.TEXT_ROWS.get(i))));

            assertThat(hex(CAPTURED, row.values().toArray())).as("row " + i)
                    .isEqualTo(MariaDbCapture.BINARY_ROWS.get(i).replaceAll("\\s", ""));
        }
    }

    @Test
    void setsNullBitsFromOffsetTwo() {
        // Captured: select null, 1, 2, 3, 4, 5, 6, null, null, 9, 10, 11, 12, 13, 14, null (prepared).
        List<ColumnDefinition> columns = Collections.nCopies(16, column(ColumnDefinition.TYPE_LONG, 63, 2, 0, 0));
        List<Object> values = new ArrayList<>();
        for (long i = 0; i < 16; i++) {
            values.add(i == 0 || i == 7 || i == 8 || i == 15 ? null : i);
        }

        assertThat(hex(columns, values.toArray())).isEqualTo("00" + "040602" + "01000000020000000300000004000000050000000600000009000000"
                + "0a0000000b0000000c0000000d0000000e000000");
    }

    @Test
    void encodesIntegersByWidthAndSignedness() {
        int unsigned = ColumnDefinition.FLAG_UNSIGNED;

        assertThat(value(column(ColumnDefinition.TYPE_TINY, 63, 4, 0, 0), -1L)).isEqualTo("ff");
        assertThat(value(column(ColumnDefinition.TYPE_TINY, 63, 3, unsigned, 0), 255L)).isEqualTo("ff");
        assertThat(value(column(ColumnDefinition.TYPE_SHORT, 63, 6, 0, 0), -2L)).isEqualTo("feff");
        assertThat(value(column(ColumnDefinition.TYPE_YEAR, 63, 4, unsigned | ColumnDefinition.FLAG_ZEROFILL, 0), 2024L)).isEqualTo("e807");
        assertThat(value(column(ColumnDefinition.TYPE_INT24, 63, 9, 0, 0), -8388608L)).isEqualTo("000080ff");
        assertThat(value(column(ColumnDefinition.TYPE_LONG, 63, 10, unsigned, 0), 4294967295L)).isEqualTo("ffffffff");
        assertThat(value(column(ColumnDefinition.TYPE_LONGLONG, 63, 20, unsigned, 0), new BigInteger("18446744073709551615")))
                .isEqualTo("ffffffffffffffff");
        // Captured: bigint unsigned 9223372036854775808.
        assertThat(value(column(ColumnDefinition.TYPE_LONGLONG, 63, 20, unsigned, 0), new BigInteger("9223372036854775808")))
                .isEqualTo("0000000000000080");
        assertThat(value(column(ColumnDefinition.TYPE_LONGLONG, 63, 20, 0, 0), Long.MIN_VALUE)).isEqualTo("0000000000000080");
    }

    @Test
    void convertsValuesOfAnotherTypeThanTheColumn() {
        assertThat(value(INT, "42")).isEqualTo("2a000000");
        assertThat(value(INT, 2.5)).isEqualTo("02000000");
        assertThat(value(INT, new BigDecimal("41.5"))).isEqualTo("2a000000");
        assertThat(value(INT, new BigInteger("99999999999"))).isEqualTo("ffffff7f");
        assertThat(value(TINY, 300L)).isEqualTo("7f");
        assertThat(value(DOUBLE, new BigDecimal("1.5"))).isEqualTo("000000000000f83f");
        assertThat(value(DOUBLE, 3L)).isEqualTo("0000000000000840");
        assertThat(value(DOUBLE, "0.1")).isEqualTo("9a9999999999b93f");
        assertThat(value(DOUBLE, -0.0)).isEqualTo("0000000000000000");
        assertThat(value(FLOAT, 0.1)).isEqualTo("cdcccc3d");
        // Captured: a decimal(10,2) column holding 5 sends "5.00".
        assertThat(value(DECIMAL_10_2, 5L)).isEqualTo("04352e3030");
        assertThat(value(DECIMAL_10_2, new BigDecimal("-12.500"))).isEqualTo("072d31322e353030");
        assertThat(value(UTF8_VARCHAR, 0.1)).isEqualTo("03302e31");
        assertThat(value(UTF8_VARCHAR, 42L)).isEqualTo("023432");
        assertThatThrownBy(() -> value(INT, "forty-two")).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("column c: cannot send 'forty-two' (String) as a value of type 3");
    }

    @Test
    void encodesTemporalTextInItsBinaryForm() {
        ColumnDefinition timestamp = column(ColumnDefinition.TYPE_TIMESTAMP, 63, 19, 0, 0);

        // Captured: a datetime(3) '2024-01-02 03:04:05.123' and a time(3) '-25:00:01.5'.
        assertThat(value(DATETIME_3, "2024-01-02 03:04:05.123")).isEqualTo("0be807010203040578e00100");
        assertThat(value(TIME_3, "-25:00:01.500")).isEqualTo("0c01010000000100" + "0120a10700");
        assertThat(value(TIME_3, "-838:59:59")).isEqualTo("080122000000163b3b");
        assertThat(value(timestamp, "0000-00-00 00:00:00")).isEqualTo("00");
        assertThat(value(DATE, "0000-00-00")).isEqualTo("00");
        assertThat(value(timestamp, "2024-01-02 00:00:00")).isEqualTo("04e8070102");
        assertThat(value(DATE, "2024-01-02 03:04:05")).isEqualTo("04e8070102");
        assertThat(value(DATETIME_3, LocalDateTime.of(2024, 1, 2, 3, 4, 5, 123_000_000))).isEqualTo("0be807010203040578e00100");
        assertThat(value(DATE, LocalDate.of(2024, 1, 2))).isEqualTo("04e8070102");
        assertThat(value(TIME_3, Duration.ofHours(-25).minusMillis(1500))).isEqualTo("0c01010000000100" + "0120a10700");
        assertThatThrownBy(() -> value(DATETIME_3, "yesterday")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("column c: temporal value: 'yesterday'");
    }

    @Test
    void encodesStringsBitsAndBlobsLengthEncoded() {
        ColumnDefinition latin1 = column(ColumnDefinition.TYPE_STRING, 8, 10, 0, 0);
        ColumnDefinition json = column(ColumnDefinition.TYPE_JSON, 45, 0xFFFFFFFFL, 0, 0);

        assertThat(hex(List.of(UTF8_VARCHAR, latin1, BLOB, BIT_10, json), "é€", "é", new byte[] {0, (byte) 0xFF}, 0x281L, "{}"))
                .isEqualTo("0000" + "05c3a9e282ac" + "01e9" + "0200ff" + "020281" + "027b7d");
    }

    @Test
    void rejectsARowOfAnotherWidth() {
        assertThatThrownBy(() -> hex(List.of(INT), 1L, 2L)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("row values: 2 (expected: 1, one per column)");
    }
}
