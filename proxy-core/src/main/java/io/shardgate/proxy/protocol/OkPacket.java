package io.shardgate.proxy.protocol;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;

import java.nio.charset.StandardCharsets;

/**
 * OK_Packet ("OK_Packet" in the docs), also used as the end of a result set with
 * CLIENT_DEPRECATE_EOF (header 0xFE). Session-state information is kept raw.
 */
public record OkPacket(int header, long affectedRows, long lastInsertId, int status, int warnings, String info,
                       byte[] sessionState) {
    public static final int HEADER = 0x00;
    public static final int EOF_HEADER = 0xFE;

    public static OkPacket of(long affectedRows, long lastInsertId, int status, int warnings) {
        return new OkPacket(HEADER, affectedRows, lastInsertId, status, warnings, "", new byte[0]);
    }

    public static OkPacket decode(ByteBuf payload, long capabilities) {
        ByteBuf buf = payload.duplicate();
        Wire.need(buf, 1, "OK packet");
        int header = buf.readUnsignedByte();
        long affected = Wire.readLenencInt(buf);
        long insertId = Wire.readLenencInt(buf);
        Wire.need(buf, 4, "OK packet status and warnings");
        int status = buf.readUnsignedShortLE();
        int warnings = buf.readUnsignedShortLE();
        String info = "";
        byte[] state = new byte[0];
        if (Capabilities.has(capabilities, Capabilities.CLIENT_SESSION_TRACK)) {
            if (buf.isReadable()) {
                info = Wire.readLenencString(buf, StandardCharsets.UTF_8);
            }
            if ((status & ServerStatus.SESSION_STATE_CHANGED) != 0 && buf.isReadable()) {
                state = Wire.readLenencBytes(buf);
            }
        } else {
            info = buf.readCharSequence(buf.readableBytes(), StandardCharsets.UTF_8).toString();
        }
        return new OkPacket(header, affected, insertId, status, warnings, info, state);
    }

    public ByteBuf encode(ByteBufAllocator alloc, long capabilities) {
        ByteBuf buf = alloc.buffer(16 + info.length() + sessionState.length);
        buf.writeByte(header);
        Wire.writeLenencInt(buf, affectedRows);
        Wire.writeLenencInt(buf, lastInsertId);
        buf.writeShortLE(status).writeShortLE(warnings);
        if (Capabilities.has(capabilities, Capabilities.CLIENT_SESSION_TRACK)) {
            if (!info.isEmpty() || (status & ServerStatus.SESSION_STATE_CHANGED) != 0) {
                Wire.writeLenencString(buf, info);
            }
            if ((status & ServerStatus.SESSION_STATE_CHANGED) != 0) {
                Wire.writeLenencBytes(buf, sessionState);
            }
        } else {
            buf.writeCharSequence(info, StandardCharsets.UTF_8);
        }
        return buf;
    }

    /** Sets {@code flags} in the status of an OK (or 0xFE-headed OK) payload, in place. */
    public static void addStatus(ByteBuf payload, int flags) {
        ByteBuf in = payload.duplicate();
        in.skipBytes(1);
        Wire.readLenencInt(in);
        Wire.readLenencInt(in);
        if (in.readableBytes() >= 2) {
            int at = in.readerIndex();
            payload.setShortLE(at, in.getUnsignedShortLE(at) | flags);
        }
    }
}
