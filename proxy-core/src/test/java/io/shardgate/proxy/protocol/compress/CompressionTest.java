package io.shardgate.proxy.protocol.compress;

import static io.shardgate.proxy.protocol.compress.FrameTestSupport.drainInbound;
import static io.shardgate.proxy.protocol.compress.FrameTestSupport.drainOutbound;
import static io.shardgate.proxy.protocol.compress.FrameTestSupport.frame;
import static io.shardgate.proxy.protocol.compress.FrameTestSupport.packet;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.embedded.EmbeddedChannel;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class CompressionTest {

    private static final long CLIENT_PROTOCOL_41 = 1L << 9;
    private static final long BOTH = Zlib.CLIENT_COMPRESS | Zstd.CLIENT_ZSTD_COMPRESSION_ALGORITHM;

    @Test
    void installsInFrontOfThePacketFramer() {
        EmbeddedChannel channel = new EmbeddedChannel();
        channel.pipeline().addLast("packetFramer", new ChannelDuplexHandler());
        channel.pipeline().addLast("commands", new ChannelDuplexHandler());

        CompressionSequence sequence = Compression.install(channel.pipeline(), "packetFramer", new Zstd(5));

        assertThat(channel.pipeline().names()).startsWith(Compression.DECODER_NAME, Compression.ENCODER_NAME,
                Compression.COALESCER_NAME, "packetFramer", "commands");
        assertThat(sequence.side()).isEqualTo(CompressionSequence.Side.SERVER);
        byte[] ping = packet(0, new byte[] {0x0E});
        channel.writeInbound(Unpooled.wrappedBuffer(frame(0, 0, ping)));
        assertThat(drainInbound(channel)).isEqualTo(ping);
        channel.writeOutbound(Unpooled.wrappedBuffer(packet(1, new byte[] {0, 0, 0, 2, 0, 0, 0})));
        assertThat(drainOutbound(channel)).hasSize(1).allSatisfy(f -> assertThat(f[3]).isEqualTo((byte) 1));
        assertFalse(channel.finish());
    }

    @Test
    void serverPacksOneFlushIntoOneFrame() {
        EmbeddedChannel channel = new EmbeddedChannel();
        channel.pipeline().addLast("packetFramer", new ChannelDuplexHandler());
        Compression.install(channel.pipeline(), "packetFramer", new Zlib());
        byte[] first = packet(1, new byte[] {1});
        byte[] second = packet(2, new byte[] {3, 'd', 'e', 'f'});
        channel.write(Unpooled.wrappedBuffer(first));
        channel.write(Unpooled.wrappedBuffer(second));
        assertThat(channel.outboundMessages()).as("nothing leaves before the flush").isEmpty();
        channel.flush();
        java.util.List<byte[]> frames = drainOutbound(channel);
        assertThat(frames).hasSize(1);
        byte[] frame = frames.get(0);
        int payloadLength = (frame[0] & 0xFF) | (frame[1] & 0xFF) << 8 | (frame[2] & 0xFF) << 16;
        assertThat(payloadLength).isEqualTo(first.length + second.length);
        assertFalse(channel.finish());
    }

    @Test
    void installsClientSide() {
        EmbeddedChannel channel = new EmbeddedChannel();
        channel.pipeline().addLast("packetFramer", new ChannelDuplexHandler());

        assertThat(Compression.installClient(channel.pipeline(), "packetFramer", new Zlib()).side())
                .isEqualTo(CompressionSequence.Side.CLIENT);
        assertFalse(channel.finish());
    }

    @Test
    void removingTheHandlersFreesTheirState() {
        EmbeddedChannel channel = new EmbeddedChannel();
        channel.pipeline().addLast("packetFramer", new ChannelDuplexHandler());
        Compression.install(channel.pipeline(), "packetFramer", new Zlib());
        channel.pipeline().remove(Compression.DECODER_NAME);
        channel.pipeline().remove(Compression.ENCODER_NAME);
        assertThat(channel.pipeline().names()).doesNotContain(Compression.DECODER_NAME, Compression.ENCODER_NAME);
        assertFalse(channel.finish());
    }

    @Test
    void rejectsAMissingHandler() {
        EmbeddedChannel channel = new EmbeddedChannel();
        assertThatThrownBy(() -> Compression.install(channel.pipeline(), "packetFramer", new Zlib()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("no handler named 'packetFramer' in the pipeline");
        assertThatThrownBy(() -> Compression.install(channel.pipeline(), "packetFramer", null))
                .hasMessage("algorithm is null");
        assertFalse(channel.finish());
    }

    @Test
    void negotiation() {
        long server = CLIENT_PROTOCOL_41 | BOTH;
        assertThat(Compression.negotiate(server, CLIENT_PROTOCOL_41 | Zlib.CLIENT_COMPRESS, 0)).contains(new Zlib());
        assertThat(Compression.negotiate(server, CLIENT_PROTOCOL_41 | Zstd.CLIENT_ZSTD_COMPRESSION_ALGORITHM, 7))
                .contains(new Zstd(7));
        assertThat(Compression.negotiate(server, BOTH, 7)).as("zlib wins when both are set").contains(new Zlib());
        assertThat(Compression.negotiate(Zlib.CLIENT_COMPRESS, Zstd.CLIENT_ZSTD_COMPRESSION_ALGORITHM, 3)).isEmpty();
        assertThat(Compression.negotiate(server, CLIENT_PROTOCOL_41, 3)).isEqualTo(Optional.empty());
        assertThat(Compression.negotiate(server, Zstd.CLIENT_ZSTD_COMPRESSION_ALGORITHM, 0))
                .as("no level sent: zstd's default").contains(new Zstd());
        assertThatThrownBy(() -> Compression.negotiate(server, Zstd.CLIENT_ZSTD_COMPRESSION_ALGORITHM, 23))
                .hasMessage("level: 23 (expected: 1..22)");
    }

    @Test
    void levels() {
        assertThat(new Zstd().level()).isEqualTo(3);
        assertThat(new Zlib().level()).isEqualTo(6);
        assertThatThrownBy(() -> new Zstd(23)).hasMessage("level: 23 (expected: 1..22)");
        assertThatThrownBy(() -> new Zlib(0)).hasMessage("level: 0 (expected: 1..9)");
        assertThat(new Zstd(22).capabilityFlag()).isEqualTo(1L << 26);
        assertThat(new Zlib().capabilityFlag()).isEqualTo(0x20);
    }
}
