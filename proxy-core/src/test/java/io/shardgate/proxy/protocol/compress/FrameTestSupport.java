package io.shardgate.proxy.protocol.compress;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

/** Builders for packets and frames, and helpers to drain EmbeddedChannels. */
final class FrameTestSupport {

    private FrameTestSupport() {
    }

    /** An ordinary MySQL packet: 3-byte length, sequence id, payload. */
    static byte[] packet(int sequenceId, byte[] payload) {
        byte[] packet = new byte[4 + payload.length];
        packet[0] = (byte) payload.length;
        packet[1] = (byte) (payload.length >>> 8);
        packet[2] = (byte) (payload.length >>> 16);
        packet[3] = (byte) sequenceId;
        System.arraycopy(payload, 0, packet, 4, payload.length);
        return packet;
    }

    /** A payload split into packets of at most 0xFFFFFF bytes, as the packet framer sends it. */
    static byte[] splitPacket(int firstSequenceId, byte[] payload) {
        List<byte[]> packets = new ArrayList<>();
        int offset = 0;
        int sequenceId = firstSequenceId;
        while (true) {
            int length = Math.min(payload.length - offset, 0xFF_FFFF);
            packets.add(packet(sequenceId++ & 0xFF, Arrays.copyOfRange(payload, offset, offset + length)));
            offset += length;
            if (length < 0xFF_FFFF) {
                return concat(packets.toArray(new byte[0][]));
            }
        }
    }

    /** A compressed frame header and payload, as is. */
    static byte[] frame(int sequenceId, int uncompressedLength, byte[] payload) {
        byte[] frame = new byte[7 + payload.length];
        frame[0] = (byte) payload.length;
        frame[1] = (byte) (payload.length >>> 8);
        frame[2] = (byte) (payload.length >>> 16);
        frame[3] = (byte) sequenceId;
        frame[4] = (byte) uncompressedLength;
        frame[5] = (byte) (uncompressedLength >>> 8);
        frame[6] = (byte) (uncompressedLength >>> 16);
        System.arraycopy(payload, 0, frame, 7, payload.length);
        return frame;
    }

    static byte[] concat(byte[]... parts) {
        int length = 0;
        for (byte[] part : parts) {
            length += part.length;
        }
        byte[] all = new byte[length];
        int offset = 0;
        for (byte[] part : parts) {
            System.arraycopy(part, 0, all, offset, part.length);
            offset += part.length;
        }
        return all;
    }

    /** Text-like bytes that compress well. */
    static byte[] compressible(int length) {
        byte[] bytes = new byte[length];
        byte[] text = "SELECT id, name, created_at FROM orders WHERE customer_id = 42; ".getBytes();
        for (int i = 0; i < length; i++) {
            bytes[i] = text[i % text.length];
        }
        return bytes;
    }

    static byte[] random(Random random, int length) {
        byte[] bytes = new byte[length];
        random.nextBytes(bytes);
        return bytes;
    }

    /** Reads and releases every outbound message as one byte array per message. */
    static List<byte[]> drainOutbound(EmbeddedChannel channel) {
        List<byte[]> messages = new ArrayList<>();
        for (ByteBuf buf; (buf = channel.readOutbound()) != null; ) {
            messages.add(bytes(buf));
        }
        return messages;
    }

    /** Reads and releases every inbound message, concatenated. */
    static byte[] drainInbound(EmbeddedChannel channel) {
        List<byte[]> messages = new ArrayList<>();
        for (ByteBuf buf; (buf = channel.readInbound()) != null; ) {
            messages.add(bytes(buf));
        }
        return concat(messages.toArray(new byte[0][]));
    }

    /** Copies and releases. */
    static byte[] bytes(ByteBuf buf) {
        try {
            byte[] bytes = new byte[buf.readableBytes()];
            buf.readBytes(bytes);
            return bytes;
        } finally {
            buf.release();
        }
    }

    /** Writes {@code bytes} inbound in random fragments of 1..maxFragment bytes. */
    static void writeInFragments(EmbeddedChannel channel, byte[] bytes, Random random, int maxFragment) {
        int offset = 0;
        while (offset < bytes.length) {
            int length = Math.min(bytes.length - offset, 1 + random.nextInt(maxFragment));
            channel.writeInbound(Unpooled.wrappedBuffer(bytes, offset, length));
            offset += length;
        }
    }

    /** Header fields of a frame at the start of {@code frame}. */
    record Header(int payloadLength, int sequenceId, int uncompressedLength) {
        static Header of(byte[] frame) {
            return new Header(medium(frame, 0), frame[3] & 0xFF, medium(frame, 4));
        }

        private static int medium(byte[] bytes, int offset) {
            return (bytes[offset] & 0xFF) | (bytes[offset + 1] & 0xFF) << 8 | (bytes[offset + 2] & 0xFF) << 16;
        }
    }
}
