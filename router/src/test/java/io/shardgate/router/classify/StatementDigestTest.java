package io.shardgate.router.classify;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class StatementDigestTest {

    private static String text(String sql) {
        return StatementDigest.of(sql, false, StatementDigest.MAX_TEXT).text();
    }

    private static long hash(String sql) {
        return StatementDigest.of(sql, false, StatementDigest.MAX_TEXT).hash();
    }

    private static void assertSame(String a, String b) {
        assertThat(text(a)).isEqualTo(text(b));
        assertThat(hash(a)).isEqualTo(hash(b));
    }

    private static void assertDifferent(String a, String b) {
        assertThat(text(a)).isNotEqualTo(text(b));
        assertThat(hash(a)).isNotEqualTo(hash(b));
    }

    @Test
    void numbersBecomePlaceholders() {
        assertThat(text("SELECT c FROM sbtest1 WHERE id=42")).isEqualTo("SELECT c FROM sbtest1 WHERE id = ?");
        assertThat(text("select 1.5e-3, .5, 0x1F, -7, +3")).isEqualTo("SELECT ?, ?, ?, ?, ?");
        assertSame("SELECT c FROM t WHERE id = 1", "SELECT c FROM t WHERE id = 99999999999999999999");
    }

    @Test
    void binaryMinusStaysAnOperator() {
        assertThat(text("SELECT a - 1, (b)-2, 3 - -4 FROM t")).isEqualTo("SELECT a - ?, (b) - ?, ? - ? FROM t");
    }

    @Test
    void stringsWithEscapesAndPrefixesBecomePlaceholders() {
        assertThat(text("SELECT * FROM t WHERE a = 'it''s' AND b = \"x\\\"y\" AND c = X'1F' AND d = _utf8mb4'z' AND e = N'n'"))
                .isEqualTo("SELECT * FROM t WHERE a = ? AND b = ? AND c = ? AND d = ? AND e = ?");
        assertThat(text("SELECT b'101', DATE '2024-01-01', TIMESTAMP'2024-01-01 00:00:00'"))
                .isEqualTo("SELECT ?, DATE ?, TIMESTAMP ?");
        assertSame("SELECT * FROM t WHERE a = 'a\\'b'", "SELECT * FROM t WHERE a = ''");
    }

    @Test
    void noBackslashEscapesChangesWhereAStringEnds() {
        String sql = "SELECT 'a\\' , b FROM t";
        assertThat(StatementDigest.of(sql, true, 100).text()).isEqualTo("SELECT ?, b FROM t");
        assertThat(new StatementDigest().hash(sql, true)).isEqualTo(StatementDigest.of(sql, true, 100).hash());
    }

    @Test
    void inListsOfAnyLengthShareADigest() {
        assertSame("SELECT * FROM t WHERE id IN (1,2,3)", "SELECT * FROM t WHERE id IN (4)");
        assertThat(text("SELECT * FROM t WHERE id IN (1, 'a', -2, NULL)")).isEqualTo("SELECT * FROM t WHERE id IN (...)");
        assertThat(text("SELECT * FROM t WHERE id IN (SELECT id FROM u)")).isEqualTo("SELECT * FROM t WHERE id IN (SELECT id FROM u)");
        assertThat(text("SELECT * FROM t WHERE (a, b) IN ((1, 2), (3, 4))")).isEqualTo("SELECT * FROM t WHERE (a, b) IN (...)");
    }

    @Test
    void multiRowValuesCollapseToOneRow() {
        assertSame("INSERT INTO t (a, b) VALUES (1, 'x'), (2, 'y'), (3, 'z')", "INSERT INTO t (a, b) VALUES (9, 'q')");
        assertThat(text("INSERT INTO t (a, b) VALUES (1, 'x'), (2, 'y')")).isEqualTo("INSERT INTO t (a, b) VALUES (...)");
        assertSame("INSERT INTO t VALUES (1, NOW()), (2, NOW())", "INSERT INTO t VALUES (3, NOW())");
        assertThat(text("INSERT INTO t VALUES (1, NOW()), (2, NOW())")).isEqualTo("INSERT INTO t VALUES (?, NOW ())");
        assertDifferent("INSERT INTO t VALUES (1, NOW()), (2, UUID())", "INSERT INTO t VALUES (1, NOW())");
        assertThat(text("INSERT INTO t VALUES (1,2),(3,4) ON DUPLICATE KEY UPDATE a = VALUES(a)"))
                .isEqualTo("INSERT INTO t VALUES (...) ON DUPLICATE KEY UPDATE a = VALUES (a)");
    }

    @Test
    void commentsWhitespaceAndCaseDoNotMatter() {
        assertSame("select  c\n\tFROM t /* hi */ where id = 1 -- tail\n", "SELECT c FROM t WHERE id=2");
        assertSame("SELECT c FROM t WHERE id = 1;", "SELECT c FROM t WHERE id = 1");
        assertSame("/*+ shardgate primary */ SELECT 1", "SELECT 2");
        assertThat(text("SELECT a>=1, b <=> 2, c != 3 FROM t")).isEqualTo("SELECT a >= ?, b <=> ?, c != ? FROM t");
        assertThat(text("SELECT COUNT( * ) FROM db.t")).isEqualTo("SELECT COUNT (*) FROM db.t");
    }

    @Test
    void preparedStatementPlaceholdersAreLiterals() {
        assertSame("SELECT c FROM t WHERE id = ?", "SELECT c FROM t WHERE id = 5");
        assertSame("SELECT c FROM t WHERE id IN (?, ?, ?)", "SELECT c FROM t WHERE id IN (1)");
    }

    @Test
    void differentTablesAndIdentifiersDiffer() {
        assertDifferent("SELECT c FROM t1 WHERE id = 1", "SELECT c FROM t2 WHERE id = 1");
        assertDifferent("SELECT c FROM T WHERE id = 1", "SELECT c FROM t WHERE id = 1");
        assertDifferent("SELECT a FROM t", "SELECT b FROM t");
        assertDifferent("SELECT * FROM t WHERE id IN (1)", "SELECT * FROM t WHERE id = 1");
        assertDifferent("SELECT f(a), b FROM t", "SELECT f(a, b) FROM t");
        assertThat(text("SELECT `order` FROM `my table`")).isEqualTo("SELECT `order` FROM `my table`");
    }

    @Test
    void textIsBoundedAndTheHashCoversTheFirstSixteenKilobytes() {
        StringBuilder sql = new StringBuilder("SELECT ");
        for (int i = 0; i < 500; i++) {
            sql.append("column_").append(i).append(", ");
        }
        assertThat(sql.length()).isLessThan(StatementDigest.MAX_SCANNED);
        String a = sql + "x FROM t";
        String b = sql + "y FROM t";
        StatementDigest.Digest digestA = StatementDigest.of(a, false, 100);
        assertThat(digestA.text()).hasSize(100).endsWith("...").startsWith("SELECT column_0, column_1");
        assertThat(StatementDigest.of(b, false, 100).text()).isEqualTo(digestA.text());
        assertThat(StatementDigest.of(b, false, 100).hash()).as("a difference within the first 16 KiB").isNotEqualTo(digestA.hash());

        while (sql.length() < StatementDigest.MAX_SCANNED) {
            sql.append("column_z, ");
        }
        assertThat(StatementDigest.of(sql + "x FROM t", false, 100).hash()).as("a difference only after the first 16 KiB")
                .isEqualTo(StatementDigest.of(sql + "y FROM t", false, 100).hash());
    }

    @Test
    void hashOnlyEqualsTheHashWithText() {
        StatementDigest reused = new StatementDigest();
        for (String sql : new String[] {"SELECT 1", "INSERT INTO t VALUES (1,2),(3,4)", "SELECT * FROM t WHERE a IN (1,2) AND b = -1",
                "SELECT X'1F', _latin1'a', ((((((1))))))", "SELECT (", "SELECT )", "", "SELECT 'unterminated"}) {
            assertThat(reused.hash(sql, false)).as(sql).isEqualTo(hash(sql));
        }
    }

    @Test
    void deepNestingAndUnbalancedParenthesesNeverThrow() {
        String deep = "SELECT " + "(".repeat(100) + "1" + ")".repeat(100);
        assertThat(text(deep)).isNotEmpty();
        assertThat(text("SELECT ((1)")).isEqualTo("SELECT ((...)");
        assertThat(text("SELECT 1))")).isEqualTo("SELECT ?))");
    }
}
