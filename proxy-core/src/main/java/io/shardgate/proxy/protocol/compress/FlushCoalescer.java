package io.shardgate.proxy.protocol.compress;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.ChannelPromise;
import io.netty.channel.CoalescingBufferQueue;

/**
 * Gathers what is written between two flushes into one buffer for the compressed-frame encoder,
 * so many small packets (a result set's rows, each packet's 4-byte header) share one compressed
 * frame, as MariaDB sends them. Server side only: a server may pack several packets of one
 * response in a frame, while a client must not pack two commands (MariaDB does not answer them).
 * More than {@link Compression#MAX_FRAME_PAYLOAD} bytes are passed on at once, so memory stays bounded.
 */
final class FlushCoalescer extends ChannelOutboundHandlerAdapter {
    private CoalescingBufferQueue queue;

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        queue = new CoalescingBufferQueue(ctx.channel());
    }

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
        if (!(msg instanceof ByteBuf buf)) {
            ctx.write(msg, promise);
            return;
        }
        queue.add(buf, promise);
        if (queue.readableBytes() >= Compression.MAX_FRAME_PAYLOAD) {
            writeQueued(ctx);
        }
    }

    @Override
    public void flush(ChannelHandlerContext ctx) {
        writeQueued(ctx);
        ctx.flush();
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) {
        queue.releaseAndFailAll(new IllegalStateException("compression removed"));
    }

    private void writeQueued(ChannelHandlerContext ctx) {
        if (queue.isEmpty()) {
            return;
        }
        ChannelPromise aggregate = ctx.newPromise();
        ByteBuf all = queue.remove(queue.readableBytes(), aggregate);
        ctx.write(all, aggregate);
    }
}
