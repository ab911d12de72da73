package io.shardgate.proxy.frontend;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class ProcessListQueryTest {
    private static final List<ProcessList.Row> ROWS = List.of(
            new ProcessList.Row(7, "app", "127.0.0.1:5000", null, "Query", 3500, "Executing", "SELECT '\"x\\'\n"),
            new ProcessList.Row(9, "app", "127.0.0.1:5001", "shop", "Sleep", 12000, "", null));

    private static String rewrite(String sql) {
        return ProcessListQuery.rewrite(sql, false, null, () -> ROWS);
    }

    private static final String SOURCE = ProcessListQuery.source(ROWS);

    @Test
    void showProcesslistIsRecognisedByItsTokens() {
        assertThat(ProcessListQuery.show("SHOW PROCESSLIST")).isFalse();
        assertThat(ProcessListQuery.show("show full processlist;")).isTrue();
        assertThat(ProcessListQuery.show("/* x */ SHOW /* y */ FULL PROCESSLIST -- z")).isTrue();
        assertThat(ProcessListQuery.show("SHOW PROCESSLIST x")).isNull();
        assertThat(ProcessListQuery.show("SELECT 'SHOW PROCESSLIST'")).isNull();
        assertThat(ProcessListQuery.show("SHOW TABLES")).isNull();
    }

    @Test
    void theTableBecomesTheSessionsUnderItsOwnName() {
        assertThat(rewrite("SELECT * FROM information_schema.PROCESSLIST"))
                .isEqualTo("SELECT * FROM " + SOURCE + " AS PROCESSLIST");
        assertThat(rewrite("SELECT ID FROM INFORMATION_SCHEMA.processlist WHERE ID = CONNECTION_ID()"))
                .isEqualTo("SELECT ID FROM " + SOURCE + " AS PROCESSLIST WHERE ID = CONNECTION_ID()");
        assertThat(rewrite("SELECT COUNT(*) FROM `information_schema`.`PROCESSLIST` WHERE INFO LIKE '%x%'"))
                .isEqualTo("SELECT COUNT(*) FROM " + SOURCE + " AS PROCESSLIST WHERE INFO LIKE '%x%'");
    }

    @Test
    void anAliasOfTheStatementIsKept() {
        assertThat(rewrite("SELECT p.ID FROM information_schema.PROCESSLIST p ORDER BY p.ID"))
                .isEqualTo("SELECT p.ID FROM " + SOURCE + " p ORDER BY p.ID");
        assertThat(rewrite("SELECT p.ID FROM information_schema.PROCESSLIST AS p"))
                .isEqualTo("SELECT p.ID FROM " + SOURCE + " AS p");
        assertThat(rewrite("SELECT ID FROM information_schema.PROCESSLIST ORDER BY ID LIMIT 1"))
                .isEqualTo("SELECT ID FROM " + SOURCE + " AS PROCESSLIST ORDER BY ID LIMIT 1");
    }

    @Test
    void aColumnQualifiedWithTheTableKeepsTheTableName() {
        assertThat(rewrite("SELECT information_schema.PROCESSLIST.ID FROM information_schema.PROCESSLIST"))
                .isEqualTo("SELECT PROCESSLIST.ID FROM " + SOURCE + " AS PROCESSLIST");
    }

    @Test
    void stringsCommentsAndOtherTablesAreLeftAlone() {
        assertThat(rewrite("SELECT 'information_schema.PROCESSLIST'")).isNull();
        assertThat(rewrite("SELECT 1 /* information_schema.PROCESSLIST */")).isNull();
        assertThat(rewrite("SELECT * FROM information_schema.TABLES")).isNull();
        assertThat(rewrite("SELECT * FROM shop.PROCESSLIST")).isNull();
        assertThat(rewrite("SELECT * FROM PROCESSLIST")).as("not in information_schema").isNull();
        assertThat(ProcessListQuery.rewrite("SELECT * FROM PROCESSLIST", false, "information_schema", () -> ROWS))
                .isEqualTo("SELECT * FROM " + SOURCE + " AS PROCESSLIST");
    }

    @Test
    void theRowsTravelAsJsonInAHexLiteralWithTheTableColumnTypes() {
        assertThat(SOURCE).startsWith("JSON_TABLE(CONVERT(x'").contains("' USING utf8mb4), '$[*]' COLUMNS (ID BIGINT(4) PATH '$[0]'")
                .contains("TIME INT(7)").contains("TIME_MS DECIMAL(22,3)").contains("STAGE TINYINT(2)")
                .contains("INFO_BINARY BLOB").endsWith("TID BIGINT(4) PATH '$[9]'))");
        String hex = SOURCE.substring(SOURCE.indexOf("x'") + 2, SOURCE.indexOf("' USING"));
        String json = new String(HexFormat.of().parseHex(hex), StandardCharsets.UTF_8);
        assertThat(json).isEqualTo("[[7,\"app\",\"127.0.0.1:5000\",null,\"Query\",3,\"Executing\",\"SELECT '\\\"x\\\\'\\u000a\",3500,0],"
                + "[9,\"app\",\"127.0.0.1:5001\",\"shop\",\"Sleep\",12,\"\",null,12000,0]]");
    }

    @Test
    void informationSchemaInfoIsCutWhereMariaDbCutsIt() {
        String longInfo = "x".repeat(ProcessList.INFO_WIDTH + 10);
        String source = ProcessListQuery.source(List.of(new ProcessList.Row(1, "a", "h", null, "Query", 0, "", longInfo)));
        String hex = source.substring(source.indexOf("x'") + 2, source.indexOf("' USING"));
        String json = new String(HexFormat.of().parseHex(hex), StandardCharsets.UTF_8);
        assertThat(json).contains("\"" + "x".repeat(ProcessList.INFO_WIDTH) + "\"");
    }
}
