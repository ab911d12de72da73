package io.shardgate.proxy.protocol.compress;

import static io.shardgate.proxy.protocol.compress.FrameTestSupport.concat;
import static io.shardgate.proxy.protocol.compress.FrameTestSupport.frame;
import static io.shardgate.proxy.protocol.compress.FrameTestSupport.splitPacket;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.embedded.EmbeddedChannel;
import io.shardgate.proxy.protocol.MySqlPacket;
import io.shardgate.proxy.protocol.PacketDecoder;
import io.shardgate.proxy.protocol.PacketEncoder;
import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The front end's whole compressed pipeline, as {@link Compression#install} builds it in front of
 * the packet framer, with packets around the 16 MiB boundary: a payload of 0xFFFFFF bytes needs an
 * empty packet after it, a packet spans compressed frames and a frame ends inside a packet
 * header. Client bytes arrive in random fragments; the server's answer must decode, as a client
 * decodes it, to the same payload with consecutive sequence ids in both layers.
 */
class CompressedLargePacketPipelineTest {
    private static final int MAX = PacketDecoder.MAX_WIRE_PAYLOAD;

    static Stream<Arguments> cases() {
        List<Arguments> cases = new ArrayList<>();
        for (CompressionAlgorithm algorithm : List.of(new Zlib(), new Zstd())) {
            for (int length : new int[] {MAX - 1, MAX, MAX + 1, 2 * MAX}) {
                // Frames as a client cuts them: whole 16 MiB frames, or smaller ones that end
                // anywhere, including inside a packet header.
                for (int frameSize : new int[] {MAX, 1_000_003}) {
                    cases.add(Arguments.of(algorithm, length, frameSize));
                }
            }
        }
        return cases.stream();
    }

    @ParameterizedTest(name = "{0}, payload {1}, frames of {2}")
    @MethodSource("cases")
    void aLargeCommandArrivesWholeAndALargeAnswerLeavesWhole(CompressionAlgorithm algorithm, int length, int frameSize) {
        Collector collector = new Collector();
        EmbeddedChannel channel = new EmbeddedChannel();
        channel.pipeline().addLast("decoder", new PacketDecoder(1L << 30));
        channel.pipeline().addLast("encoder", new PacketEncoder());
        channel.pipeline().addLast("collector", collector);
        CompressionSequence sequence = Compression.install(channel.pipeline(), "decoder", algorithm);
        Random random = new Random(length * 31L + frameSize);

        byte[] payload = payload(length, random);
        byte[] command = concat(new byte[] {0x03}, payload); // COM_QUERY
        byte[] frames = frames(algorithm, splitPacket(0, command), frameSize, 0);
        feedInFragments(channel, frames, random);

        assertThat(collector.packets).hasSize(1);
        MySqlPacket received = collector.packets.remove(0);
        assertThat(received.sequenceId()).isZero();
        assertThat(bytesOf(received)).isEqualTo(command);

        // The answer: a packet of the same size, then the OK, each flush as a client will read it.
        int framesSent = (command.length + 4 * (command.length / MAX + 1) + frameSize - 1) / frameSize;
        assertThat(sequence.next()).isEqualTo(framesSent & 0xFF);
        channel.write(new MySqlPacket(1, Unpooled.wrappedBuffer(payload)));
        channel.writeAndFlush(new MySqlPacket(1 + length / MAX + 1, Unpooled.wrappedBuffer(new byte[] {0, 0, 0, 2, 0, 0, 0})));
        ClientView answer = ClientView.read(algorithm, channel, framesSent);
        assertThat(answer.packets).hasSize(2);
        assertThat(answer.packets.get(0)).isEqualTo(payload);
        assertThat(answer.firstSequenceIds).containsExactly(1, 1 + length / MAX + 1);

        // The next command starts at compressed sequence 0 again, in one small frame.
        channel.writeInbound(Unpooled.wrappedBuffer(frame(0, 0, FrameTestSupport.packet(0, new byte[] {0x0E}))));
        assertThat(collector.packets).hasSize(1);
        assertThat(bytesOf(collector.packets.remove(0))).containsExactly(0x0E);
        assertFalse(channel.finish());
    }

    /** A payload that compresses somewhat, with pieces of randomness, so frames both shrink and vary. */
    private static byte[] payload(int length, Random random) {
        byte[] bytes = new byte[length];
        byte[] block = new byte[4096];
        random.nextBytes(block);
        for (int i = 0; i < length; i++) {
            bytes[i] = (byte) (i % 4096 < 64 ? block[i % 4096] ^ (i >>> 12) : 'a' + i % 23);
        }
        return bytes;
    }

    /** The packet stream cut into compressed frames of {@code frameSize} bytes, sequence ids from {@code firstId}. */
    private static byte[] frames(CompressionAlgorithm algorithm, byte[] stream, int frameSize, int firstId) {
        Compressor compressor = algorithm.newCompressor();
        try {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            int id = firstId;
            for (int offset = 0; offset < stream.length; offset += frameSize) {
                byte[] chunk = Arrays.copyOfRange(stream, offset, Math.min(stream.length, offset + frameSize));
                ByteBuf compressed = Unpooled.buffer();
                byte[] frame = compressor.compress(Unpooled.wrappedBuffer(chunk), compressed)
                        ? frame(id, chunk.length, FrameTestSupport.bytes(compressed))
                        : frameReleasing(id, chunk, compressed);
                out.writeBytes(frame);
                id = (id + 1) & 0xFF;
            }
            return out.toByteArray();
        } finally {
            compressor.close();
        }
    }

    private static byte[] frameReleasing(int id, byte[] chunk, ByteBuf unused) {
        unused.release();
        return frame(id, 0, chunk);
    }

    /** Random fragments, and a single byte at every frame and packet boundary now and then. */
    private static void feedInFragments(EmbeddedChannel channel, byte[] bytes, Random random) {
        int offset = 0;
        while (offset < bytes.length) {
            int length = random.nextInt(4) == 0 ? 1 + random.nextInt(9) : 1 + random.nextInt(3_000_000);
            length = Math.min(length, bytes.length - offset);
            channel.writeInbound(Unpooled.wrappedBuffer(bytes, offset, length));
            offset += length;
        }
    }

    private static byte[] bytesOf(MySqlPacket packet) {
        try {
            ByteBuf payload = packet.payload();
            byte[] bytes = new byte[payload.readableBytes()];
            payload.getBytes(payload.readerIndex(), bytes);
            return bytes;
        } finally {
            packet.release();
        }
    }

    /** Keeps the packets the framer decodes. */
    private static final class Collector extends ChannelInboundHandlerAdapter {
        final List<MySqlPacket> packets = new ArrayList<>();

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            packets.add((MySqlPacket) msg);
        }
    }

    /** The server's frames read the way a client reads them: ids continue, packets rejoined. */
    private record ClientView(List<byte[]> packets, List<Integer> firstSequenceIds) {
        static ClientView read(CompressionAlgorithm algorithm, EmbeddedChannel channel, int nextFrameId) {
            ByteArrayOutputStream wire = new ByteArrayOutputStream();
            for (ByteBuf buf; (buf = channel.readOutbound()) != null; ) {
                wire.writeBytes(FrameTestSupport.bytes(buf));
            }
            byte[] bytes = wire.toByteArray();
            ByteArrayOutputStream stream = new ByteArrayOutputStream();
            Decompressor decompressor = algorithm.newDecompressor();
            try {
                int offset = 0;
                int expectedId = nextFrameId;
                while (offset < bytes.length) {
                    FrameTestSupport.Header header = FrameTestSupport.Header.of(Arrays.copyOfRange(bytes, offset, offset + 7));
                    assertThat(header.sequenceId()).as("compressed sequence id").isEqualTo(expectedId & 0xFF);
                    assertThat(header.payloadLength()).isLessThanOrEqualTo(Compression.MAX_FRAME_PAYLOAD);
                    byte[] body = Arrays.copyOfRange(bytes, offset + 7, offset + 7 + header.payloadLength());
                    if (header.uncompressedLength() == 0) {
                        stream.writeBytes(body);
                    } else {
                        ByteBuf out = Unpooled.buffer(header.uncompressedLength());
                        decompressor.decompress(Unpooled.wrappedBuffer(body), out, header.uncompressedLength());
                        stream.writeBytes(FrameTestSupport.bytes(out));
                    }
                    offset += 7 + header.payloadLength();
                    expectedId++;
                }
            } finally {
                decompressor.close();
            }
            byte[] packetStream = stream.toByteArray();
            List<byte[]> packets = new ArrayList<>();
            List<Integer> firstIds = new ArrayList<>();
            ByteArrayOutputStream joining = null;
            int offset = 0;
            int expectedSequence = -1;
            while (offset < packetStream.length) {
                int length = (packetStream[offset] & 0xFF) | (packetStream[offset + 1] & 0xFF) << 8
                        | (packetStream[offset + 2] & 0xFF) << 16;
                int sequenceId = packetStream[offset + 3] & 0xFF;
                if (joining == null) {
                    joining = new ByteArrayOutputStream();
                    firstIds.add(sequenceId);
                } else {
                    assertThat(sequenceId).as("continuation packet's sequence id").isEqualTo(expectedSequence);
                }
                expectedSequence = (sequenceId + 1) & 0xFF;
                joining.write(packetStream, offset + 4, length);
                offset += 4 + length;
                if (length < MAX) {
                    packets.add(joining.toByteArray());
                    joining = null;
                }
            }
            assertThat(joining).as("a packet left unfinished").isNull();
            return new ClientView(packets, firstIds);
        }
    }
}
