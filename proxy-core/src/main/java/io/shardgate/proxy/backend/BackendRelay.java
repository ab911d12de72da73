package io.shardgate.proxy.backend;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.shardgate.proxy.protocol.MySqlPacket;

import static java.util.Objects.requireNonNull;

/**
 * The inbound end of a {@link BackendConnection}'s pipeline: every response packet goes to the
 * running command's {@link ResponseSink} until the {@link ResponseTracker} says the response is
 * complete. A packet with no command running, a response that does not parse, or a lost channel
 * closes the connection and fails the command with {@code BACKEND_LOST}.
 */
final class BackendRelay extends ChannelInboundHandlerAdapter {
    private static final System.Logger LOG = System.getLogger(BackendConnection.class.getName());
    private final BackendConnection connection;

    BackendRelay(BackendConnection connection) {
        this.connection = requireNonNull(connection, "connection is null");
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        MySqlPacket packet = (MySqlPacket) msg;
        ResponseSink current = connection.sink();
        if (current == null) {
            LOG.log(System.Logger.Level.WARNING, connection.target() + ": closing, it sent a packet with no command running: "
                    + packet);
            packet.release();
            ctx.close();
            return;
        }
        ResponseTracker tracker = connection.tracker();
        boolean done;
        try {
            done = tracker.accept(packet.payload());
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, connection.target() + ": closing, its response did not parse", e);
            packet.release();
            ctx.close();
            connection.fail(e);
            return;
        }
        current.packet(packet);
        if (done) {
            connection.responseDone();
            // A sink may have paused reading for a slow client; with its response complete
            // there is nothing left to hold back, and a paused connection must never reach
            // the pool (its next command's answer would never be read).
            ctx.channel().config().setAutoRead(true);
            current.complete(tracker.lastStatus(), tracker.endedWithError());
        }
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        ResponseSink current = connection.sink();
        if (current != null) {
            current.flush();
        }
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        connection.fail(connection.lost());
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        LOG.log(System.Logger.Level.WARNING, connection.target() + ": closing after an error", cause);
        ctx.close();
        connection.fail(connection.lost());
    }
}
