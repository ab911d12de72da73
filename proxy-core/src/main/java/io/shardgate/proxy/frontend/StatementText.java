package io.shardgate.proxy.frontend;

import io.netty.buffer.ByteBuf;
import io.shardgate.proxy.protocol.ClientCharset;
import io.shardgate.proxy.protocol.MySqlPacket;

/** The statement of a COM_QUERY or COM_STMT_PREPARE packet: its bytes after the command byte. */
final class StatementText {
    private StatementText() {
    }

    /** The statement read in the client's character set. */
    static String of(ClientCharset charset, MySqlPacket packet) {
        ByteBuf payload = packet.payload();
        return charset.decode(payload, payload.readerIndex() + 1, Math.max(0, payload.readableBytes() - 1));
    }

    /** Whether {@code sql}, read from {@code packet}, encodes back to its bytes (copied only for a charset that may not). */
    static boolean exact(ClientCharset charset, MySqlPacket packet, String sql) {
        return charset.lossless() || charset.exact(bytes(packet), sql);
    }

    private static byte[] bytes(MySqlPacket packet) {
        ByteBuf payload = packet.payload();
        byte[] bytes = new byte[Math.max(0, payload.readableBytes() - 1)];
        payload.getBytes(payload.readerIndex() + 1, bytes);
        return bytes;
    }
}
