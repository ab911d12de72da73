package io.shardgate.proxy.transport;

import io.netty.channel.EventLoopGroup;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.ServerChannel;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;

/** Native epoll where the platform has it, NIO otherwise; one choice for every channel of the proxy. */
public record Transport(String name, IoHandlerFactory ioHandlerFactory, Class<? extends ServerChannel> serverSocketChannel,
                        Class<? extends SocketChannel> socketChannel) {

    public static Transport best() {
        if (Epoll.isAvailable()) {
            return new Transport("epoll", EpollIoHandler.newFactory(), EpollServerSocketChannel.class,
                    EpollSocketChannel.class);
        }
        return new Transport("nio", NioIoHandler.newFactory(), NioServerSocketChannel.class, NioSocketChannel.class);
    }

    public EventLoopGroup newGroup(int threads, String name) {
        return new MultiThreadIoEventLoopGroup(threads, new io.netty.util.concurrent.DefaultThreadFactory(name, true),
                ioHandlerFactory);
    }
}
