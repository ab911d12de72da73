package io.shardgate.proxy.protocol.compress;

import static io.shardgate.proxy.protocol.compress.FrameTestSupport.compressible;
import static io.shardgate.proxy.protocol.compress.FrameTestSupport.concat;
import static io.shardgate.proxy.protocol.compress.FrameTestSupport.drainInbound;
import static io.shardgate.proxy.protocol.compress.FrameTestSupport.drainOutbound;
import static io.shardgate.proxy.protocol.compress.FrameTestSupport.frame;
import static io.shardgate.proxy.protocol.compress.FrameTestSupport.packet;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.shardgate.proxy.protocol.compress.FrameTestSupport.Header;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** The compressed sequence id shared by a channel's decoder and encoder. */
class CompressionSequenceTest {

    private static final byte[] PING = packet(0, new byte[] {0x0E});
    private static final byte[] OK = packet(1, new byte[] {0, 0, 0, 2, 0, 0, 0});

    private static EmbeddedChannel channel(CompressionSequence sequence) {
        CompressionAlgorithm algorithm = new Zlib();
        return new EmbeddedChannel(new CompressedFrameDecoder(algorithm, sequence), new CompressedFrameEncoder(algorithm, sequence));
    }

    private static List<Integer> sentIds(EmbeddedChannel channel) {
        return drainOutbound(channel).stream().map(frame -> Header.of(frame).sequenceId()).collect(Collectors.toList());
    }

    @Test
    void serverRepliesContinueFromTheLastFrameReceived() {
        CompressionSequence sequence = new CompressionSequence(CompressionSequence.Side.SERVER);
        EmbeddedChannel channel = channel(sequence);

        // A command in two frames (0, 1): the reply continues at 2.
        channel.writeInbound(Unpooled.wrappedBuffer(concat(frame(0, 0, new byte[] {5, 0, 0, 0, 3}),
                frame(1, 0, new byte[] {'s', 'e', 'l', 'e'}))));
        assertThat(drainInbound(channel)).hasSize(9);
        channel.writeOutbound(Unpooled.wrappedBuffer(packet(1, compressible(100))));
        channel.writeOutbound(Unpooled.wrappedBuffer(OK));
        assertThat(sentIds(channel)).containsExactly(2, 3);

        // The next command restarts at 0, its reply at 1.
        channel.writeInbound(Unpooled.wrappedBuffer(frame(0, 0, PING)));
        assertThat(drainInbound(channel)).isEqualTo(PING);
        channel.writeOutbound(Unpooled.wrappedBuffer(OK));
        assertThat(sentIds(channel)).containsExactly(1);
        assertFalse(channel.finish());
    }

    @Test
    void serverDoesNotRestartOnAWrappedPacketId() {
        CompressionSequence sequence = new CompressionSequence(CompressionSequence.Side.SERVER);
        EmbeddedChannel channel = channel(sequence);
        channel.writeInbound(Unpooled.wrappedBuffer(frame(0, 0, PING)));
        drainInbound(channel);

        channel.writeOutbound(Unpooled.wrappedBuffer(packet(255, new byte[] {1})));
        channel.writeOutbound(Unpooled.wrappedBuffer(packet(0, new byte[] {2})));

        assertThat(sentIds(channel)).containsExactly(1, 2);
        assertFalse(channel.finish());
    }

    @Test
    void idsWrapAt256() {
        CompressionSequence sequence = new CompressionSequence(CompressionSequence.Side.SERVER);
        EmbeddedChannel channel = channel(sequence);
        channel.writeInbound(Unpooled.wrappedBuffer(frame(0, 0, PING)));
        drainInbound(channel);
        for (int i = 0; i < 300; i++) {
            channel.writeOutbound(Unpooled.wrappedBuffer(packet((i + 1) & 0xFF, new byte[] {1})));
        }
        List<Integer> ids = sentIds(channel);
        assertThat(ids.subList(253, 257)).containsExactly(254, 255, 0, 1);

        // Received ids wrap the same way: 255 then 0 then 1 (a LOAD DATA upload of many frames).
        channel.writeInbound(Unpooled.wrappedBuffer(concat(frame(45, 0, new byte[] {1}), frame(46, 0, new byte[] {2}))));
        assertThat(drainInbound(channel)).hasSize(2);
        assertFalse(channel.finish());
    }

    @Test
    void clientRestartsAtZeroWithEachCommand() {
        CompressionSequence sequence = new CompressionSequence(CompressionSequence.Side.CLIENT);
        EmbeddedChannel channel = channel(sequence);

        channel.writeOutbound(Unpooled.wrappedBuffer(packet(0, compressible(200))));
        assertThat(sentIds(channel)).containsExactly(0);
        channel.writeInbound(Unpooled.wrappedBuffer(concat(frame(1, 0, OK), frame(2, 0, packet(2, new byte[] {1})))));
        drainInbound(channel);
        assertThat(sequence.next()).isEqualTo(3);

        channel.writeOutbound(Unpooled.wrappedBuffer(PING));
        assertThat(sentIds(channel)).containsExactly(0);
        channel.writeInbound(Unpooled.wrappedBuffer(frame(1, 0, OK)));
        assertThat(drainInbound(channel)).isEqualTo(OK);
        assertFalse(channel.finish());
    }

    @Test
    void clientContinuesLoadDataUploadAcrossAWrappedPacketId() {
        CompressionSequence sequence = new CompressionSequence(CompressionSequence.Side.CLIENT);
        EmbeddedChannel channel = channel(sequence);
        channel.writeOutbound(Unpooled.wrappedBuffer(packet(0, "\3LOAD DATA LOCAL INFILE 'x' INTO TABLE t".getBytes())));
        channel.writeInbound(Unpooled.wrappedBuffer(frame(1, 0, packet(1, new byte[] {(byte) 0xFB, 'x'}))));
        drainInbound(channel);

        channel.writeOutbound(Unpooled.wrappedBuffer(concat(packet(254, new byte[] {1}), packet(255, new byte[] {2}))));
        channel.writeOutbound(Unpooled.wrappedBuffer(packet(0, new byte[] {3})));
        channel.writeOutbound(Unpooled.wrappedBuffer(packet(1, new byte[0])));

        assertThat(sentIds(channel)).containsExactly(0, 2, 3, 4);
        assertFalse(channel.finish());
    }

    @Test
    void resetStartsANewCommand() {
        CompressionSequence sequence = new CompressionSequence(CompressionSequence.Side.SERVER);
        sequence.received(0);
        sequence.received(1);
        assertThat(sequence.nextForSend()).isEqualTo(2);
        sequence.reset();
        assertThat(sequence.next()).isZero();
        assertThat(sequence.nextForSend()).isZero();
    }

    @Test
    void rejectsOutOfOrderIds() {
        CompressionSequence sequence = new CompressionSequence(CompressionSequence.Side.CLIENT);
        assertThat(sequence.nextForSend()).isZero();
        assertThatThrownBy(() -> sequence.received(2))
                .isInstanceOf(CompressedFrameException.class)
                .hasMessage("compressed sequence id: 2 (expected: 1 or 0 for a new command)");
        assertThatThrownBy(() -> sequence.received(256)).hasMessage("sequenceId: 256 (expected: 0..255)");
        assertThatThrownBy(() -> new CompressionSequence(null)).hasMessage("side is null");
    }
}
