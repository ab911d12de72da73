package io.shardgate.proxy.protocol;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.DefaultByteBufHolder;

/**
 * One logical MySQL packet: its sequence id and its whole payload. Payloads of 16 MiB and more
 * arrive as several wire packets; {@link PacketDecoder} joins them and {@link PacketEncoder}
 * splits them again, so nothing else sees the 0xFFFFFF boundary ("MySQL Packets" in the docs).
 */
public final class MySqlPacket extends DefaultByteBufHolder {
    private final int sequenceId;

    public MySqlPacket(int sequenceId, ByteBuf payload) {
        super(payload);
        this.sequenceId = sequenceId & 0xFF;
    }

    public int sequenceId() {
        return sequenceId;
    }

    public ByteBuf payload() {
        return content();
    }

    /** The first payload byte (the packet's header byte), or -1 for an empty payload. */
    public int header() {
        ByteBuf payload = content();
        return payload.isReadable() ? payload.getUnsignedByte(payload.readerIndex()) : -1;
    }

    @Override
    public MySqlPacket replace(ByteBuf content) {
        return new MySqlPacket(sequenceId, content);
    }

    @Override
    public MySqlPacket retain() {
        super.retain();
        return this;
    }

    /** A client command (sequence id 0): the command byte, then {@code argument} in UTF-8 (nothing when null). */
    public static MySqlPacket command(Command command, String argument) {
        byte[] bytes = argument == null ? new byte[0] : argument.getBytes(java.nio.charset.StandardCharsets.UTF_8);
        return new MySqlPacket(0, io.netty.buffer.Unpooled.buffer(1 + bytes.length).writeByte(command.code()).writeBytes(bytes));
    }

    /** A client command (sequence id 0): the command byte, then {@code argument}'s bytes as they are. */
    public static MySqlPacket command(Command command, byte[] argument) {
        return new MySqlPacket(0, io.netty.buffer.Unpooled.buffer(1 + argument.length).writeByte(command.code()).writeBytes(argument));
    }

    /** The same payload (retained) under another sequence id. */
    public MySqlPacket withSequenceId(int id) {
        return new MySqlPacket(id, content().retain());
    }

    @Override
    public String toString() {
        return "MySqlPacket(seq=" + sequenceId + ", length=" + content().readableBytes() + ")";
    }
}
