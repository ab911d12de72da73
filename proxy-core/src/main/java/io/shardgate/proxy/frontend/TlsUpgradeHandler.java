package io.shardgate.proxy.frontend;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;
import io.netty.handler.ssl.SslContext;
import io.shardgate.proxy.protocol.Capabilities;
import io.shardgate.proxy.protocol.HandshakeResponse41;

import java.util.List;

/**
 * Watches the client's first packet. If it is an SSLRequest, this handler consumes it and puts
 * an {@code SslHandler} in its own place; bytes the client sent right behind the request (its
 * TLS ClientHello, often in the same segment) go to the TLS handler, not to the packet decoder.
 * Otherwise it steps aside and every byte goes on unchanged. Either way it is gone after the
 * first packet, and the front end learns of TLS through {@link TlsStarted}.
 */
final class TlsUpgradeHandler extends ByteToMessageDecoder {
    /** Fired through the pipeline once TLS is in place. */
    enum TlsStarted { INSTANCE }

    private final SslContext context;

    TlsUpgradeHandler(SslContext context) {
        this.context = context;
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        if (in.readableBytes() < 4) {
            return;
        }
        int length = in.getUnsignedMediumLE(in.readerIndex());
        if (length != HandshakeResponse41.SSL_REQUEST_LENGTH) {
            ctx.pipeline().remove(this);
            return;
        }
        if (in.readableBytes() < 4 + length) {
            return;
        }
        long capabilities = in.getUnsignedIntLE(in.readerIndex() + 4);
        if (!Capabilities.has(capabilities, Capabilities.CLIENT_SSL)) {
            ctx.pipeline().remove(this);
            return;
        }
        in.skipBytes(4 + length);
        // The replacement takes this handler's place; what is left in its buffer flows into it.
        ctx.pipeline().replace(this, "tls", context.newHandler(ctx.alloc()));
        ctx.fireUserEventTriggered(TlsStarted.INSTANCE);
    }
}
