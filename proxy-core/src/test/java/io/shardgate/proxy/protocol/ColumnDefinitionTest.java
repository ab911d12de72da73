package io.shardgate.proxy.protocol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import org.junit.jupiter.api.Test;

class ColumnDefinitionTest {

    @Test
    void readsACapturedDefinition() {
        // biu bigint unsigned of table t.a.
        ByteBuf payload = Unpooled.wrappedBuffer(MariaDbCapture.bytes(MariaDbCapture.COLUMN_DEFINITIONS.get(9)));

        ColumnDefinition definition = ColumnDefinition.parse(payload);

        assertThat(definition).isEqualTo(new ColumnDefinition("def", "t", "a", "a", "biu", "biu", 63, 20,
                ColumnDefinition.TYPE_LONGLONG, ColumnDefinition.FLAG_UNSIGNED, 0));
        assertThat(definition.unsigned()).isTrue();
        assertThat(definition.zerofill()).isFalse();
        assertThat(payload.readerIndex()).isZero();
    }

    @Test
    void readsUnsignedLengthsAndZerofill() {
        ColumnDefinition js = ColumnDefinition.parse(Unpooled.wrappedBuffer(MariaDbCapture.bytes(MariaDbCapture.COLUMN_DEFINITIONS.get(27))));
        ColumnDefinition zd = ColumnDefinition.parse(Unpooled.wrappedBuffer(MariaDbCapture.bytes(MariaDbCapture.COLUMN_DEFINITIONS.get(30))));

        assertThat(js.length()).isEqualTo(0xFFFFFFFFL);
        assertThat(js.charset()).isEqualTo(45);
        assertThat(zd.zerofill()).isTrue();
        assertThat(zd.decimals()).isEqualTo(2);
    }

    @Test
    void encodesEveryCapturedDefinitionToTheSameBytes() {
        for (String hex : MariaDbCapture.COLUMN_DEFINITIONS) {
            ByteBuf encoded = ColumnDefinition.parse(Unpooled.wrappedBuffer(MariaDbCapture.bytes(hex))).encode(ByteBufAllocator.DEFAULT);
            assertThat(RowCodecFixtures.hexAndRelease(encoded)).isEqualTo(hex);
        }
    }

    @Test
    void describesAComputedColumnAsMariaDbDescribesAnExpression() {
        ColumnDefinition computed = ColumnDefinition.computed("1", ColumnDefinition.TYPE_LONG, 63, 1,
                ColumnDefinition.FLAG_NOT_NULL | ColumnDefinition.FLAG_BINARY, 0);
        // Captured: the definition of `select 1`.
        assertThat(RowCodecFixtures.hexAndRelease(computed.encode(ByteBufAllocator.DEFAULT)))
                .isEqualTo("036465660000000131000c3f0001000000038100000000");
    }

    @Test
    void rejectsATruncatedDefinition() {
        String hex = MariaDbCapture.COLUMN_DEFINITIONS.get(0);
        ByteBuf truncated = Unpooled.wrappedBuffer(MariaDbCapture.bytes(hex.substring(0, hex.length() - 20)));

        assertThatThrownBy(() -> ColumnDefinition.parse(truncated)).isInstanceOf(MalformedPacketException.class)
                .hasMessage("column definition fixed fields: 2 bytes left (expected: >= 10)");
    }
}
