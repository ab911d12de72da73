package io.shardgate.proxy.protocol;

import io.netty.buffer.ByteBuf;

import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;

/**
 * The protocol's basic data types ("Basic Data Types" in the docs): length-encoded integers and
 * strings, NUL-terminated strings. Readers throw {@link MalformedPacketException} instead of
 * running past the end of a packet.
 */
public final class Wire {
    private Wire() {
    }

    public static long readLenencInt(ByteBuf buf) {
        need(buf, 1, "length-encoded integer");
        int first = buf.readUnsignedByte();
        return switch (first) {
            case 0xFC -> {
                need(buf, 2, "2-byte length-encoded integer");
                yield buf.readUnsignedShortLE();
            }
            case 0xFD -> {
                need(buf, 3, "3-byte length-encoded integer");
                yield buf.readUnsignedMediumLE();
            }
            case 0xFE -> {
                need(buf, 8, "8-byte length-encoded integer");
                yield buf.readLongLE();
            }
            case 0xFB, 0xFF -> throw new MalformedPacketException("length-encoded integer starts with 0x"
                    + Integer.toHexString(first) + " (expected: < 0xfb, 0xfc, 0xfd or 0xfe)");
            default -> first;
        };
    }

    public static void writeLenencInt(ByteBuf buf, long value) {
        if (value >= 0 && value < 251) {
            buf.writeByte((int) value);
        } else if (value >= 0 && value < (1 << 16)) {
            buf.writeByte(0xFC).writeShortLE((int) value);
        } else if (value >= 0 && value < (1 << 24)) {
            buf.writeByte(0xFD).writeMediumLE((int) value);
        } else {
            buf.writeByte(0xFE).writeLongLE(value);
        }
    }

    public static byte[] readLenencBytes(ByteBuf buf) {
        long length = readLenencInt(buf);
        if (length < 0 || length > buf.readableBytes()) {
            throw new MalformedPacketException("length-encoded string length: " + Long.toUnsignedString(length) + " (expected: <= "
                    + buf.readableBytes() + " remaining bytes)");
        }
        byte[] bytes = new byte[(int) length];
        buf.readBytes(bytes);
        return bytes;
    }

    public static String readLenencString(ByteBuf buf, Charset charset) {
        return new String(readLenencBytes(buf), charset);
    }

    public static void writeLenencBytes(ByteBuf buf, byte[] bytes) {
        writeLenencInt(buf, bytes.length);
        buf.writeBytes(bytes);
    }

    public static void writeLenencString(ByteBuf buf, String value) {
        writeLenencBytes(buf, value.getBytes(StandardCharsets.UTF_8));
    }

    /** Reads up to the next NUL (consumed); a missing NUL is an error. */
    public static byte[] readNulBytes(ByteBuf buf) {
        int nul = buf.indexOf(buf.readerIndex(), buf.writerIndex(), (byte) 0);
        if (nul < 0) {
            throw new MalformedPacketException("NUL-terminated string has no NUL in the "
                    + buf.readableBytes() + " remaining bytes");
        }
        byte[] bytes = new byte[nul - buf.readerIndex()];
        buf.readBytes(bytes);
        buf.skipBytes(1);
        return bytes;
    }

    public static String readNulString(ByteBuf buf) {
        return new String(readNulBytes(buf), StandardCharsets.UTF_8);
    }

    public static void writeNulString(ByteBuf buf, String value) {
        buf.writeBytes(value.getBytes(StandardCharsets.UTF_8)).writeByte(0);
    }

    /** Connection attributes: a length-encoded block of length-encoded key and value strings, in order. */
    public static java.util.Map<String, String> readConnectAttributes(ByteBuf buf, String what) {
        long length = readLenencInt(buf);
        if (length > buf.readableBytes()) {
            throw new MalformedPacketException(what + " attributes length: " + length + " (expected: <= "
                    + buf.readableBytes() + ")");
        }
        ByteBuf attrs = buf.readSlice((int) length);
        java.util.Map<String, String> attributes = new java.util.LinkedHashMap<>();
        while (attrs.isReadable()) {
            attributes.put(readLenencString(attrs, StandardCharsets.UTF_8), readLenencString(attrs, StandardCharsets.UTF_8));
        }
        return attributes;
    }

    public static byte[] readRest(ByteBuf buf) {
        byte[] bytes = new byte[buf.readableBytes()];
        buf.readBytes(bytes);
        return bytes;
    }

    public static void need(ByteBuf buf, int bytes, String what) {
        if (buf.readableBytes() < bytes) {
            throw new MalformedPacketException(what + ": " + buf.readableBytes() + " bytes left (expected: >= "
                    + bytes + ")");
        }
    }
}
