package io.shardgate.proxy.backend;

import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.shardgate.proxy.error.BackendErrorException;
import io.shardgate.proxy.error.ErrorCode;
import io.shardgate.proxy.protocol.ErrPacket;
import io.shardgate.proxy.protocol.Command;
import io.shardgate.proxy.protocol.MySqlPacket;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;

import static java.util.Objects.requireNonNull;

/**
 * A logged-in native-protocol connection to one backend. It runs one command at a time: the
 * command packet goes out, and every response packet goes to the command's {@link ResponseSink}
 * until the {@link ResponseTracker} says the response is complete.
 */
public final class BackendConnection {
    private static final System.Logger LOG = System.getLogger(BackendConnection.class.getName());
    private final Channel channel;
    private final BackendTarget target;
    private final long capabilities;
    private final long shaping;
    private final long serverThreadId;
    private final ResponseTracker tracker;
    private volatile ResponseSink sink;
    private volatile String schema;

    BackendConnection(Channel channel, BackendTarget target, long capabilities, long shaping, long serverThreadId,
                      String schema) {
        this.channel = requireNonNull(channel, "channel is null");
        this.target = requireNonNull(target, "target is null");
        this.capabilities = capabilities;
        this.shaping = shaping;
        this.serverThreadId = serverThreadId;
        this.tracker = new ResponseTracker(capabilities);
        this.schema = schema;
        channel.pipeline().addLast("relay", new Relay());
    }

    public BackendTarget target() {
        return target;
    }

    public long capabilities() {
        return capabilities;
    }

    /** The client response-shaping capabilities this connection was opened for (its pool key). */
    public long shaping() {
        return shaping;
    }

    /** The backend's own connection id, for KILL. */
    public long serverThreadId() {
        return serverThreadId;
    }

    /** The schema this connection is in as far as Shardgate knows; null when unknown. */
    public String schema() {
        return schema;
    }

    public void schema(String schema) {
        this.schema = schema;
    }

    public boolean isOpen() {
        return channel.isActive();
    }

    /** True when the packet just relayed was the server asking for a local file (on this connection's loop). */
    public boolean localInfileRequested() {
        return tracker.wantsLocalInfile();
    }

    public boolean isBusy() {
        return sink != null;
    }

    public Channel channel() {
        return channel;
    }

    /** Stops or resumes reading from the backend (backpressure from a slow client). */
    public void autoRead(boolean on) {
        channel.config().setAutoRead(on);
    }

    /**
     * Sends a command. {@code packet}'s sequence id must be 0. Commands without a response
     * (COM_STMT_CLOSE, COM_STMT_SEND_LONG_DATA) complete as soon as they are written.
     */
    public void execute(MySqlPacket packet, Command command, ResponseSink sink) {
        requireNonNull(sink, "sink is null");
        if (command.hasNoResponse()) {
            channel.writeAndFlush(packet).addListener(done -> {
                if (done.isSuccess()) {
                    sink.complete(0, false);
                } else {
                    sink.failed(lost());
                }
            });
            return;
        }
        if (this.sink != null) {
            packet.release();
            throw new IllegalStateException("backend connection " + target + " is busy");
        }
        this.sink = sink;
        Runnable send = () -> {
            tracker.start(command);
            channel.writeAndFlush(packet).addListener(done -> {
                if (!done.isSuccess()) {
                    fail(lost());
                }
            });
        };
        if (channel.eventLoop().inEventLoop()) {
            send.run();
        } else {
            channel.eventLoop().execute(send);
        }
    }

    /** Passes more packets of the same command (LOAD DATA LOCAL content) without restarting the tracker. */
    public void continueCommand(MySqlPacket packet) {
        channel.writeAndFlush(packet);
    }

    /**
     * Runs a simple command (COM_RESET_CONNECTION, COM_INIT_DB, a query whose rows are not needed);
     * completes normally on OK and with a {@link BackendErrorException} on ERR.
     */
    public CompletableFuture<Void> run(Command command, String argument) {
        CompletableFuture<Void> result = new CompletableFuture<>();
        ErrPacket[] error = new ErrPacket[1];
        byte[] arg = argument == null ? new byte[0] : argument.getBytes(StandardCharsets.UTF_8);
        MySqlPacket packet = new MySqlPacket(0, Unpooled.buffer(1 + arg.length).writeByte(command.code()).writeBytes(arg));
        execute(packet, command, new ResponseSink() {
            @Override
            public void packet(MySqlPacket response) {
                if (response.header() == ErrPacket.HEADER && error[0] == null) {
                    error[0] = ErrPacket.decode(response.payload());
                }
                response.release();
            }

            @Override
            public void flush() {
            }

            @Override
            public void complete(int status, boolean failed) {
                if (failed && error[0] != null) {
                    result.completeExceptionally(new BackendErrorException(error[0]));
                } else {
                    result.complete(null);
                }
            }

            @Override
            public void failed(Throwable cause) {
                result.completeExceptionally(cause);
            }
        });
        return result;
    }

    public void close() {
        channel.close();
    }

    private Throwable lost() {
        return ErrorCode.BACKEND_LOST.exception(target.shard(), target.role());
    }

    private void fail(Throwable cause) {
        ResponseSink current = sink;
        sink = null;
        if (current != null) {
            current.failed(cause);
        }
    }

    private final class Relay extends ChannelInboundHandlerAdapter {
        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            MySqlPacket packet = (MySqlPacket) msg;
            ResponseSink current = sink;
            if (current == null) {
                LOG.log(System.Logger.Level.WARNING, target + ": closing, it sent a packet with no command running: "
                        + packet);
                packet.release();
                ctx.close();
                return;
            }
            boolean done;
            try {
                done = tracker.accept(packet.payload());
            } catch (RuntimeException e) {
                LOG.log(System.Logger.Level.WARNING, target + ": closing, its response did not parse", e);
                packet.release();
                ctx.close();
                fail(e);
                return;
            }
            current.packet(packet);
            if (done) {
                sink = null;
                current.complete(tracker.lastStatus(), tracker.endedWithError());
            }
        }

        @Override
        public void channelReadComplete(ChannelHandlerContext ctx) {
            ResponseSink current = sink;
            if (current != null) {
                current.flush();
            }
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            fail(lost());
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            LOG.log(System.Logger.Level.WARNING, target + ": closing after an error", cause);
            ctx.close();
            fail(lost());
        }
    }
}
