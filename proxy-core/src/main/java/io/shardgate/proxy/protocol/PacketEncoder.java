package io.shardgate.proxy.protocol;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.ChannelPromise;
import io.netty.util.concurrent.PromiseCombiner;

/**
 * Writes {@link MySqlPacket}s with their 4-byte headers, splitting payloads of 0xFFFFFF bytes or
 * more into continuation packets with consecutive sequence ids (and an empty final packet when
 * the length is an exact multiple).
 *
 * <p>Cost per packet is the point here: most packets are small (an OK, a column definition, a
 * row), and a separate header buffer would cost a buffer, a second entry in the channel's
 * outbound queue and a combined promise per packet. A payload under {@link #COPY_LIMIT} bytes is
 * copied behind its header into one buffer (the write keeps the caller's promise, void or not);
 * a larger one is not copied: its header goes out as a small buffer followed by the payload itself.
 */
@ChannelHandler.Sharable
public final class PacketEncoder extends ChannelOutboundHandlerAdapter {
    /** Payloads shorter than this are copied behind their header; longer ones are written as they are. */
    public static final int COPY_LIMIT = 2048;

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
        if (!(msg instanceof MySqlPacket packet)) {
            ctx.write(msg, promise);
            return;
        }
        ByteBuf payload = packet.payload();
        int length = payload.readableBytes();
        if (length < COPY_LIMIT) {
            ByteBuf frame;
            try {
                frame = ctx.alloc().ioBuffer(4 + length);
                frame.writeMediumLE(length).writeByte(packet.sequenceId()).writeBytes(payload, payload.readerIndex(), length);
            } finally {
                packet.release();
            }
            ctx.write(frame, promise);
            return;
        }
        writeLarge(ctx, packet, promise);
    }

    /** A header buffer and the payload (or its 16 MiB slices) per wire packet; the caller's promise completes after the last. */
    private static void writeLarge(ChannelHandlerContext ctx, MySqlPacket packet, ChannelPromise promise) {
        PromiseCombiner combiner = promise.isVoid() ? null : new PromiseCombiner(ctx.executor());
        try {
            ByteBuf payload = packet.payload();
            int sequence = packet.sequenceId();
            int remaining = payload.readableBytes();
            int index = payload.readerIndex();
            while (true) {
                int chunk = Math.min(remaining, PacketDecoder.MAX_WIRE_PAYLOAD);
                ByteBuf header = ctx.alloc().ioBuffer(4);
                header.writeMediumLE(chunk).writeByte(sequence);
                write(ctx, header, combiner);
                // The payload itself when it fits one wire packet (no copy, not even a slice).
                write(ctx, chunk == payload.readableBytes() ? payload.retain() : payload.retainedSlice(index, chunk), combiner);
                index += chunk;
                remaining -= chunk;
                sequence = (sequence + 1) & 0xFF;
                if (chunk < PacketDecoder.MAX_WIRE_PAYLOAD) {
                    break;
                }
            }
        } finally {
            packet.release();
        }
        if (combiner != null) {
            combiner.finish(promise);
        }
    }

    private static void write(ChannelHandlerContext ctx, ByteBuf buf, PromiseCombiner combiner) {
        if (combiner == null) {
            ctx.write(buf, ctx.voidPromise());
        } else {
            combiner.add(ctx.write(buf));
        }
    }
}
