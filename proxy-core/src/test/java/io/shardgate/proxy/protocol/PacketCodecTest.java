package io.shardgate.proxy.protocol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.shardgate.proxy.protocol.PacketDecoder.PacketTooLargeException;
import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@link PacketDecoder} and {@link PacketEncoder} on an {@link EmbeddedChannel}: framing, bytes
 * arriving in fragments, 16 MiB continuation packets, the size limit, and reference counts.
 */
class PacketCodecTest {
    private static final int MAX = PacketDecoder.MAX_WIRE_PAYLOAD;

    /** A decoded packet, copied out so that the buffer can be released and checked. */
    private record Decoded(int sequenceId, byte[] payload) {
    }

    private static byte[] wire(int sequenceId, byte[] payload) {
        byte[] out = new byte[4 + payload.length];
        out[0] = (byte) payload.length;
        out[1] = (byte) (payload.length >>> 8);
        out[2] = (byte) (payload.length >>> 16);
        out[3] = (byte) sequenceId;
        System.arraycopy(payload, 0, out, 4, payload.length);
        return out;
    }

    private static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] part : parts) {
            out.writeBytes(part);
        }
        return out.toByteArray();
    }

    private static byte[] bytes(int length, long seed) {
        byte[] bytes = new byte[length];
        new Random(seed).nextBytes(bytes);
        return bytes;
    }

    /** Buffers fed to a decoder, each with one extra reference held by the test. */
    private final List<ByteBuf> fed = new ArrayList<>();

    /**
     * Writes {@code buf} to the channel, keeping a reference of our own: decoded payloads are
     * slices of what was fed, so once every packet is released and the channel closed, our
     * reference must be the only one left ({@link #assertFedBuffersReleased()}).
     */
    private void feed(EmbeddedChannel channel, ByteBuf buf) {
        fed.add(buf.retain());
        channel.writeInbound(buf);
    }

    private void assertFedBuffersReleased() {
        for (ByteBuf buf : fed) {
            assertThat(buf.refCnt()).as("references left on a fed buffer besides the test's").isEqualTo(1);
            buf.release();
        }
        fed.clear();
    }

    /** Reads every decoded packet, copies it out and releases it. */
    private static List<Decoded> drain(EmbeddedChannel channel) {
        List<Decoded> packets = new ArrayList<>();
        MySqlPacket packet;
        while ((packet = channel.readInbound()) != null) {
            packets.add(new Decoded(packet.sequenceId(), ByteBufUtil.getBytes(packet.payload())));
            packet.release();
        }
        return packets;
    }

    private static EmbeddedChannel decoder() {
        return new EmbeddedChannel(new PacketDecoder(64L << 20));
    }

    @Test
    void decodesOnePacket() {
        EmbeddedChannel channel = decoder();
        feed(channel, Unpooled.wrappedBuffer(wire(3, new byte[] {0x03, 'S', 'E', 'L'})));

        List<Decoded> packets = drain(channel);
        assertThat(packets).hasSize(1);
        assertThat(packets.get(0).sequenceId()).isEqualTo(3);
        assertThat(packets.get(0).payload()).containsExactly(0x03, 'S', 'E', 'L');
        assertFalse(channel.finish());
        assertFedBuffersReleased();
    }

    @Test
    void decodesAnEmptyPayload() {
        EmbeddedChannel channel = decoder();
        channel.writeInbound(Unpooled.wrappedBuffer(new byte[] {0, 0, 0, 7}));

        List<Decoded> packets = drain(channel);
        assertThat(packets).hasSize(1);
        assertThat(packets.get(0).sequenceId()).isEqualTo(7);
        assertThat(packets.get(0).payload()).isEmpty();
        assertFalse(channel.finish());
    }

    @Test
    void decodesSeveralPacketsFromOneBuffer() {
        EmbeddedChannel channel = decoder();
        byte[] stream = concat(wire(1, bytes(10, 1)), wire(2, new byte[0]), wire(3, bytes(300, 3)), wire(4, bytes(1, 4)));
        feed(channel, Unpooled.wrappedBuffer(stream));

        List<Decoded> packets = drain(channel);
        assertThat(packets).extracting(Decoded::sequenceId).containsExactly(1, 2, 3, 4);
        assertThat(packets.get(0).payload()).isEqualTo(bytes(10, 1));
        assertThat(packets.get(1).payload()).isEmpty();
        assertThat(packets.get(2).payload()).isEqualTo(bytes(300, 3));
        assertThat(packets.get(3).payload()).isEqualTo(bytes(1, 4));
        assertFalse(channel.finish());
        assertFedBuffersReleased();
    }

    @Test
    void waitsForEveryByteWhenFedOneAtATime() {
        EmbeddedChannel channel = decoder();
        byte[] first = wire(0, bytes(20, 5));
        byte[] stream = concat(first, wire(1, bytes(3, 6)));

        List<Decoded> packets = new ArrayList<>();
        for (int i = 0; i < stream.length; i++) {
            feed(channel, Unpooled.wrappedBuffer(new byte[] {stream[i]}));
            List<Decoded> now = drain(channel);
            if (i == first.length - 1 || i == stream.length - 1) {
                assertThat(now).as("packet complete at byte %d", i).hasSize(1);
            } else {
                assertThat(now).as("nothing before the last byte of a packet (byte %d)", i).isEmpty();
            }
            packets.addAll(now);
        }
        assertThat(packets).extracting(Decoded::sequenceId).containsExactly(0, 1);
        assertThat(packets.get(0).payload()).isEqualTo(bytes(20, 5));
        assertThat(packets.get(1).payload()).isEqualTo(bytes(3, 6));
        assertFalse(channel.finish());
        assertFedBuffersReleased();
    }

    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3, 42, 1234})
    void decodesTheSameWhateverTheFragments(long seed) {
        Random random = new Random(seed);
        List<byte[]> payloads = new ArrayList<>();
        ByteArrayOutputStream stream = new ByteArrayOutputStream();
        for (int i = 0; i < 40; i++) {
            byte[] payload = bytes(random.nextInt(600), seed * 100 + i);
            payloads.add(payload);
            stream.writeBytes(wire(i, payload));
        }
        byte[] all = stream.toByteArray();

        EmbeddedChannel channel = decoder();
        List<Decoded> packets = new ArrayList<>();
        for (int offset = 0; offset < all.length; ) {
            int length = Math.min(all.length - offset, 1 + random.nextInt(97));
            feed(channel, Unpooled.wrappedBuffer(all, offset, length));
            offset += length;
            packets.addAll(drain(channel));
        }

        assertThat(packets).hasSize(payloads.size());
        for (int i = 0; i < payloads.size(); i++) {
            assertThat(packets.get(i).sequenceId()).isEqualTo(i);
            assertThat(packets.get(i).payload()).isEqualTo(payloads.get(i));
        }
        assertFalse(channel.finish());
        assertFedBuffersReleased();
    }

    @Test
    void encodesALargePayloadAfterItsHeaderWithoutCopying() {
        EmbeddedChannel channel = new EmbeddedChannel(new PacketEncoder());
        ByteBuf payload = Unpooled.wrappedBuffer(new byte[PacketEncoder.COPY_LIMIT]);
        payload.setByte(0, 0x0E);
        channel.writeOutbound(new MySqlPacket(0x2A, payload));

        ByteBuf header = channel.readOutbound();
        ByteBuf body = channel.readOutbound();
        assertThat(ByteBufUtil.getBytes(header)).containsExactly(0, 8, 0, 0x2A);
        assertThat(body.getByte(0)).isEqualTo((byte) 0x0E);
        assertThat(body.readableBytes()).isEqualTo(PacketEncoder.COPY_LIMIT);
        assertThat(body).as("the payload itself, not a copy").isSameAs(payload);
        header.release();
        body.release();
        assertThat(header.refCnt()).isZero();
        assertThat(payload.refCnt()).as("the encoder released the packet and its retained payload").isZero();
        assertFalse(channel.finish());
    }

    @Test
    void encodesASmallPayloadBehindItsHeaderInOneBuffer() {
        ByteBuf payload = Unpooled.wrappedBuffer(new byte[] {0x0E, 0x01});
        List<ByteBuf> wire = encode(0x2A, payload);
        assertThat(wire).hasSize(1);
        assertThat(ByteBufUtil.getBytes(wire.get(0))).containsExactly(2, 0, 0, 0x2A, 0x0E, 0x01);
        assertThat(payload.refCnt()).as("the encoder released the packet once it was copied").isZero();
        wire.forEach(ByteBuf::release);
    }

    @Test
    void encodesAnEmptyPayloadAsAHeaderAlone() {
        List<ByteBuf> wire = encode(3, Unpooled.buffer(0));
        assertThat(wire).hasSize(1);
        assertThat(ByteBufUtil.getBytes(wire.get(0))).containsExactly(0, 0, 0, 3);
        wire.forEach(ByteBuf::release);
        assertThat(wire).allSatisfy(buf -> assertThat(buf.refCnt()).isZero());
    }

    /** Encodes one packet and returns the wire buffers in order; the packet itself is consumed. */
    private static List<ByteBuf> encode(int sequenceId, ByteBuf payload) {
        EmbeddedChannel channel = new EmbeddedChannel(new PacketEncoder());
        channel.writeOutbound(new MySqlPacket(sequenceId, payload));
        List<ByteBuf> out = new ArrayList<>();
        ByteBuf buf;
        while ((buf = channel.readOutbound()) != null) {
            out.add(buf);
        }
        assertFalse(channel.finish());
        return out;
    }

    /**
     * Splitting and joining at the 16 MiB boundary: {@code length} bytes leave the encoder as
     * {@code expectedWireLengths} wire packets with consecutive sequence ids (wrapping after 255)
     * and come out of the decoder as one packet with the first sequence id.
     */
    @ParameterizedTest
    @ValueSource(ints = {MAX - 1, MAX, MAX + 1, MAX + 1000, 2 * MAX, 2 * MAX + 3})
    void roundTripsAcrossTheSixteenMegabyteBoundary(int length) {
        byte[] data = bytes(length, length);
        ByteBuf payload = Unpooled.wrappedBuffer(data);
        int firstSequence = 254;

        List<ByteBuf> wire = encode(firstSequence, payload);

        List<Integer> expectedLengths = new ArrayList<>();
        for (int left = length; ; left -= MAX) {
            expectedLengths.add(Math.min(left, MAX));
            if (left < MAX) {
                break;
            }
        }
        if (length == MAX) {
            assertThat(expectedLengths).containsExactly(MAX, 0);
        }
        if (length == 2 * MAX) {
            assertThat(expectedLengths).as("an exact multiple ends with an empty packet").containsExactly(MAX, MAX, 0);
        }
        assertThat(wire).hasSize(2 * expectedLengths.size());
        for (int i = 0; i < expectedLengths.size(); i++) {
            ByteBuf header = wire.get(2 * i);
            assertThat(header.readableBytes()).isEqualTo(4);
            assertThat(header.getUnsignedMediumLE(header.readerIndex())).as("length of wire packet %d", i)
                    .isEqualTo(expectedLengths.get(i));
            assertThat(header.getUnsignedByte(header.readerIndex() + 3)).as("sequence id of wire packet %d", i)
                    .isEqualTo((short) ((firstSequence + i) & 0xFF));
            assertThat(wire.get(2 * i + 1).readableBytes()).isEqualTo(expectedLengths.get(i));
        }

        EmbeddedChannel channel = decoder();
        for (ByteBuf buf : wire) {
            channel.writeInbound(buf);
        }
        List<Decoded> packets = drain(channel);
        assertThat(packets).hasSize(1);
        assertThat(packets.get(0).sequenceId()).isEqualTo(firstSequence);
        assertThat(packets.get(0).payload().length).isEqualTo(length);
        assertThat(packets.get(0).payload()).isEqualTo(data);
        assertFalse(channel.finish());
        // The wire buffers are slices of the payload sharing its count: all of them were released.
        assertThat(payload.refCnt()).as("every slice of the payload was released").isZero();
    }

    @Test
    void joinsContinuationPacketsArrivingInFragments() {
        byte[] data = bytes(MAX + 5, 77);
        byte[] stream = concat(wire(9, java.util.Arrays.copyOfRange(data, 0, MAX)),
                wire(10, java.util.Arrays.copyOfRange(data, MAX, MAX + 5)), wire(11, new byte[] {1}));
        EmbeddedChannel channel = decoder();
        Random random = new Random(7);
        List<Decoded> packets = new ArrayList<>();
        for (int offset = 0; offset < stream.length; ) {
            int length = Math.min(stream.length - offset, 1 + random.nextInt(3 << 20));
            feed(channel, Unpooled.wrappedBuffer(stream, offset, length));
            offset += length;
            packets.addAll(drain(channel));
        }
        assertThat(packets).extracting(Decoded::sequenceId).containsExactly(9, 11);
        assertThat(packets.get(0).payload()).isEqualTo(data);
        assertThat(packets.get(1).payload()).containsExactly(1);
        assertFalse(channel.finish());
        assertFedBuffersReleased();
    }

    @Test
    void acceptsAPacketOfExactlyTheLimit() {
        EmbeddedChannel channel = new EmbeddedChannel(new PacketDecoder(100));
        channel.writeInbound(Unpooled.wrappedBuffer(wire(0, bytes(100, 1))));
        assertThat(drain(channel)).hasSize(1);
        assertFalse(channel.finish());
    }

    @Test
    void rejectsAnOversizedPacketFromItsHeaderAlone() {
        EmbeddedChannel channel = new EmbeddedChannel(new PacketDecoder(100));
        // Only the header of a 101-byte packet: the decoder must fail now, not wait for the payload.
        ByteBuf header = Unpooled.wrappedBuffer(new byte[] {101, 0, 0, 0});

        assertThatThrownBy(() -> channel.writeInbound(header))
                .isInstanceOfSatisfying(PacketTooLargeException.class, e -> {
                    assertThat(e.length()).isEqualTo(101);
                    assertThat(e.max()).isEqualTo(100);
                })
                .hasMessage("packet length: 101 (expected: <= 100)");
        assertThat((Object) channel.readInbound()).isNull();

        // The stream cannot be re-framed after this: later bytes are dropped, not read as a new packet.
        assertThat(channel.writeInbound(Unpooled.wrappedBuffer(new byte[] {1, 0, 0, 0, 0x0E}))).isFalse();
        assertThat(header.refCnt()).isZero();
        assertFalse(channel.finish());
    }

    @Test
    void rejectsAHugeDeclaredLengthWithoutBufferingIt() {
        EmbeddedChannel channel = new EmbeddedChannel(new PacketDecoder(1024));
        ByteBuf header = Unpooled.wrappedBuffer(new byte[] {(byte) 0xFE, (byte) 0xFF, (byte) 0xFF, 0, 'x'});

        assertThatThrownBy(() -> channel.writeInbound(header))
                .isInstanceOf(PacketTooLargeException.class)
                .hasMessage("packet length: 16777214 (expected: <= 1024)");
        assertThat(header.refCnt()).isZero();
        assertFalse(channel.finish());
    }

    @Test
    void countsJoinedPartsAgainstTheLimitAndReleasesThem() {
        long max = MAX + 5L;
        EmbeddedChannel channel = new EmbeddedChannel(new PacketDecoder(max));
        // The first 0xFFFFFF part fits; the second part's header brings the total to max + 1.
        ByteBuf stream = Unpooled.wrappedBuffer(concat(wire(0, bytes(MAX, 1)), new byte[] {6, 0, 0, 1}));
        stream.retain(); // our own reference, to see what the decoder keeps

        assertThatThrownBy(() -> channel.writeInbound(stream))
                .isInstanceOfSatisfying(PacketTooLargeException.class, e -> assertThat(e.sequenceId())
                        .as("the id of the piece over the limit: the ERR answering it takes the next").isEqualTo(1))
                .hasMessage("packet length: " + (max + 1) + " (expected: <= " + max + ")");
        assertThat((Object) channel.readInbound()).isNull();
        assertFalse(channel.finish());
        assertThat(stream.refCnt()).as("the partly joined packet and the cumulation were released").isEqualTo(1);
        stream.release();
    }

    @Test
    void releasesAPartlyJoinedPacketWhenTheChannelCloses() {
        EmbeddedChannel channel = decoder();
        ByteBuf stream = Unpooled.wrappedBuffer(wire(0, bytes(MAX, 2)));
        stream.retain();
        channel.writeInbound(stream);
        assertThat((Object) channel.readInbound()).isNull();

        assertFalse(channel.finish());
        assertThat(stream.refCnt()).isEqualTo(1);
        stream.release();
    }
}
