package io.shardgate.proxy.protocol.compress;

import static io.shardgate.proxy.protocol.compress.FrameTestSupport.compressible;
import static io.shardgate.proxy.protocol.compress.FrameTestSupport.concat;
import static io.shardgate.proxy.protocol.compress.FrameTestSupport.drainInbound;
import static io.shardgate.proxy.protocol.compress.FrameTestSupport.drainOutbound;
import static io.shardgate.proxy.protocol.compress.FrameTestSupport.packet;
import static io.shardgate.proxy.protocol.compress.FrameTestSupport.random;
import static io.shardgate.proxy.protocol.compress.FrameTestSupport.splitPacket;
import static io.shardgate.proxy.protocol.compress.FrameTestSupport.writeInFragments;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.shardgate.proxy.protocol.compress.FrameTestSupport.Header;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Encoder to decoder round trips, for both algorithms. */
class CompressedFrameCodecTest {

    static Stream<CompressionAlgorithm> algorithms() {
        return Stream.of(new Zlib(), new Zstd(), new Zstd(1), new Zstd(19));
    }

    static Stream<Arguments> algorithmsAndBuffers() {
        return algorithms().flatMap(a -> Stream.of(Arguments.of(a, true), Arguments.of(a, false)));
    }

    /** Encodes each message on a server-side channel and returns the frames. */
    private static List<byte[]> encode(CompressionAlgorithm algorithm, byte[]... messages) {
        EmbeddedChannel encoder = new EmbeddedChannel(new CompressedFrameEncoder(algorithm,
                new CompressionSequence(CompressionSequence.Side.SERVER)));
        for (byte[] message : messages) {
            encoder.writeOutbound(Unpooled.wrappedBuffer(message));
        }
        List<byte[]> frames = drainOutbound(encoder);
        assertFalse(encoder.finish());
        return frames;
    }

    private static EmbeddedChannel decoder(CompressionAlgorithm algorithm) {
        return new EmbeddedChannel(new CompressedFrameDecoder(algorithm, new CompressionSequence(CompressionSequence.Side.CLIENT)));
    }

    private static byte[] decodeAll(CompressionAlgorithm algorithm, byte[] frames) {
        EmbeddedChannel decoder = decoder(algorithm);
        decoder.writeInbound(Unpooled.wrappedBuffer(frames));
        byte[] decoded = drainInbound(decoder);
        assertFalse(decoder.finish());
        return decoded;
    }

    @ParameterizedTest
    @MethodSource("algorithmsAndBuffers")
    void roundTrip(CompressionAlgorithm algorithm, boolean direct) {
        byte[] packet = packet(1, compressible(5000));
        EmbeddedChannel encoder = new EmbeddedChannel(new CompressedFrameEncoder(algorithm,
                new CompressionSequence(CompressionSequence.Side.SERVER)));
        ByteBuf message = direct ? Unpooled.directBuffer(packet.length) : Unpooled.buffer(packet.length);
        encoder.writeOutbound(message.writeBytes(packet));
        List<byte[]> frames = drainOutbound(encoder);
        assertFalse(encoder.finish());

        assertThat(frames).hasSize(1);
        Header header = Header.of(frames.get(0));
        assertThat(header.uncompressedLength()).isEqualTo(packet.length);
        assertThat(header.payloadLength()).isLessThan(packet.length / 10).isEqualTo(frames.get(0).length - 7);
        assertThat(header.sequenceId()).isZero();

        EmbeddedChannel decoder = decoder(algorithm);
        ByteBuf in = direct ? Unpooled.directBuffer() : Unpooled.buffer();
        decoder.writeInbound(in.writeBytes(frames.get(0)));
        assertThat(drainInbound(decoder)).isEqualTo(packet);
        assertFalse(decoder.finish());
    }

    @ParameterizedTest
    @MethodSource("algorithms")
    void severalPacketsInOneFrame(CompressionAlgorithm algorithm) {
        byte[] rows = concat(packet(1, compressible(300)), packet(2, compressible(20)), packet(3, new byte[] {(byte) 0xFE, 0, 0, 2, 0}));

        List<byte[]> frames = encode(algorithm, rows);

        assertThat(frames).hasSize(1);
        assertThat(Header.of(frames.get(0)).uncompressedLength()).isEqualTo(rows.length);
        assertThat(decodeAll(algorithm, frames.get(0))).isEqualTo(rows);
    }

    @ParameterizedTest
    @MethodSource("algorithms")
    void packetOf20MiBSpansFrames(CompressionAlgorithm algorithm) {
        byte[] packets = splitPacket(0, compressible(20 << 20));
        assertThat(packets.length).isEqualTo((20 << 20) + 8);

        List<byte[]> frames = encode(algorithm, packets);

        assertThat(frames).hasSize(2);
        assertThat(Header.of(frames.get(0))).extracting(Header::sequenceId, Header::uncompressedLength)
                .containsExactly(0, 0xFF_FFFF);
        assertThat(Header.of(frames.get(1))).extracting(Header::sequenceId, Header::uncompressedLength)
                .containsExactly(1, packets.length - 0xFF_FFFF);
        EmbeddedChannel decoder = decoder(algorithm);
        writeInFragments(decoder, concat(frames.get(0), frames.get(1)), new Random(7), 64 << 10);
        assertThat(drainInbound(decoder)).isEqualTo(packets);
        assertFalse(decoder.finish());
    }

    @ParameterizedTest
    @MethodSource("algorithms")
    void incompressiblePacketOf20MiBGoesUncompressedInFrames(CompressionAlgorithm algorithm) {
        byte[] packets = splitPacket(0, random(new Random(1), 20 << 20));

        List<byte[]> frames = encode(algorithm, packets);

        assertThat(frames).hasSize(2);
        assertThat(Header.of(frames.get(0))).isEqualTo(new Header(0xFF_FFFF, 0, 0));
        assertThat(Header.of(frames.get(1))).isEqualTo(new Header(packets.length - 0xFF_FFFF, 1, 0));
        assertThat(decodeAll(algorithm, concat(frames.get(0), frames.get(1)))).isEqualTo(packets);
    }

    @ParameterizedTest
    @MethodSource("algorithms")
    void shortPayloadsGoUncompressed(CompressionAlgorithm algorithm) {
        byte[] ok = packet(1, new byte[] {0, 0, 0, 2, 0, 0, 0});
        byte[] justBelow = packet(1, new byte[Compression.MIN_COMPRESS_LENGTH - 5]);
        byte[] atThreshold = packet(1, new byte[Compression.MIN_COMPRESS_LENGTH - 4]);

        List<byte[]> frames = encode(algorithm, ok, justBelow, atThreshold);

        assertThat(frames.get(0)).isEqualTo(concat(new byte[] {11, 0, 0, 0, 0, 0, 0}, ok));
        assertThat(Header.of(frames.get(1))).isEqualTo(new Header(49, 1, 0));
        assertThat(Header.of(frames.get(2)).uncompressedLength()).isEqualTo(50);
        assertThat(Header.of(frames.get(2)).payloadLength()).isLessThan(50);
    }

    @ParameterizedTest
    @MethodSource("algorithms")
    void incompressiblePayloadGoesUncompressed(CompressionAlgorithm algorithm) {
        byte[] packet = packet(1, random(new Random(2), 1000));

        List<byte[]> frames = encode(algorithm, packet);

        assertThat(frames).containsExactly(FrameTestSupport.frame(0, 0, packet));
    }

    @ParameterizedTest
    @MethodSource("algorithms")
    void messagesAreNeverCoalesced(CompressionAlgorithm algorithm) {
        byte[] first = packet(0, compressible(100));
        byte[] second = packet(0, compressible(100));

        List<byte[]> frames = encode(algorithm, first, second);

        assertThat(frames).hasSize(2);
    }

    @ParameterizedTest
    @MethodSource("algorithms")
    void bytesFedOneAtATime(CompressionAlgorithm algorithm) {
        byte[] stream = concat(packet(1, compressible(400)), packet(2, new byte[] {1, 2, 3}), packet(3, compressible(2000)));
        byte[] frames = concat(encode(algorithm, packet(1, compressible(400)), packet(2, new byte[] {1, 2, 3}),
                packet(3, compressible(2000))).toArray(new byte[0][]));
        EmbeddedChannel decoder = decoder(algorithm);

        for (int i = 0; i < frames.length; i++) {
            decoder.writeInbound(Unpooled.wrappedBuffer(frames, i, 1));
            if (i < 6) {
                assertThat(decoder.<Object>readInbound()).isNull();
            }
        }

        assertThat(drainInbound(decoder)).isEqualTo(stream);
        assertFalse(decoder.finish());
    }

    @ParameterizedTest
    @MethodSource("algorithms")
    void bytesFedInRandomFragments(CompressionAlgorithm algorithm) {
        long seed = System.nanoTime();
        Random random = new Random(seed);
        byte[][] messages = new byte[40][];
        for (int i = 0; i < messages.length; i++) {
            int length = random.nextInt(3000);
            messages[i] = packet(i + 1, random.nextBoolean() ? compressible(length) : random(random, length));
        }
        byte[] frames = concat(encode(algorithm, messages).toArray(new byte[0][]));
        EmbeddedChannel decoder = decoder(algorithm);

        writeInFragments(decoder, frames, random, 100);

        assertThat(drainInbound(decoder)).as("seed %d", seed).isEqualTo(concat(messages));
        assertFalse(decoder.finish());
    }

    @ParameterizedTest
    @MethodSource("algorithms")
    void emptyMessageProducesNoFrame(CompressionAlgorithm algorithm) {
        EmbeddedChannel encoder = new EmbeddedChannel(new CompressedFrameEncoder(algorithm,
                new CompressionSequence(CompressionSequence.Side.SERVER)));
        encoder.writeOutbound(Unpooled.EMPTY_BUFFER);
        assertThat(drainOutbound(encoder)).allSatisfy(bytes -> assertThat(bytes).isEmpty());
        encoder.writeOutbound(Unpooled.wrappedBuffer(packet(1, new byte[0])));
        assertThat(Header.of(drainOutbound(encoder).get(0)).sequenceId()).as("no id was used up").isZero();
        assertFalse(encoder.finish());
    }
}
