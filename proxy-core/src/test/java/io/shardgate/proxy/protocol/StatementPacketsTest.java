package io.shardgate.proxy.protocol;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class StatementPacketsTest {
    /** COM_STMT_EXECUTE of statement 7 with 2 parameters, no NULLs, flags 0, 1 iteration. */
    private static ByteBuf execute(boolean withTypes) {
        ByteBuf out = Unpooled.buffer().writeByte(0x17).writeIntLE(7).writeByte(0).writeIntLE(1).writeByte(0);
        if (withTypes) {
            out.writeByte(1).writeShortLE(3).writeShortLE(253);
        } else {
            out.writeByte(0);
        }
        return out.writeIntLE(42).writeByte(2).writeBytes("hi".getBytes());
    }

    @Test
    void readsAndRewritesTheStatementId() {
        ByteBuf packet = execute(true);
        assertThat(StatementPackets.statementId(packet)).isEqualTo(7);
        StatementPackets.statementId(packet, 99);
        assertThat(StatementPackets.statementId(packet)).isEqualTo(99);
    }

    @Test
    void findsTheTypesAClientSentOrLeftOut() {
        assertThat(StatementPackets.sentTypes(execute(true), 2)).containsExactly(3, 0, (byte) 253, 0);
        assertThat(StatementPackets.sentTypes(execute(false), 2)).isNull();
        assertThat(StatementPackets.omitsTypes(execute(false), 2)).isTrue();
        assertThat(StatementPackets.omitsTypes(execute(true), 2)).isFalse();
        assertThat(StatementPackets.sentTypes(execute(true), 0)).isNull();
    }

    @Test
    void putsTheTypesBackIntoAnExecuteThatLeftThemOut() {
        byte[] types = StatementPackets.sentTypes(execute(true), 2);
        ByteBuf rebuilt = StatementPackets.withTypes(execute(false), 2, types, ByteBufAllocator.DEFAULT);
        assertThat(ByteBufUtil.hexDump(rebuilt)).isEqualTo(ByteBufUtil.hexDump(execute(true)));
    }
}
