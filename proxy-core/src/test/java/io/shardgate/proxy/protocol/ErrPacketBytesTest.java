package io.shardgate.proxy.protocol;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.buffer.UnpooledByteBufAllocator;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

class ErrPacketBytesTest {

    @Test
    void aRelayedMessageKeepsBytesThatAreNotUtf8() {
        // MariaDB quotes a latin1 client's value in its own bytes: "Duplicate entry 'caf\xE9' for key 'PRIMARY'".
        ByteBuf in = Unpooled.buffer().writeByte(0xFF).writeShortLE(1062).writeByte('#').writeBytes("23000".getBytes(StandardCharsets.US_ASCII))
                .writeBytes("Duplicate entry 'caf".getBytes(StandardCharsets.US_ASCII)).writeByte(0xE9)
                .writeBytes("' for key 'PRIMARY'".getBytes(StandardCharsets.US_ASCII));
        byte[] original = ByteBufUtil.getBytes(in);
        ErrPacket decoded = ErrPacket.decode(in);
        assertThat(decoded.errno()).isEqualTo(1062);
        assertThat(decoded.sqlState()).isEqualTo("23000");
        ByteBuf out = decoded.encode(UnpooledByteBufAllocator.DEFAULT);
        assertThat(ByteBufUtil.getBytes(out)).isEqualTo(original);
        in.release();
        out.release();
    }

    @Test
    void shardgatesOwnMessagesAreUtf8() {
        ByteBuf out = new ErrPacket(1045, "28000", "Access denied for user 'zoë'").encode(UnpooledByteBufAllocator.DEFAULT);
        assertThat(out.toString(9, out.readableBytes() - 9, StandardCharsets.UTF_8)).isEqualTo("Access denied for user 'zoë'");
        out.release();
    }
}
