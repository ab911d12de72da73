package io.shardgate.replication.copy;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ColumnCodecTest {

    private static String literal(ColumnCodec codec, Object raw) {
        StringBuilder sql = new StringBuilder();
        codec.append(sql, raw);
        return sql.toString();
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void picksACodecPerColumnType() {
        assertThat(ColumnCodec.of("bigint", null)).isEqualTo(ColumnCodec.NUMBER);
        assertThat(ColumnCodec.of("float", null)).isEqualTo(ColumnCodec.FLOAT);
        assertThat(ColumnCodec.of("datetime", null)).isEqualTo(ColumnCodec.TEMPORAL);
        assertThat(ColumnCodec.of("varchar", "utf8mb4")).isEqualTo(ColumnCodec.UTF8_TEXT);
        assertThat(ColumnCodec.of("longtext", "utf8mb4")).as("JSON").isEqualTo(ColumnCodec.UTF8_TEXT);
        assertThat(ColumnCodec.of("varchar", "latin1")).isEqualTo(ColumnCodec.SINGLE_BYTE_TEXT);
        assertThat(ColumnCodec.of("varchar", "sjis")).isEqualTo(ColumnCodec.OTHER_TEXT);
        assertThat(ColumnCodec.of("varchar", "swe7")).as("not ASCII below 0x80").isEqualTo(ColumnCodec.OTHER_TEXT);
        assertThat(ColumnCodec.of("bit", null)).isEqualTo(ColumnCodec.BYTES);
        assertThat(ColumnCodec.of("blob", null)).isEqualTo(ColumnCodec.BYTES);
    }

    @Test
    void writesEachValueAsALiteralOfItsStoredBytes() {
        assertThat(literal(ColumnCodec.NUMBER, "18446744073709551615")).isEqualTo("18446744073709551615");
        assertThat(literal(ColumnCodec.FLOAT, "0.10000000149011612")).isEqualTo("0.10000000149011612");
        assertThat(literal(ColumnCodec.TEMPORAL, "2024-01-02 10:00:00.000001")).isEqualTo("'2024-01-02 10:00:00.000001'");
        assertThat(literal(ColumnCodec.UTF8_TEXT, "it's a \\ \n \0 😀")).isEqualTo("'it\\'s a \\\\ \\n \\0 😀'");
        assertThat(literal(ColumnCodec.UTF8_TEXT, new byte[] {(byte) 0xC3})).as("not UTF-8: as hex").isEqualTo("X'C3'");
        assertThat(literal(ColumnCodec.BYTES, new byte[] {0, (byte) 0xE9})).isEqualTo("X'00E9'");
        assertThat(literal(ColumnCodec.BYTES, new byte[0])).isEqualTo("''");
        assertThat(literal(ColumnCodec.UTF8_TEXT, "")).isEqualTo("''");
        assertThat(literal(ColumnCodec.UTF8_TEXT, utf8("é"))).isEqualTo("'é'");
        assertThat(literal(ColumnCodec.UTF8_TEXT, null)).isEqualTo("NULL");
        assertThat(literal(ColumnCodec.SINGLE_BYTE_TEXT, "a'\\b".getBytes(StandardCharsets.US_ASCII)))
                .as("ASCII bytes: quoted").isEqualTo("'a\\'\\\\b'");
        assertThat(literal(ColumnCodec.SINGLE_BYTE_TEXT, new byte[] {'a', (byte) 0xE9})).as("others: hex").isEqualTo("X'61E9'");
        assertThat(literal(ColumnCodec.OTHER_TEXT, new byte[] {'a'})).isEqualTo("X'61'");
    }

    @Test
    void refusesTextThatIsNoNumberOrTime() {
        assertThatThrownBy(() -> literal(ColumnCodec.NUMBER, "1); DROP TABLE t")).hasMessageStartingWith("not a number");
        assertThatThrownBy(() -> literal(ColumnCodec.TEMPORAL, "x'")).hasMessageStartingWith("not a temporal value");
    }

    @Test
    void floatAndNonUtf8TextAreReadThroughACast() {
        assertThat(ColumnCodec.FLOAT.selectExpression("`f`")).isEqualTo("CAST(`f` AS DOUBLE)");
        assertThat(ColumnCodec.NUMBER.selectExpression("`d`")).isEqualTo("`d`");
        assertThat(ColumnCodec.OTHER_TEXT.selectExpression("`l`")).as("no conversion to utf8mb4").isEqualTo("CAST(`l` AS BINARY)");
    }

    @Test
    void quotesEverySpecialCharacterAndTheRunsBetweenThem() {
        assertThat(literal(ColumnCodec.UTF8_TEXT, "\\'\0\n\r\u001A")).isEqualTo("'\\\\\\'\\0\\n\\r\\Z'");
        assertThat(literal(ColumnCodec.UTF8_TEXT, "ab\ncd'ef")).isEqualTo("'ab\\ncd\\'ef'");
        assertThat(literal(ColumnCodec.UTF8_TEXT, "'start and end'")).isEqualTo("'\\'start and end\\''");
        assertThat(literal(ColumnCodec.UTF8_TEXT, "81237-12-3")).isEqualTo("'81237-12-3'");
    }
}
