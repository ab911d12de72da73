package io.shardgate.proxy.frontend;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.WriteBufferWaterMark;
import io.shardgate.proxy.config.HostPort;
import io.shardgate.proxy.protocol.PacketDecoder;
import io.shardgate.proxy.protocol.PacketEncoder;
import io.shardgate.proxy.transport.Transport;

import java.net.InetSocketAddress;
import java.time.Duration;

/** The client listener: one pipeline per connection, framing, then {@link ConnectionPhaseHandler} (which hands over to {@link FrontendHandler}). */
public final class FrontendServer implements AutoCloseable {
    private static final PacketEncoder ENCODER = new PacketEncoder();

    private final Channel serverChannel;

    private FrontendServer(Channel serverChannel) {
        this.serverChannel = serverChannel;
    }

    public static FrontendServer start(Transport transport, EventLoopGroup boss, EventLoopGroup workers, HostPort listen,
                                FrontendContext context) throws InterruptedException {
        Duration idleTimeout = context.config().limits().idleTimeout();
        ServerBootstrap bootstrap = new ServerBootstrap()
                .group(boss, workers)
                .channel(transport.serverSocketChannel())
                .option(ChannelOption.SO_BACKLOG, 1024)
                .option(ChannelOption.SO_REUSEADDR, true)
                .childOption(ChannelOption.TCP_NODELAY, true)
                .childOption(ChannelOption.SO_KEEPALIVE, true)
                .childOption(ChannelOption.WRITE_BUFFER_WATER_MARK, new WriteBufferWaterMark(256 * 1024, 1024 * 1024))
                .childHandler(new ChannelInitializer<Channel>() {
                    @Override
                    protected void initChannel(Channel ch) {
                        context.tls().ifPresent(tls -> ch.pipeline().addLast("tls-upgrade", new TlsUpgradeHandler(tls)));
                        ch.pipeline().addLast("bytes-in", new BytesIn(context));
                        ch.pipeline().addLast("decoder", new PacketDecoder(context.config().limits().maxAllowedPacket()));
                        ch.pipeline().addLast("encoder", ENCODER);
                        ch.pipeline().addLast("idle", new IdleTimeout(idleTimeout));
                        ch.pipeline().addLast("connect", new ConnectionPhaseHandler(context, new RoutedCommandPhase(context)));
                    }
                });
        Channel channel = bootstrap.bind(new InetSocketAddress(listen.host(), listen.port())).sync().channel();
        return new FrontendServer(channel);
    }

    public int port() {
        return ((InetSocketAddress) serverChannel.localAddress()).getPort();
    }

    @Override
    public void close() {
        serverChannel.close().awaitUninterruptibly();
    }

    /** Counts bytes received from clients, before any decoding. */
    private static final class BytesIn extends ChannelInboundHandlerAdapter {
        private final FrontendContext context;

        BytesIn(FrontendContext context) {
            this.context = context;
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            if (msg instanceof ByteBuf buf) {
                context.metrics().bytesIn(buf.readableBytes());
            }
            ctx.fireChannelRead(msg);
        }
    }
}
