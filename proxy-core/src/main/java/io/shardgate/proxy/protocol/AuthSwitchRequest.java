package io.shardgate.proxy.protocol;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;

import java.nio.charset.StandardCharsets;

/** Protocol::AuthSwitchRequest ("Authentication Method Switch"): {@code 0xFE}, plugin name, plugin data. */
public record AuthSwitchRequest(String plugin, byte[] data) {
    public static final int HEADER = 0xFE;

    public ByteBuf encode(ByteBufAllocator alloc) {
        ByteBuf buf = alloc.buffer(2 + plugin.length() + data.length + 1);
        buf.writeByte(HEADER);
        Wire.writeNulString(buf, plugin);
        buf.writeBytes(data).writeByte(0);
        return buf;
    }

    public static AuthSwitchRequest decode(ByteBuf payload) {
        ByteBuf buf = payload.duplicate();
        buf.skipBytes(1);
        String plugin = buf.isReadable() ? Wire.readNulString(buf) : "mysql_old_password";
        byte[] data = Wire.readRest(buf);
        if (data.length > 0 && data[data.length - 1] == 0) {
            byte[] trimmed = new byte[data.length - 1];
            System.arraycopy(data, 0, trimmed, 0, trimmed.length);
            data = trimmed;
        }
        return new AuthSwitchRequest(plugin, data);
    }

    @Override
    public String toString() {
        return "AuthSwitchRequest[" + plugin + "]";
    }

    static String ascii(byte[] bytes) {
        return new String(bytes, StandardCharsets.US_ASCII);
    }
}
