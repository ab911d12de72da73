package io.shardgate.proxy.protocol;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.MessageToMessageEncoder;

import java.util.List;

/**
 * Writes {@link MySqlPacket}s with their 4-byte headers, splitting payloads of 0xFFFFFF bytes or
 * more into continuation packets with consecutive sequence ids (and an empty final packet when
 * the length is an exact multiple). Payload bytes are not copied: each header is a small buffer
 * followed by a slice of the payload.
 */
@ChannelHandler.Sharable
public final class PacketEncoder extends MessageToMessageEncoder<MySqlPacket> {

    public PacketEncoder() {
        super(MySqlPacket.class);
    }

    @Override
    protected void encode(ChannelHandlerContext ctx, MySqlPacket packet, List<Object> out) {
        ByteBuf payload = packet.payload();
        int sequence = packet.sequenceId();
        int remaining = payload.readableBytes();
        if (remaining < PacketDecoder.MAX_WIRE_PAYLOAD) {
            ByteBuf header = ctx.alloc().ioBuffer(4);
            header.writeMediumLE(remaining).writeByte(sequence);
            out.add(header);
            out.add(payload.retain());
            return;
        }
        int index = payload.readerIndex();
        while (true) {
            int chunk = Math.min(remaining, PacketDecoder.MAX_WIRE_PAYLOAD);
            ByteBuf header = ctx.alloc().ioBuffer(4);
            header.writeMediumLE(chunk).writeByte(sequence);
            out.add(header);
            out.add(payload.retainedSlice(index, chunk));
            index += chunk;
            remaining -= chunk;
            sequence = (sequence + 1) & 0xFF;
            if (chunk < PacketDecoder.MAX_WIRE_PAYLOAD) {
                break;
            }
        }
    }
}
