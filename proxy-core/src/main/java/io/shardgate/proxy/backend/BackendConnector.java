package io.shardgate.proxy.backend;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoop;
import io.netty.channel.SimpleChannelInboundHandler;
import io.shardgate.proxy.auth.NativePassword;
import io.shardgate.proxy.error.BackendErrorException;
import io.shardgate.errors.ErrorCode;
import io.shardgate.proxy.protocol.AuthSwitchRequest;
import io.shardgate.proxy.protocol.Capabilities;
import io.shardgate.proxy.protocol.ErrPacket;
import io.shardgate.proxy.protocol.HandshakeResponse41;
import io.shardgate.proxy.protocol.HandshakeV10;
import io.shardgate.proxy.protocol.MySqlPacket;
import io.shardgate.proxy.protocol.PacketDecoder;
import io.shardgate.proxy.protocol.PacketEncoder;
import io.shardgate.proxy.transport.Transport;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static java.util.Objects.requireNonNull;

/**
 * Opens native-protocol connections to backends and logs in with mysql_native_password, the
 * one plugin every MariaDB and MySQL server offers. The capabilities sent to the backend are the
 * client's response-shaping ones, so the backend's packets can be relayed to that client as they
 * are.
 */
public final class BackendConnector implements ConnectionOpener {
    private static final System.Logger LOG = System.getLogger(BackendConnector.class.getName());
    /** Backends may send packets up to their own max_allowed_packet, at most 1 GiB. */
    private static final long MAX_BACKEND_PACKET = 1L << 30;
    static final long BASE_CAPABILITIES = Capabilities.CLIENT_LONG_PASSWORD | Capabilities.CLIENT_PROTOCOL_41
            | Capabilities.CLIENT_SECURE_CONNECTION | Capabilities.CLIENT_PLUGIN_AUTH
            | Capabilities.CLIENT_PLUGIN_AUTH_LENENC_CLIENT_DATA | Capabilities.CLIENT_TRANSACTIONS
            | Capabilities.CLIENT_CONNECT_ATTRS | Capabilities.CLIENT_SESSION_TRACK;
    private static final PacketEncoder ENCODER = new PacketEncoder();
    private static final int UNKNOWN_DATABASE = 1049;
    /** Attempts at connecting and logging in, in all, while the connect timeout lasts. */
    static final int ATTEMPTS = 3;
    /** The pause before attempt n + 1 is n times this. */
    static final long RETRY_DELAY_MILLIS = 20;

    private final Transport transport;
    private final String user;
    private final byte[] password;
    private final Duration connectTimeout;

    private final boolean localInfile;
    private final int statementCacheSize;

    public BackendConnector(Transport transport, String user, String password, Duration connectTimeout,
                            boolean localInfile, int statementCacheSize) {
        this.localInfile = localInfile;
        this.statementCacheSize = statementCacheSize;
        this.transport = requireNonNull(transport, "transport is null");
        this.user = requireNonNull(user, "user is null");
        this.password = requireNonNull(password, "password is null").getBytes(StandardCharsets.UTF_8);
        this.connectTimeout = requireNonNull(connectTimeout, "connectTimeout is null");
    }

    /**
     * Connects on {@code loop} and logs in. {@code shapingCapabilities} are the client's
     * response-shaping flags; {@code schema} may be empty.
     *
     * <p>A connection that fails before the server has answered the login (refused, reset, closed
     * or broken during the handshake) is tried again, up to {@link #ATTEMPTS} times in all and within
     * the one connect timeout: a server busy accepting a burst of connections drops some, and a
     * client should not pay for that. What the server answered (a refused login, an unknown
     * database, a wrong plugin) is final.
     */
    @Override
    public CompletableFuture<BackendConnection> connect(EventLoop loop, BackendTarget target, long shapingCapabilities,
                                                        String schema) {
        CompletableFuture<BackendConnection> result = new CompletableFuture<>();
        attempt(loop, target, shapingCapabilities & Capabilities.RESPONSE_SHAPING, schema, result, 1,
                System.nanoTime() + connectTimeout.toNanos());
        return result;
    }

    private void attempt(EventLoop loop, BackendTarget target, long shaping, String schema,
                         CompletableFuture<BackendConnection> result, int number, long deadline) {
        Login login = new Login(target, shaping, schema);
        Bootstrap bootstrap = new Bootstrap()
                .group(loop)
                .channel(transport.socketChannel())
                .option(ChannelOption.TCP_NODELAY, true)
                .option(ChannelOption.SO_KEEPALIVE, true)
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, (int) Math.max(1, remainingMillis(deadline)))
                .handler(new ChannelInitializer<Channel>() {
                    @Override
                    protected void initChannel(Channel ch) {
                        ch.pipeline().addLast("decoder", new PacketDecoder(MAX_BACKEND_PACKET));
                        ch.pipeline().addLast("encoder", ENCODER);
                        ch.pipeline().addLast("login", login);
                    }
                });
        ChannelFuture connecting = bootstrap.connect(target.address().host(), target.address().port());
        connecting.addListener(done -> {
            if (!done.isSuccess()) {
                login.transientFailure("cannot connect: " + done.cause().getMessage());
            }
        });
        loop.schedule(() -> {
            if (!login.outcome.isDone()) {
                connecting.channel().close();
                login.finalFailure("no login within " + connectTimeout.toMillis() + " ms");
            }
        }, Math.max(1, remainingMillis(deadline)), TimeUnit.MILLISECONDS);
        login.outcome.whenComplete((connection, error) -> {
            if (error == null) {
                if (!result.complete(connection)) {
                    connection.close();
                }
            } else if (login.retryable && number < ATTEMPTS && remainingMillis(deadline) > RETRY_DELAY_MILLIS * number) {
                LOG.log(System.Logger.Level.DEBUG, () -> "login to " + target + " failed (attempt " + number + "), trying again: "
                        + error.getMessage());
                loop.schedule(() -> attempt(loop, target, shaping, schema, result, number + 1, deadline),
                        RETRY_DELAY_MILLIS * number, TimeUnit.MILLISECONDS);
            } else {
                if (login.retryable) {
                    LOG.log(System.Logger.Level.WARNING, "login to " + target + " failed after " + number + " attempts: "
                            + error.getMessage());
                }
                result.completeExceptionally(error);
            }
        });
    }

    private static long remainingMillis(long deadline) {
        return TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
    }

    private final class Login extends SimpleChannelInboundHandler<MySqlPacket> {
        private final BackendTarget target;
        private final long shaping;
        private final String schema;
        /** This attempt's outcome. */
        private final CompletableFuture<BackendConnection> outcome = new CompletableFuture<>();
        /** Whether the attempt failed before the server answered the login, so that another may succeed. */
        private boolean retryable;
        private HandshakeV10 handshake;
        private long capabilities;

        Login(BackendTarget target, long shaping, String schema) {
            this.target = target;
            this.shaping = shaping;
            this.schema = schema;
        }

        @Override
        protected void channelRead0(ChannelHandlerContext ctx, MySqlPacket packet) {
            try {
                if (handshake == null) {
                    if (packet.header() == ErrPacket.HEADER) {
                        fail(ctx, "refused: " + ErrPacket.decode(packet.payload()).message());
                        return;
                    }
                    handshake = HandshakeV10.decode(packet.payload());
                    long wanted = BASE_CAPABILITIES | shaping | (localInfile ? Capabilities.CLIENT_LOCAL_FILES : 0);
                    capabilities = wanted & (handshake.capabilities() | Capabilities.CLIENT_LONG_PASSWORD);
                    if (!schema.isEmpty()) {
                        capabilities |= Capabilities.CLIENT_CONNECT_WITH_DB;
                    }
                    HandshakeResponse41 response = new HandshakeResponse41(capabilities, 1L << 30, 45 /* utf8mb4_general_ci */,
                            user, NativePassword.scramble(password, handshake.scramble()), schema,
                            NativePassword.PLUGIN_NAME, Map.of("_client_name", "shardgate"), 0);
                    ctx.writeAndFlush(new MySqlPacket(packet.sequenceId() + 1, response.encode(ctx.alloc())));
                    return;
                }
                switch (packet.header()) {
                    case 0x00 -> done(ctx);
                    case ErrPacket.HEADER -> {
                        ErrPacket error = ErrPacket.decode(packet.payload());
                        if (error.errno() == UNKNOWN_DATABASE) {
                            // The client's own mistake: it gets the server's error as is.
                            ctx.close();
                            outcome.completeExceptionally(new BackendErrorException(error));
                        } else {
                            fail(ctx, "login failed: " + error.message());
                        }
                    }
                    case AuthSwitchRequest.HEADER -> {
                        AuthSwitchRequest request = AuthSwitchRequest.decode(packet.payload());
                        if (!NativePassword.PLUGIN_NAME.equals(request.plugin())) {
                            fail(ctx, "the backend account must use mysql_native_password, it asked for " + request.plugin());
                            return;
                        }
                        ctx.writeAndFlush(new MySqlPacket(packet.sequenceId() + 1,
                                Unpooled.wrappedBuffer(NativePassword.scramble(password, request.data()))));
                    }
                    default -> fail(ctx, "unexpected login packet 0x" + Integer.toHexString(packet.header()));
                }
            } catch (RuntimeException e) {
                fail(ctx, "bad handshake: " + e.getMessage());
            }
        }

        private void done(ChannelHandlerContext ctx) {
            ctx.pipeline().remove(this);
            BackendConnection connection = new BackendConnection(ctx.channel(), target, capabilities, shaping,
                    handshake.connectionId(), schema, statementCacheSize);
            connection.enableTracking().whenComplete((ok, error) -> {
                if (error != null) {
                    connection.close();
                    outcome.completeExceptionally(ErrorCode.BACKEND_UNAVAILABLE.exception(target.shard(), target.role(),
                            target.address(), "cannot enable session tracking: " + error.getMessage()));
                } else if (!outcome.complete(connection)) {
                    connection.close();
                }
            });
        }

        private void fail(ChannelHandlerContext ctx, String why) {
            ctx.close();
            finalFailure(why);
        }

        /** The server answered, or broke the protocol: another attempt would fare no better. */
        void finalFailure(String why) {
            outcome.completeExceptionally(ErrorCode.BACKEND_UNAVAILABLE.exception(target.shard(), target.role(),
                    target.address(), why));
        }

        /** The connection failed before the login was answered: another attempt may succeed. */
        void transientFailure(String why) {
            if (!outcome.isDone()) {
                retryable = true;
            }
            finalFailure(why);
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            transientFailure("connection closed during login");
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            // The exception's class too: some (a closed channel's, say) carry no message at all.
            LOG.log(System.Logger.Level.DEBUG, () -> "login to " + target + " failed", cause);
            ctx.close();
            transientFailure(String.valueOf(cause));
        }
    }
}
