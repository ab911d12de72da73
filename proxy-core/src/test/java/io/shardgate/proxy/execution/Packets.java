package io.shardgate.proxy.execution;

import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.shardgate.proxy.protocol.MySqlPacket;
import io.shardgate.proxy.protocol.ServerStatus;

import java.util.ArrayList;
import java.util.List;

/** Hand-written server packets, and what a client channel received, for the execution tests. */
public final class Packets {
    private Packets() {
    }

    static MySqlPacket packet(int sequence, int... bytes) {
        byte[] payload = new byte[bytes.length];
        for (int i = 0; i < bytes.length; i++) {
            payload[i] = (byte) bytes[i];
        }
        return new MySqlPacket(sequence, Unpooled.wrappedBuffer(payload));
    }

    /** An OK: no rows affected, insert id {@code insertId} (under 251), status {@code status}, no warnings. */
    static MySqlPacket ok(int sequence, int insertId, int status) {
        return packet(sequence, 0x00, 0x00, insertId, status & 0xFF, (status >> 8) & 0xFF, 0x00, 0x00);
    }

    /** The OK (header 0xFE) that ends a result set under CLIENT_DEPRECATE_EOF. */
    static MySqlPacket endOfRows(int sequence) {
        return packet(sequence, 0xFE, 0x00, 0x00, ServerStatus.AUTOCOMMIT, 0x00, 0x00, 0x00);
    }

    /** ERR 1146, SQLSTATE 42S02, message "no". */
    static MySqlPacket err(int sequence) {
        return packet(sequence, 0xFF, 0x7A, 0x04, '#', '4', '2', 'S', '0', '2', 'n', 'o');
    }

    /** A COM_QUERY of {@code sql} as {@link #received} shows it. */
    public static String query(String sql) {
        return "0:03" + java.util.HexFormat.of().formatHex(sql.getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }

    /** The OK a server answers a statement with in autocommit (sequence 1). */
    public static MySqlPacket ok() {
        return ok(1, 0, ServerStatus.AUTOCOMMIT);
    }

    /** ERR {@code errno} with {@code sqlState} and {@code message} (sequence 1). */
    public static MySqlPacket err(int errno, String sqlState, String message) {
        byte[] text = ("#" + sqlState + message).getBytes(java.nio.charset.StandardCharsets.UTF_8);
        return new MySqlPacket(1, Unpooled.buffer().writeByte(0xFF).writeShortLE(errno).writeBytes(text));
    }

    /** One column count, one column definition of a VARCHAR column "c" (text protocol). */
    static MySqlPacket[] oneColumn() {
        return new MySqlPacket[] {packet(1, 0x01), columnDefinition(2)};
    }

    static MySqlPacket columnDefinition(int sequence) {
        // catalog "def", schema "", table "", org_table "", name "c", org_name "", 0x0c, charset 45, length 80, type VAR_STRING, flags, decimals, filler
        return packet(sequence, 3, 'd', 'e', 'f', 0, 0, 0, 1, 'c', 0, 0x0c, 45, 0, 80, 0, 0, 0, 0xFD, 0, 0, 0, 0, 0);
    }

    /** A text row of one value. */
    static MySqlPacket row(int sequence, String value) {
        int[] bytes = new int[value.length() + 1];
        bytes[0] = value.length();
        for (int i = 0; i < value.length(); i++) {
            bytes[i + 1] = value.charAt(i);
        }
        return packet(sequence, bytes);
    }

    /**
     * Every packet the channel was sent so far, as "sequence:hex", released. Flushed first: a relay leaves the
     * final flush of a passthrough response to its caller, after the session's bookkeeping.
     */
    public static List<String> received(EmbeddedChannel client) {
        if (client.isOpen()) {
            client.flushOutbound();
        }
        List<String> out = new ArrayList<>();
        Object message;
        while ((message = client.readOutbound()) != null) {
            if (message instanceof io.netty.buffer.ByteBuf wire) {
                // Relayed packets gathered into one buffer (ClientChannel.relay): its frames, one by one.
                while (wire.isReadable()) {
                    int length = wire.readMediumLE();
                    int sequence = wire.readUnsignedByte();
                    out.add(sequence + ":" + ByteBufUtil.hexDump(wire.readSlice(length)));
                }
                wire.release();
                continue;
            }
            MySqlPacket packet = (MySqlPacket) message;
            out.add(packet.sequenceId() + ":" + ByteBufUtil.hexDump(packet.payload()));
            packet.release();
        }
        return out;
    }

    static String hex(MySqlPacket packet) {
        String text = packet.sequenceId() + ":" + ByteBufUtil.hexDump(packet.payload());
        return text;
    }

    /** Drops what the backend connection sent the server (the command), released. */
    static List<String> sentToServer(EmbeddedChannel backend) {
        return received(backend);
    }
}
