package io.shardgate.proxy.protocol;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

import static java.util.Objects.requireNonNull;

/**
 * Protocol::HandshakeV10 ("Initial Handshake Packet" in the docs), the server's first packet.
 * The 20-byte scramble travels as 8 bytes, a filler, then the other 12 and a NUL.
 */
public record HandshakeV10(String serverVersion, long connectionId, byte[] scramble, long capabilities,
                           int charset, int status, String authPlugin) {
    public HandshakeV10 {
        requireNonNull(serverVersion, "serverVersion is null");
        requireNonNull(scramble, "scramble is null");
        requireNonNull(authPlugin, "authPlugin is null");
    }

    public ByteBuf encode(ByteBufAllocator alloc) {
        ByteBuf buf = alloc.buffer(96);
        buf.writeByte(10);
        Wire.writeNulString(buf, serverVersion);
        buf.writeIntLE((int) connectionId);
        buf.writeBytes(scramble, 0, 8).writeByte(0);
        buf.writeShortLE((int) (capabilities & 0xFFFF));
        buf.writeByte(charset);
        buf.writeShortLE(status);
        buf.writeShortLE((int) ((capabilities >>> 16) & 0xFFFF));
        buf.writeByte(scramble.length + 1);
        buf.writeZero(10);
        buf.writeBytes(scramble, 8, scramble.length - 8).writeByte(0);
        Wire.writeNulString(buf, authPlugin);
        return buf;
    }

    public static HandshakeV10 decode(ByteBuf payload) {
        ByteBuf buf = payload.duplicate();
        Wire.need(buf, 1, "handshake");
        int protocol = buf.readUnsignedByte();
        if (protocol != 10) {
            throw new MalformedPacketException("handshake protocol version: " + protocol + " (expected: 10)");
        }
        String version = Wire.readNulString(buf);
        Wire.need(buf, 4 + 8 + 1 + 2, "handshake");
        long connectionId = buf.readUnsignedIntLE();
        byte[] part1 = new byte[8];
        buf.readBytes(part1);
        buf.skipBytes(1);
        long caps = buf.readUnsignedShortLE();
        int charset = 0;
        int status = 0;
        int authDataLength = 0;
        byte[] scramble = part1;
        String plugin = "mysql_native_password";
        if (buf.isReadable()) {
            Wire.need(buf, 1 + 2 + 2 + 1 + 10, "handshake");
            charset = buf.readUnsignedByte();
            status = buf.readUnsignedShortLE();
            caps |= ((long) buf.readUnsignedShortLE()) << 16;
            authDataLength = buf.readUnsignedByte();
            buf.skipBytes(10);
            if (Capabilities.has(caps, Capabilities.CLIENT_SECURE_CONNECTION)) {
                int part2Length = Math.max(13, authDataLength - 8);
                Wire.need(buf, part2Length, "handshake scramble");
                byte[] part2 = new byte[part2Length];
                buf.readBytes(part2);
                int used = part2Length > 0 && part2[part2Length - 1] == 0 ? part2Length - 1 : part2Length;
                scramble = Arrays.copyOf(part1, 8 + used);
                System.arraycopy(part2, 0, scramble, 8, used);
            }
            if (Capabilities.has(caps, Capabilities.CLIENT_PLUGIN_AUTH) && buf.isReadable()) {
                int nul = buf.indexOf(buf.readerIndex(), buf.writerIndex(), (byte) 0);
                plugin = nul < 0 ? buf.readCharSequence(buf.readableBytes(), StandardCharsets.UTF_8).toString()
                        : Wire.readNulString(buf);
            }
        }
        return new HandshakeV10(version, connectionId, scramble, caps, charset, status, plugin);
    }
}
