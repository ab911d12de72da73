package io.shardgate.replication.stream.apply;

import io.shardgate.replication.stream.Column;
import io.shardgate.replication.stream.ColumnKind;
import io.shardgate.replication.stream.RowChange;
import io.shardgate.replication.stream.TableSchema;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class RowStatementsTest {
    private static final TableSchema TABLE = new TableSchema("sh`op", "t", List.of(
            new Column("id", ColumnKind.INT, false, null),
            new Column("code", ColumnKind.STRING, false, "latin1"),
            new Column("v", ColumnKind.STRING, false, "utf8mb4")), List.of(0, 1));

    @Test
    void insertNamesEveryColumn() {
        assertThat(RowStatements.sql(new RowChange(TABLE, RowChange.Kind.INSERT, null, new Object[3])))
                .isEqualTo("INSERT INTO `sh``op`.`t` (`id`, `code`, `v`) VALUES (?, ?, ?)");
    }

    @Test
    void updateAndDeleteFindTheRowByPrimaryKeyAndConvertNonUtf8Keys() {
        assertThat(RowStatements.sql(new RowChange(TABLE, RowChange.Kind.UPDATE, new Object[3], new Object[3])))
                .isEqualTo("UPDATE `sh``op`.`t` SET `id` = ?, `code` = ?, `v` = ? WHERE `id` = ? AND `code` = CONVERT(? USING latin1)");
        assertThat(RowStatements.sql(new RowChange(TABLE, RowChange.Kind.DELETE, new Object[3], null)))
                .isEqualTo("DELETE FROM `sh``op`.`t` WHERE `id` = ? AND `code` = CONVERT(? USING latin1)");
    }

    @Test
    void generatedColumnsAreNeverWritten() {
        TableSchema table = new TableSchema("s", "g", List.of(new Column("id", ColumnKind.INT, false, null),
                new Column("twice", ColumnKind.INT, false, null, true)), List.of(0));
        assertThat(RowStatements.sql(new RowChange(table, RowChange.Kind.INSERT, null, new Object[2])))
                .isEqualTo("INSERT INTO `s`.`g` (`id`) VALUES (?)");
        assertThat(RowStatements.sql(new RowChange(table, RowChange.Kind.UPDATE, new Object[2], new Object[2])))
                .isEqualTo("UPDATE `s`.`g` SET `id` = ? WHERE `id` = ?");
    }

    @Test
    void imagesMustMatchTheKind() {
        assertThatThrownBy(() -> new RowChange(TABLE, RowChange.Kind.DELETE, null, new Object[3]))
                .hasMessageContaining("wrong images");
        assertThatThrownBy(() -> new TableSchema("a", "t", List.of(new Column("x", ColumnKind.INT, false, null)), List.of()))
                .hasMessageContaining("a.t has no primary key");
    }

    private static String literal(RowChange row) {
        StringBuilder sql = new StringBuilder();
        return new RowStatements.Literal(row.table()).append(sql, row) ? sql.toString() : null;
    }

    @Test
    void literalStatementsWriteTheValuesInline() {
        assertThat(literal(new RowChange(TABLE, RowChange.Kind.INSERT, null, new Object[] {1L, new byte[] {65}, "it's"})))
                .isEqualTo("INSERT INTO `sh``op`.`t` (`id`, `code`, `v`) VALUES (1, X'41', 'it\\'s')");
        assertThat(literal(new RowChange(TABLE, RowChange.Kind.DELETE, new Object[] {1L, new byte[] {65}, null}, null)))
                .isEqualTo("DELETE FROM `sh``op`.`t` WHERE `id` = 1 AND `code` = CONVERT(X'41' USING latin1)");
    }

    @Test
    void aLiteralUpdateSetsOnlyWhatChanged() {
        Object[] before = {1L, new byte[] {65}, "old"};
        assertThat(literal(new RowChange(TABLE, RowChange.Kind.UPDATE, before, new Object[] {1L, new byte[] {65}, "new"})))
                .isEqualTo("UPDATE `sh``op`.`t` SET `v` = 'new' WHERE `id` = 1 AND `code` = CONVERT(X'41' USING latin1)");
        assertThat(literal(new RowChange(TABLE, RowChange.Kind.UPDATE, before, new Object[] {2L, new byte[] {66}, "old"})))
                .isEqualTo("UPDATE `sh``op`.`t` SET `id` = 2, `code` = X'42'"
                        + " WHERE `id` = 1 AND `code` = CONVERT(X'41' USING latin1)");
        assertThat(literal(new RowChange(TABLE, RowChange.Kind.UPDATE, before, before.clone())))
                .isEqualTo("UPDATE `sh``op`.`t` SET `id` = `id` WHERE `id` = 1 AND `code` = CONVERT(X'41' USING latin1)");
        assertThat(literal(new RowChange(TABLE, RowChange.Kind.UPDATE, before, new Object[] {1L, new byte[] {65}, null})))
                .isEqualTo("UPDATE `sh``op`.`t` SET `v` = NULL WHERE `id` = 1 AND `code` = CONVERT(X'41' USING latin1)");
    }

    @Test
    void aValueWithoutALiteralFormLeavesTheScriptAsItWas() {
        StringBuilder sql = new StringBuilder("SELECT 1");
        RowChange row = new RowChange(TABLE, RowChange.Kind.INSERT, null, new Object[] {1L, new byte[] {65}, new Object()});
        assertThat(new RowStatements.Literal(TABLE).append(sql, row)).isFalse();
        assertThat(sql).hasToString("SELECT 1");
    }
}
