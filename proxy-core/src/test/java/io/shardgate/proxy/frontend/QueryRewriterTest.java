package io.shardgate.proxy.frontend;

import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.shardgate.proxy.protocol.ClientCharset;
import io.shardgate.proxy.protocol.MySqlPacket;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class QueryRewriterTest {

    @Test
    void connectionIdAnswersShardgatesId() {
        assertThat(rewrite("SELECT CONNECTION_ID()", 42)).isEqualTo("SELECT 42 AS `CONNECTION_ID()`");
        assertThat(rewrite("select connection_id ( ) AS id, 1", 7)).isEqualTo("select 7 AS id, 1");
        assertThat(rewrite("SELECT CONNECTION_ID /* c */ ()", 7)).isEqualTo("SELECT 7 AS `CONNECTION_ID  ()`");
        assertThat(rewrite("SELECT CONNECTION_ID CONNECTION_ID()", 7)).isEqualTo("SELECT CONNECTION_ID 7 AS `CONNECTION_ID CONNECTION_ID()`"); // a syntax error either way
        assertThat(rewrite("/*!SELECT CONNECTION_ID() */", 7)).isEqualTo("/*!SELECT 7 AS `CONNECTION_ID()` */");
    }

    @Test
    void transactionVariablesGetMariaDbNames() {
        assertThat(rewrite("SELECT @@session.transaction_isolation AS transaction_isolation, @@transaction_read_only", 1))
                .isEqualTo("SELECT @@session.tx_isolation AS transaction_isolation, @@tx_read_only AS `@@transaction_read_only`");
        assertThat(rewrite("SELECT @@GLOBAL.Transaction_Isolation", 1)).isEqualTo("SELECT @@GLOBAL.tx_Isolation AS `@@GLOBAL.Transaction_Isolation`");
        assertThat(rewrite("SELECT @@local.transaction_read_only, @@transaction_isolation_x, @transaction_isolation", 1))
                .isEqualTo("SELECT @@local.tx_read_only AS `@@local.transaction_read_only`, @@transaction_isolation_x, @transaction_isolation");
    }

    @Test
    void stringsIdentifiersAndCommentsAreNeverRewritten() {
        for (String sql : new String[] {
                "SELECT 'CONNECTION_ID()'",
                "SELECT \"see @@transaction_isolation docs\"",
                "SELECT `CONNECTION_ID`() FROM t",
                "SELECT t.CONNECTION_ID() FROM t",
                "SELECT 1 /* CONNECTION_ID() @@transaction_isolation */",
                "SELECT 1 -- CONNECTION_ID()\n",
                "SELECT 1 # @@transaction_read_only\n",
                "SELECT /*+ shardgate primary CONNECTION_ID() */ 1",
                "INSERT INTO t VALUES (1, 'it''s CONNECTION_ID()'), (2, 'a\\' CONNECTION_ID()')",
                "SELECT CONNECTION_ID",
                "SELECT CONNECTION_ID(1)",
        }) {
            MySqlPacket packet = packet(sql.getBytes(StandardCharsets.UTF_8));
            assertThat(QueryRewriter.rewrite(packet, sql, ClientCharset.UTF8MB4, 3, false)).as(sql).isSameAs(packet);
            packet.release();
        }
    }

    @Test
    void noBackslashEscapesChangesWhereAStringEnds() {
        // With backslash escapes the server reads 'a\', ' as one string and CONNECTION_ID() as code; without, as two strings.
        String sql = "SELECT 'a\\', 'CONNECTION_ID()'";
        assertThat(rewrite(sql, 9, false)).isEqualTo("SELECT 'a\\', '9'");
        assertThat(rewrite(sql, 9, true)).isEqualTo(sql);
        String code = "SELECT 'a\\', CONNECTION_ID()";
        assertThat(rewrite(code, 9, true)).isEqualTo("SELECT 'a\\', 9 AS `CONNECTION_ID()`");
    }

    @Test
    void leavesEverythingElseAloneAndReturnsTheSamePacket() {
        String sql = "SELECT my_connection_identifier, 'transaction_isolation' FROM t";
        MySqlPacket packet = packet(sql.getBytes(StandardCharsets.UTF_8));
        assertThat(QueryRewriter.rewrite(packet, sql, ClientCharset.UTF8MB4, 3, false)).isSameAs(packet);
        packet.release();
    }

    @Test
    void splicesTheClientsOwnBytes() {
        // latin1 text, bytes that are not UTF-8 and an emoji around a rewrite: all of them kept byte for byte.
        byte[] latin1 = concat("SELECT '".getBytes(StandardCharsets.US_ASCII), new byte[] {(byte) 0xE0, (byte) 0xE9, (byte) 0xA3, (byte) 0x81},
                "', CONNECTION_ID(), '".getBytes(StandardCharsets.US_ASCII), new byte[] {(byte) 0x9D, (byte) 0xFF}, "'".getBytes(StandardCharsets.US_ASCII));
        assertThat(splice(latin1, ClientCharset.LATIN1, 5)).isEqualTo(concat("SELECT '".getBytes(StandardCharsets.US_ASCII),
                new byte[] {(byte) 0xE0, (byte) 0xE9, (byte) 0xA3, (byte) 0x81}, "', 5 AS `CONNECTION_ID()`, '".getBytes(StandardCharsets.US_ASCII),
                new byte[] {(byte) 0x9D, (byte) 0xFF}, "'".getBytes(StandardCharsets.US_ASCII)));
        byte[] utf8 = concat("SELECT _binary'".getBytes(StandardCharsets.US_ASCII), new byte[] {(byte) 0xC3, 0x28, (byte) 0x80, 0},
                "😀', @@transaction_isolation".getBytes(StandardCharsets.UTF_8));
        assertThat(splice(utf8, ClientCharset.UTF8MB4, 5)).isEqualTo(concat("SELECT _binary'".getBytes(StandardCharsets.US_ASCII),
                new byte[] {(byte) 0xC3, 0x28, (byte) 0x80, 0}, "😀', @@tx_isolation AS `@@transaction_isolation`".getBytes(StandardCharsets.UTF_8)));
    }

    @Test
    void aRewriteInTextThatIsNotValidInItsCharacterSetIsRefused() {
        ClientCharset gbk = ClientCharset.named("gbk");
        byte[] bytes = concat("SELECT CONNECTION_ID(), '".getBytes(StandardCharsets.US_ASCII), new byte[] {(byte) 0x81}, "'".getBytes(StandardCharsets.US_ASCII));
        MySqlPacket packet = packet(bytes);
        assertThatThrownBy(() -> QueryRewriter.rewrite(packet, gbk.decode(bytes), gbk, 1, false))
                .isInstanceOf(ClientCharset.UnmappableTextException.class).hasMessageContaining("not valid gbk");
        assertThat(packet.refCnt()).isEqualTo(1);
        packet.release();
        // Valid gbk text is spliced.
        byte[] valid = concat("SELECT '".getBytes(StandardCharsets.US_ASCII), "中文".getBytes(java.nio.charset.Charset.forName("GBK")),
                "', CONNECTION_ID()".getBytes(StandardCharsets.US_ASCII));
        assertThat(splice(valid, gbk, 4)).isEqualTo(concat("SELECT '".getBytes(StandardCharsets.US_ASCII),
                "中文".getBytes(java.nio.charset.Charset.forName("GBK")), "', 4 AS `CONNECTION_ID()`".getBytes(StandardCharsets.US_ASCII)));
    }

    @Test
    void anUnaliasedSelectItemKeepsItsNameAsWritten() {
        assertThat(rewrite("SELECT CONNECTION_ID() > 0, 1", 2)).isEqualTo("SELECT 2 > 0 AS `CONNECTION_ID() > 0`, 1");
        assertThat(rewrite("SELECT 1, connection_id ( ) FROM t WHERE a = CONNECTION_ID()", 2))
                .isEqualTo("SELECT 1, 2 AS `connection_id ( )` FROM t WHERE a = 2");
        // Commas and parentheses inside functions belong to the item.
        assertThat(rewrite("SELECT CONCAT('a,b', (CONNECTION_ID()), ',') , x FROM t", 3))
                .isEqualTo("SELECT CONCAT('a,b', (3), ',') AS `CONCAT('a,b', (CONNECTION_ID()), ',')` , x FROM t");
        assertThat(rewrite("SELECT DISTINCT SQL_NO_CACHE CONNECTION_ID()\nLIMIT 1", 3))
                .isEqualTo("SELECT DISTINCT SQL_NO_CACHE 3 AS `CONNECTION_ID()`\nLIMIT 1");
        // Newlines stay, comments go (as in MariaDB's own name); backticks are doubled.
        assertThat(rewrite("SELECT CONNECTION_ID() /* c */ +\n `a``b` FROM t; SELECT 1", 3))
                .isEqualTo("SELECT 3 /* c */ +\n `a``b` AS `CONNECTION_ID()  +\n ``a````b``` FROM t; SELECT 1");
        // As MariaDB names them: "CONNECTION_ID()  \n+ 1" and "CONNECTION_ID()  + 1".
        assertThat(rewrite("SELECT CONNECTION_ID()  #x\n+ 1 , CONNECTION_ID() /*! + 1 */", 3))
                .isEqualTo("SELECT 3  #x\n+ 1 AS `CONNECTION_ID()  \n+ 1` , 3 /*! + 1 AS `CONNECTION_ID()  + 1` */");
        assertThat(rewrite("SELECT CASE WHEN CONNECTION_ID() > 0 THEN 1 END, CONNECTION_ID() IS NULL", 3))
                .isEqualTo("SELECT CASE WHEN 3 > 0 THEN 1 END AS `CASE WHEN CONNECTION_ID() > 0 THEN 1 END`, 3 IS NULL AS `CONNECTION_ID() IS NULL`");
        assertThat(rewrite("SELECT CONNECTION_ID() = _latin1'x' COLLATE latin1_bin", 3))
                .isEqualTo("SELECT 3 = _latin1'x' COLLATE latin1_bin AS `CONNECTION_ID() = _latin1'x' COLLATE latin1_bin`");
    }

    @Test
    void anItemThatHasAnAliasKeepsIt() {
        assertThat(rewrite("SELECT CONNECTION_ID() AS id", 2)).isEqualTo("SELECT 2 AS id");
        assertThat(rewrite("SELECT CONNECTION_ID() id, @@transaction_isolation `iso`", 2)).isEqualTo("SELECT 2 id, @@tx_isolation `iso`");
        assertThat(rewrite("SELECT CONNECTION_ID() 'id', (CONNECTION_ID()) \"id2\"", 2)).isEqualTo("SELECT 2 'id', (2) \"id2\"");
        assertThat(rewrite("SELECT CONNECTION_ID() + 1 AS `x y` FROM t", 2)).isEqualTo("SELECT 2 + 1 AS `x y` FROM t");
        assertThat(rewrite("SELECT CONNECTION_ID() year, NOW() + INTERVAL CONNECTION_ID() DAY", 2))
                .isEqualTo("SELECT 2 year, NOW() + INTERVAL 2 DAY AS `NOW() + INTERVAL CONNECTION_ID() DAY`");
    }

    @Test
    void onlySelectListsWhoseNamesAreReturnedGetAliases() {
        // A derived table's names become the outer query's.
        assertThat(rewrite("SELECT * FROM (SELECT CONNECTION_ID()) t", 4)).isEqualTo("SELECT * FROM (SELECT 4 AS `CONNECTION_ID()`) t");
        // After UNION the first SELECT names the columns.
        assertThat(rewrite("SELECT CONNECTION_ID() UNION ALL SELECT CONNECTION_ID() + 1 UNION (SELECT CONNECTION_ID())", 4))
                .isEqualTo("SELECT 4 AS `CONNECTION_ID()` UNION ALL SELECT 4 + 1 UNION (SELECT 4)");
        // Outside a select list: no alias.
        assertThat(rewrite("SET @a = CONNECTION_ID()", 4)).isEqualTo("SET @a = 4");
        assertThat(rewrite("SELECT a FROM t WHERE b = CONNECTION_ID() ORDER BY CONNECTION_ID()", 4))
                .isEqualTo("SELECT a FROM t WHERE b = 4 ORDER BY 4");
        assertThat(rewrite("UPDATE t SET a = CONNECTION_ID() WHERE b IN (SELECT c FROM u)", 4))
                .isEqualTo("UPDATE t SET a = 4 WHERE b IN (SELECT c FROM u)");
        // Keywords inside strings and comments do not end an item.
        assertThat(rewrite("SELECT CONCAT(CONNECTION_ID(), ' FROM ') /* FROM */ , 'x' FROM t", 4))
                .isEqualTo("SELECT CONCAT(4, ' FROM ') AS `CONCAT(CONNECTION_ID(), ' FROM ')` /* FROM */ , 'x' FROM t");
    }

    @Test
    void theAliasSplicesTheClientsOwnBytes() {
        // latin1: the alias is the item's original bytes, not a re-encoding; a backtick's trail byte in gbk is not doubled.
        byte[] latin1 = concat("SELECT CONCAT('".getBytes(StandardCharsets.US_ASCII), new byte[] {(byte) 0xE9, (byte) 0x9D},
                "`', CONNECTION_ID())".getBytes(StandardCharsets.US_ASCII));
        assertThat(splice(latin1, ClientCharset.LATIN1, 5)).isEqualTo(concat("SELECT CONCAT('".getBytes(StandardCharsets.US_ASCII),
                new byte[] {(byte) 0xE9, (byte) 0x9D}, "`', 5) AS `CONCAT('".getBytes(StandardCharsets.US_ASCII),
                new byte[] {(byte) 0xE9, (byte) 0x9D}, "``', CONNECTION_ID())`".getBytes(StandardCharsets.US_ASCII)));
        ClientCharset gbk = ClientCharset.named("gbk");
        byte[] gbkText = new byte[] {(byte) 0x81, 0x60}; // one gbk char whose second byte is a backtick
        byte[] statement = concat("SELECT CONNECTION_ID() + '".getBytes(StandardCharsets.US_ASCII), gbkText, "'".getBytes(StandardCharsets.US_ASCII));
        assertThat(splice(statement, gbk, 6)).isEqualTo(concat("SELECT 6 + '".getBytes(StandardCharsets.US_ASCII), gbkText,
                "' AS `CONNECTION_ID() + '".getBytes(StandardCharsets.US_ASCII), gbkText, "'`".getBytes(StandardCharsets.US_ASCII)));
    }

    private static byte[] splice(byte[] statement, ClientCharset charset, long id) {
        MySqlPacket result = QueryRewriter.rewrite(packet(statement), charset.decode(statement), charset, id, false);
        try {
            assertThat(result.sequenceId()).isZero();
            assertThat(result.payload().getByte(0)).isEqualTo((byte) 0x03);
            return ByteBufUtil.getBytes(result.payload(), 1, result.payload().readableBytes() - 1);
        } finally {
            result.release();
        }
    }

    private static String rewrite(String sql, long id) {
        return rewrite(sql, id, false);
    }

    private static String rewrite(String sql, long id, boolean noBackslashEscapes) {
        MySqlPacket result = QueryRewriter.rewrite(packet(sql.getBytes(StandardCharsets.UTF_8)), sql, ClientCharset.UTF8MB4, id,
                noBackslashEscapes);
        try {
            assertThat(QueryRewriter.rewrite(sql, id, noBackslashEscapes)).isEqualTo(text(result));
            return text(result);
        } finally {
            result.release();
        }
    }

    private static MySqlPacket packet(byte[] sql) {
        return new MySqlPacket(0, Unpooled.buffer().writeByte(0x03).writeBytes(sql));
    }

    private static String text(MySqlPacket packet) {
        return packet.payload().toString(1, packet.payload().readableBytes() - 1, StandardCharsets.UTF_8);
    }

    private static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] part : parts) {
            out.writeBytes(part);
        }
        return out.toByteArray();
    }
}
