package io.shardgate.proxy.sharding;

import io.shardgate.proxy.protocol.ColumnDefinition;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A cursor's column definitions against MariaDB 10.11's, recorded with a raw client executing the same prepared
 * statement without and with CURSOR_TYPE_READ_ONLY: a utf8mb4_general_ci connection (45) converting results, and one
 * with character_set_results NULL, as MySQL Connector/J sets it.
 */
class CursorColumnsTest {

    private static ColumnDefinition table(String name, int charset, long length, int type, int flags) {
        return new ColumnDefinition("def", "t", "w", "w", name, name, charset, length, type, flags, 0);
    }

    private static ColumnDefinition expression(String name, int charset, long length, int type, int flags, int decimals) {
        return ColumnDefinition.computed(name, type, charset, length, flags, decimals);
    }

    private static ColumnDefinition materialised(String name, int charset, long length, int type, int flags, int decimals) {
        return new ColumnDefinition("def", "", "", "", name, name, charset, length, type, flags, decimals);
    }

    private static ColumnDefinition of(boolean converted, ColumnDefinition column) {
        return CursorColumns.of(column, converted);
    }

    @Test
    void aTableColumnKeepsItsTypeAndLosesItsKeyAndDefaultFlags() {
        assertThat(of(true, table("id", 63, 11, ColumnDefinition.TYPE_LONG, 0x5003)))
                .isEqualTo(table("id", 63, 11, ColumnDefinition.TYPE_LONG, 0x1001));
        assertThat(of(true, table("id", 63, 11, ColumnDefinition.TYPE_LONG, 0x4202))).as("AUTO_INCREMENT PRIMARY KEY")
                .isEqualTo(table("id", 63, 11, ColumnDefinition.TYPE_LONG, 0));
        assertThat(of(true, table("ts", 63, 19, ColumnDefinition.TYPE_TIMESTAMP, 0x24a0))).as("ON UPDATE CURRENT_TIMESTAMP")
                .isEqualTo(table("ts", 63, 19, ColumnDefinition.TYPE_TIMESTAMP, 0xa0));
        ColumnDefinition text = table("tx", 45, 262_140, ColumnDefinition.TYPE_BLOB, 0x10);
        assertThat(of(true, text)).isEqualTo(text);
        ColumnDefinition varchar = table("vc", 45, 4000, ColumnDefinition.TYPE_VAR_STRING, 0);
        assertThat(of(true, varchar)).as("a long VARCHAR column stays one").isEqualTo(varchar);
    }

    @Test
    void anExpressionIsDescribedAsItsTemporaryTableField() {
        assertThat(of(true, expression("1 + 1", 63, 3, ColumnDefinition.TYPE_LONG, 0x81, 0)))
                .isEqualTo(materialised("1 + 1", 63, 3, ColumnDefinition.TYPE_LONG, 0x01, 0));
        assertThat(of(true, expression("x", 45, 4, ColumnDefinition.TYPE_VAR_STRING, 0x01, 39)))
                .isEqualTo(materialised("x", 45, 4, ColumnDefinition.TYPE_VAR_STRING, 0x01, 0));
        assertThat(of(true, expression("NULL", 63, 0, ColumnDefinition.TYPE_NULL, 0x80, 0)))
                .isEqualTo(materialised("NULL", 63, 0, ColumnDefinition.TYPE_STRING, 0x80, 0));
        assertThat(of(true, expression("AVG(m)", 63, 16, ColumnDefinition.TYPE_NEWDECIMAL, 0x80, 4)))
                .isEqualTo(materialised("AVG(m)", 63, 16, ColumnDefinition.TYPE_NEWDECIMAL, 0, 4));
        assertThat(of(true, expression("NOW()", 63, 19, ColumnDefinition.TYPE_DATETIME, 0x81, 0)))
                .isEqualTo(materialised("NOW()", 63, 19, ColumnDefinition.TYPE_DATETIME, 0x81, 0));
    }

    @Test
    void aLongStringExpressionBecomesTheSmallestTextThatHoldsIt() {
        assertThat(of(true, expression("GROUP_CONCAT(g)", 45, 4_194_304, ColumnDefinition.TYPE_BLOB, 0, 0)))
                .isEqualTo(materialised("GROUP_CONCAT(g)", 45, 67_108_860, ColumnDefinition.TYPE_BLOB, 0x10, 0));
        assertThat(of(true, expression("REPEAT('a', 70000)", 45, 1_120_000, ColumnDefinition.TYPE_MEDIUM_BLOB, 0, 39)))
                .isEqualTo(materialised("REPEAT('a', 70000)", 45, 67_108_860, ColumnDefinition.TYPE_BLOB, 0x10, 0));
        assertThat(of(true, expression("REPEAT('b', 600)", 45, 2400, ColumnDefinition.TYPE_VAR_STRING, 0, 39)))
                .isEqualTo(materialised("REPEAT('b', 600)", 45, 262_140, ColumnDefinition.TYPE_BLOB, 0x10, 0));
        assertThat(of(true, expression("REPEAT('b', 500)", 45, 2000, ColumnDefinition.TYPE_VAR_STRING, 0, 39)))
                .as("512 characters or fewer: still a VARCHAR").isEqualTo(materialised("REPEAT('b', 500)", 45, 2000, ColumnDefinition.TYPE_VAR_STRING, 0, 0));
        assertThat(of(true, expression("IFNULL(vc, 'z')", 45, 4000, ColumnDefinition.TYPE_VAR_STRING, 0x01, 39)))
                .isEqualTo(materialised("IFNULL(vc, 'z')", 45, 262_140, ColumnDefinition.TYPE_BLOB, 0x11, 0));
        assertThat(of(true, expression("CONCAT(vb, 'x')", 63, 2001, ColumnDefinition.TYPE_VAR_STRING, 0x80, 39)))
                .as("binary: one byte a character").isEqualTo(materialised("CONCAT(vb, 'x')", 63, 65_535, ColumnDefinition.TYPE_BLOB, 0x90, 0));
    }

    @Test
    void underCharacterSetResultsNullALengthIsTheBytesOfTheColumnsOwnCharacterSet() {
        assertThat(of(false, expression("GROUP_CONCAT(g)", 8, 1_048_576, ColumnDefinition.TYPE_BLOB, 0, 0)))
                .isEqualTo(materialised("GROUP_CONCAT(g)", 8, 16_777_215, ColumnDefinition.TYPE_BLOB, 0x10, 0));
        assertThat(of(false, expression("REPEAT('b', 600)", 45, 2400, ColumnDefinition.TYPE_VAR_STRING, 0, 39)))
                .isEqualTo(materialised("REPEAT('b', 600)", 45, 65_535, ColumnDefinition.TYPE_BLOB, 0x10, 0));
        assertThat(of(false, expression("CONCAT(vc, 'x')", 8, 1001, ColumnDefinition.TYPE_VAR_STRING, 0, 39)))
                .isEqualTo(materialised("CONCAT(vc, 'x')", 8, 65_535, ColumnDefinition.TYPE_BLOB, 0x10, 0));
    }

    @Test
    void aCharacterTakesAtMostTheBytesOfItsCharacterSet() {
        assertThat(CursorColumns.bytesPerChar(45)).isEqualTo(4);
        assertThat(CursorColumns.bytesPerChar(224)).isEqualTo(4);
        assertThat(CursorColumns.bytesPerChar(33)).isEqualTo(3);
        assertThat(CursorColumns.bytesPerChar(192)).isEqualTo(3);
        assertThat(CursorColumns.bytesPerChar(8)).isEqualTo(1);
        assertThat(CursorColumns.bytesPerChar(63)).isEqualTo(1);
    }
}
