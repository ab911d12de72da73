package io.shardgate.proxy.protocol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.shardgate.router.exec.Row;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class TextRowDecoderTest {
    private static final List<ColumnDefinition> CAPTURED = MariaDbCapture.columns();

    private static ColumnDefinition column(int type, int charset, int flags) {
        return ColumnDefinition.computed("c", type, charset, 20, flags, 0);
    }

    /** A text row of these values, each a length-encoded string, or 0xFB for null. */
    private static ByteBuf textRow(byte[]... values) {
        ByteBuf out = Unpooled.buffer();
        for (byte[] value : values) {
            if (value == null) {
                out.writeByte(0xFB);
            } else {
                Wire.writeLenencBytes(out, value);
            }
        }
        return out;
    }

    private static byte[] ascii(String text) {
        return text.getBytes(StandardCharsets.ISO_8859_1);
    }

    private static Object decodeOne(ColumnDefinition column, byte[] value) {
        return new TextRowDecoder(List.of(column)).decode(textRow(value)).get(0).toJava();
    }

    @Test
    void readsEveryTypeOfTheCapturedRowAsItsValueKindSays() {
        Row row = new TextRowDecoder(CAPTURED).decode(Unpooled.wrappedBuffer(MariaDbCapture.bytes(MariaDbCapture.TEXT_ROWS.get(0))));

        assertThat(row).isEqualTo(Row.of(-128L, 255L, -32768L, 65535L, -8388608L, 16777215L, -2147483648L, 4294967295L,
                Long.MIN_VALUE, new BigInteger("18446744073709551615"), 2024L, 0.1, -1.5e-7, new BigDecimal("-12.500"),
                "2024-01-02", "2024-01-02 03:04:05", "2024-01-02 03:04:05.123000", "2024-01-02 00:00:00", "-838:59:59",
                "-25:00:01.000500", 0b1010000001L, "héllo", new byte[] {0, (byte) 0xFF}, new byte[] {1, 2}, "tëxt", "yy", "a,b",
                "{\"k\": 1}", "é", 42L, new BigDecimal("1.50"), 2.5, 1.0, 0.12));
    }

    @Test
    void keepsZeroDatesAndNullsAsTheShardSentThem() {
        TextRowDecoder decoder = new TextRowDecoder(CAPTURED);
        Row zeros = decoder.decode(Unpooled.wrappedBuffer(MariaDbCapture.bytes(MariaDbCapture.TEXT_ROWS.get(1))));
        Row nulls = decoder.decode(Unpooled.wrappedBuffer(MariaDbCapture.bytes(MariaDbCapture.TEXT_ROWS.get(3))));

        assertThat(zeros.values().subList(14, 20)).containsExactly("0000-00-00", "0000-00-00 00:00:00",
                "0000-00-00 00:00:00.000000", "0000-00-00 00:00:00", "00:00:00", "00:00:00.000000");
        assertThat(zeros.get(0).toJava()).isNull();
        assertThat(nulls.values()).hasSize(34).containsOnlyNulls();
    }

    @Test
    void integersThatDoNotFitALongBecomeBigIntegers() {
        ColumnDefinition unsigned = column(ColumnDefinition.TYPE_LONGLONG, 63, ColumnDefinition.FLAG_UNSIGNED);

        assertThat(decodeOne(unsigned, ascii("9223372036854775807"))).isEqualTo(Long.MAX_VALUE);
        assertThat(decodeOne(unsigned, ascii("9223372036854775808"))).isEqualTo(new BigInteger("9223372036854775808"));
        assertThat(decodeOne(unsigned, ascii("999999999999999999"))).isEqualTo(999999999999999999L);
        assertThat(decodeOne(unsigned, ascii("-9223372036854775808"))).isEqualTo(Long.MIN_VALUE);
        assertThat(decodeOne(unsigned, ascii("00042"))).isEqualTo(42L);
    }

    @Test
    void bitColumnsAreBigEndianNumbers() {
        ColumnDefinition bit64 = ColumnDefinition.computed("b", ColumnDefinition.TYPE_BIT, 63, 64, ColumnDefinition.FLAG_UNSIGNED, 0);

        assertThat(decodeOne(bit64, new byte[] {0x02, (byte) 0x81})).isEqualTo(0x281L);
        assertThat(decodeOne(bit64, new byte[] {0x7F, -1, -1, -1, -1, -1, -1, -1})).isEqualTo(Long.MAX_VALUE);
        // Captured: bit(64) b'1000...0001'.
        assertThat(decodeOne(bit64, MariaDbCapture.bytes("8000000000000001"))).isEqualTo(new BigInteger("9223372036854775809"));
    }

    @Test
    void decimalsKeepTheScaleOfTheirText() {
        ColumnDefinition decimal = column(ColumnDefinition.TYPE_NEWDECIMAL, 63, 0);

        assertThat(decodeOne(decimal, ascii("5.00"))).isEqualTo(new BigDecimal("5.00"));
        assertThat(decodeOne(decimal, ascii("-0.001"))).isEqualTo(new BigDecimal("-0.001"));
        assertThat(decodeOne(decimal, ascii("12"))).isEqualTo(new BigDecimal("12"));
        assertThat(decodeOne(decimal, ascii("-123456789012345678901234567890.123456789")))
                .isEqualTo(new BigDecimal("-123456789012345678901234567890.123456789"));
    }

    @Test
    void floatingPointTextReadsBackToTheSameDouble() {
        ColumnDefinition dbl = column(ColumnDefinition.TYPE_DOUBLE, 63, 0);

        for (String text : List.of("0.1", "-0.00000015", "1e20", "1.2345678901234568e20", "5e-324", "0.30000000000000004",
                "123456789012345", "1234567890123456.2", "-2.5", "100", "1.7976931348623157e308", "0.000000000000001")) {
            assertThat(decodeOne(dbl, ascii(text))).as(text).isEqualTo(Double.parseDouble(text));
        }
    }

    @Test
    void stringsUseTheColumnCharsetAndBinaryStaysBytes() {
        byte[] utf8 = "é€".getBytes(StandardCharsets.UTF_8);

        assertThat(decodeOne(column(ColumnDefinition.TYPE_VAR_STRING, 45, 0), utf8)).isEqualTo("é€");
        assertThat(decodeOne(column(ColumnDefinition.TYPE_VAR_STRING, 2304, 0), utf8)).isEqualTo("é€");
        assertThat(decodeOne(column(ColumnDefinition.TYPE_VAR_STRING, 8, 0), new byte[] {(byte) 0xE9, (byte) 0x80}))
                .isEqualTo("\u00e9\u0080");
        assertThat(decodeOne(column(ColumnDefinition.TYPE_BLOB, 63, ColumnDefinition.FLAG_BINARY), utf8)).isEqualTo(utf8);
        assertThat(decodeOne(column(ColumnDefinition.TYPE_GEOMETRY, 63, ColumnDefinition.FLAG_BINARY), new byte[] {0, (byte) 0xFF}))
                .isEqualTo("\u0000\u00ff");
    }

    @Test
    void readsLongValuesWithMultiByteLengths() {
        byte[] big = new byte[70_000];
        Arrays.fill(big, (byte) 'x');
        byte[] medium = new byte[300];
        Arrays.fill(medium, (byte) 'y');
        ColumnDefinition text = column(ColumnDefinition.TYPE_BLOB, 45, 0);

        Row row = new TextRowDecoder(List.of(text, text)).decode(textRow(medium, big));

        assertThat(row.get(0).toJava()).isEqualTo("y".repeat(300));
        assertThat(row.get(1).toJava()).isEqualTo("x".repeat(70_000));
    }

    @Test
    void leavesTheReaderIndexAlone() {
        ByteBuf payload = textRow(ascii("1"), null);

        new TextRowDecoder(List.of(column(ColumnDefinition.TYPE_LONG, 63, 0), column(ColumnDefinition.TYPE_LONG, 63, 0))).decode(payload);

        assertThat(payload.readerIndex()).isZero();
    }

    @Test
    void rejectsRowsThatDoNotMatchTheColumns() {
        ColumnDefinition integer = column(ColumnDefinition.TYPE_LONG, 63, 0);
        TextRowDecoder two = new TextRowDecoder(List.of(integer, integer));

        assertThatThrownBy(() -> two.decode(textRow(ascii("1"))))
                .isInstanceOf(MalformedPacketException.class).hasMessage("text row: 1 values (expected: 2)");
        assertThatThrownBy(() -> two.decode(textRow(ascii("1"), ascii("2"), ascii("3"))))
                .isInstanceOf(MalformedPacketException.class).hasMessage("text row: 2 bytes after 2 values (expected: none)");
        assertThatThrownBy(() -> two.decode(Unpooled.wrappedBuffer(new byte[] {1, '1', 5, '2'})))
                .isInstanceOf(MalformedPacketException.class).hasMessage("text row value 1 length: 5 (expected: <= 1 remaining bytes)");
        assertThatThrownBy(() -> two.decode(textRow(ascii("1"), ascii("x2"))))
                .isInstanceOf(MalformedPacketException.class).hasMessage("column c: 'x2' (expected: an integer)");
    }
}
