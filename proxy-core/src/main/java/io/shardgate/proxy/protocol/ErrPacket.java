package io.shardgate.proxy.protocol;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.shardgate.errors.ErrorCode;
import io.shardgate.errors.ShardgateException;

import java.nio.charset.StandardCharsets;

import static java.util.Objects.requireNonNull;

/**
 * ERR_Packet ("ERR_Packet" in the docs): {@code 0xFF}, error code, {@code '#'} and a 5-character
 * SQLSTATE (protocol 4.1), then the message.
 */
public record ErrPacket(int errno, String sqlState, String message) {
    public static final int HEADER = 0xFF;

    public ErrPacket {
        requireNonNull(sqlState, "sqlState is null");
        requireNonNull(message, "message is null");
        if (sqlState.length() != 5) {
            throw new IllegalArgumentException("sqlState: '" + sqlState + "' (expected: 5 characters)");
        }
    }

    /** Shardgate's own error {@code code}, its template filled with {@code args}. */
    public static ErrPacket of(ErrorCode code, Object... args) {
        return new ErrPacket(code.errno(), code.sqlState(), code.message(args));
    }

    /** The ERR packet that answers {@code error}. */
    public static ErrPacket of(ShardgateException error) {
        return new ErrPacket(error.errno(), error.sqlState(), error.errorMessage());
    }

    public static ErrPacket decode(ByteBuf payload) {
        ByteBuf buf = payload.duplicate();
        Wire.need(buf, 3, "ERR packet");
        int header = buf.readUnsignedByte();
        if (header != HEADER) {
            throw new MalformedPacketException("ERR packet header: 0x" + Integer.toHexString(header) + " (expected: 0xff)");
        }
        int errno = buf.readUnsignedShortLE();
        String state = "HY000";
        if (buf.isReadable() && buf.getByte(buf.readerIndex()) == '#' && buf.readableBytes() >= 6) {
            buf.skipBytes(1);
            state = buf.readCharSequence(5, StandardCharsets.US_ASCII).toString();
        }
        // A server's message may quote a value in the client's character set: read losslessly, it is relayed byte for byte.
        byte[] message = new byte[buf.readableBytes()];
        buf.readBytes(message);
        return new ErrPacket(errno, state, ClientCharset.UTF8MB4.decode(message));
    }

    public ByteBuf encode(ByteBufAllocator alloc) {
        byte[] text = utf8(message);
        ByteBuf buf = alloc.buffer(9 + text.length);
        buf.writeByte(HEADER).writeShortLE(errno).writeByte('#')
                .writeCharSequence(sqlState, StandardCharsets.US_ASCII);
        buf.writeBytes(text);
        return buf;
    }

    /** UTF-8, with the bytes of a relayed message that were not UTF-8 restored. */
    private static byte[] utf8(String message) {
        try {
            return ClientCharset.UTF8MB4.encode(message);
        } catch (ClientCharset.UnmappableTextException e) {
            return message.getBytes(StandardCharsets.UTF_8); // a lone surrogate of Shardgate's own making
        }
    }
}
