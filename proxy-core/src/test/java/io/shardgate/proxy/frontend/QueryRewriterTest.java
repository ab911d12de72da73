package io.shardgate.proxy.frontend;

import io.netty.buffer.Unpooled;
import io.shardgate.proxy.protocol.MySqlPacket;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

class QueryRewriterTest {

    @Test
    void connectionIdAnswersShardgatesId() {
        assertThat(rewrite("SELECT CONNECTION_ID()", 42)).isEqualTo("SELECT 42");
        assertThat(rewrite("select connection_id ( ) AS id, 1", 7)).isEqualTo("select 7 AS id, 1");
    }

    @Test
    void transactionVariablesGetMariaDbNames() {
        assertThat(rewrite("SELECT @@session.transaction_isolation AS transaction_isolation, @@transaction_read_only", 1))
                .isEqualTo("SELECT @@session.tx_isolation AS transaction_isolation, @@tx_read_only");
        assertThat(rewrite("SELECT @@GLOBAL.Transaction_Isolation", 1)).isEqualTo("SELECT @@GLOBAL.tx_Isolation");
    }

    @Test
    void leavesEverythingElseAloneAndReturnsTheSamePacket() {
        MySqlPacket packet = packet("SELECT my_connection_identifier, 'transaction_isolation' FROM t");
        assertThat(QueryRewriter.rewrite(packet, text(packet), 3)).isSameAs(packet);
        packet.release();
    }


    private static String rewrite(String sql, long id) {
        MySqlPacket result = QueryRewriter.rewrite(packet(sql), sql, id);
        try {
            return text(result);
        } finally {
            result.release();
        }
    }

    private static MySqlPacket packet(String sql) {
        return new MySqlPacket(0, Unpooled.buffer().writeByte(0x03).writeBytes(sql.getBytes(StandardCharsets.UTF_8)));
    }

    private static String text(MySqlPacket packet) {
        return packet.payload().toString(1, packet.payload().readableBytes() - 1, StandardCharsets.UTF_8);
    }
}
