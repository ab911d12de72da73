package io.shardgate.proxy.frontend;

import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.ssl.SslHandler;
import io.netty.util.concurrent.ScheduledFuture;
import io.shardgate.proxy.auth.NativePassword;
import io.shardgate.proxy.auth.Scramble;
import io.shardgate.errors.ErrorCode;
import io.shardgate.proxy.error.ErrorTranslator;
import io.shardgate.proxy.protocol.Capabilities;
import io.shardgate.proxy.protocol.ErrPacket;
import io.shardgate.proxy.protocol.HandshakeResponse41;
import io.shardgate.proxy.protocol.HandshakeV10;
import io.shardgate.proxy.protocol.MySqlPacket;
import io.shardgate.proxy.protocol.OkPacket;
import io.shardgate.proxy.protocol.PacketDecoder;
import io.shardgate.proxy.protocol.ServerStatus;
import io.shardgate.proxy.protocol.compress.Compression;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static java.util.Objects.requireNonNull;

/**
 * A client connection until it is authenticated: the connection limit and the connection id, the
 * greeting (HandshakeV10), the handshake response (after a TLS upgrade, which {@link TlsUpgradeHandler}
 * performs and announces), authentication through an {@link Authenticator}, the schema the client
 * asked for, the OK, and compression from the client's first command on. A client that does not
 * finish within the handshake timeout gets ERR 1043 and is closed.
 *
 * <p>On the OK it puts the command phase's handler ({@link CommandPhase#commands}) behind itself,
 * hands it the authenticated session and removes itself from the pipeline, as Netty's
 * {@code ApplicationProtocolNegotiationHandler} does: what follows never asks whether the client is
 * authenticated yet. Packets that arrive while the schema is being opened are passed on to it.
 */
final class ConnectionPhaseHandler extends ChannelInboundHandlerAdapter {
    private static final int UTF8MB4_GENERAL_CI = 45;
    /** The pipeline name of the handler that takes over. */
    static final String COMMANDS = "frontend";

    private enum State { GREETED, AUTHENTICATING, OPENING, DONE, CLOSED }

    private final FrontendContext context;
    private final CommandPhase next;
    private final List<MySqlPacket> held = new ArrayList<>();
    private ChannelHandlerContext ctx;
    private State state = State.GREETED;
    private long connectionId;
    private boolean reserved;
    private long announced;
    private Authenticator authenticator;
    private HandshakeResponse41 response;
    private ClientSession session;
    private ScheduledFuture<?> handshakeTimeout;

    ConnectionPhaseHandler(FrontendContext context, CommandPhase next) {
        this.context = requireNonNull(context, "context is null");
        this.next = requireNonNull(next, "next is null");
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        this.ctx = ctx;
        context.metrics().connectionOpened();
        if (!context.registry().tryReserve()) {
            context.metrics().connectionRefused();
            sendErrorAndClose(0, ErrPacket.of(ErrorCode.TOO_MANY_CONNECTIONS));
            return;
        }
        reserved = true;
        connectionId = context.registry().nextId();
        byte[] nonce = Scramble.generate(context.random());
        authenticator = new Authenticator(context.users(), context.rsa(), nonce);
        long capabilities = Capabilities.SERVER_DEFAULT;
        if (context.tls().isPresent()) {
            capabilities |= Capabilities.CLIENT_SSL;
        }
        if (context.config().allowLocalInfile()) {
            capabilities |= Capabilities.CLIENT_LOCAL_FILES;
        }
        announced = capabilities;
        HandshakeV10 handshake = new HandshakeV10(context.config().serverVersion(), connectionId, nonce,
                capabilities, UTF8MB4_GENERAL_CI, ServerStatus.AUTOCOMMIT, NativePassword.PLUGIN_NAME);
        ctx.writeAndFlush(new MySqlPacket(0, handshake.encode(ctx.alloc())));
        long timeoutMs = context.config().limits().handshakeTimeout().toMillis();
        handshakeTimeout = ctx.executor().schedule(this::timedOut, timeoutMs, TimeUnit.MILLISECONDS);
    }

    private void timedOut() {
        boolean authenticating = state == State.GREETED || state == State.AUTHENTICATING;
        SslHandler ssl = ctx.pipeline().get(SslHandler.class);
        if (authenticating && ssl != null && !ssl.handshakeFuture().isSuccess()) {
            // An SSL request and no TLS handshake after it: no ERR can reach the client (it would wait in the
            // TLS handler until that gives up, 10 s later); the connection just closes.
            state = State.CLOSED;
            ctx.close();
            return;
        }
        if (authenticating && ctx.channel().isActive()) {
            sendErrorAndClose(0, ErrPacket.of(ErrorCode.HANDSHAKE_ERROR, "no authentication within "
                    + context.config().limits().handshakeTimeout().toMillis() + " ms"));
        }
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        MySqlPacket packet = (MySqlPacket) msg;
        try {
            switch (state) {
                case GREETED -> handshakeResponse(packet);
                case AUTHENTICATING -> outcome(authenticator.next(ctx, packet));
                case OPENING -> held.add(packet.retain());
                case DONE, CLOSED -> {
                    // Discard: the connection is closing.
                }
                default -> throw new IllegalStateException("state " + state);
            }
        } finally {
            packet.release();
        }
    }

    private void handshakeResponse(MySqlPacket packet) {
        if (HandshakeResponse41.isSslRequest(packet.payload())) {
            // TlsUpgradeHandler takes every SSLRequest that may be honoured; this one may not.
            throw ErrorCode.HANDSHAKE_ERROR.exception(authenticator.tls() ? "a second SSL request"
                    : "TLS was requested but is not offered");
        }
        response = HandshakeResponse41.decode(packet.payload());
        if (Capabilities.has(response.capabilities(), Capabilities.CLIENT_SSL) && !authenticator.tls()) {
            throw ErrorCode.HANDSHAKE_ERROR.exception("CLIENT_SSL set without an SSL request");
        }
        state = State.AUTHENTICATING;
        outcome(authenticator.begin(ctx, packet.sequenceId() + 1, response.user(), response.authPlugin(),
                response.authResponse()));
    }

    private void outcome(Authenticator.Outcome outcome) {
        if (outcome.pending()) {
            return;
        }
        if (outcome.refused()) {
            context.metrics().authFailed();
            sendErrorAndClose(outcome.sequence(), outcome.error());
            return;
        }
        open(outcome.sequence());
    }

    /** The client is who it says: its session opens, in the schema it named (checked on a backend) if any. */
    private void open(int sequence) {
        session = new ClientSession(connectionId, ctx.channel(), response.user(), Authenticator.clientHost(ctx),
                response.capabilities(), response.database(), response.charset(),
                context.config().limits().maxPreparedStatements());
        context.registry().register(session);
        handshakeTimeout.cancel(false);
        if (response.database().isEmpty()) {
            enterCommandPhase(sequence);
            return;
        }
        state = State.OPENING;
        ctx.channel().config().setAutoRead(false);
        next.openSchema(session, ctx.channel().eventLoop()).whenComplete((ok, error) -> {
            if (state != State.OPENING) {
                return; // the client left meanwhile; channelInactive gave the session up
            }
            if (error != null) {
                sendErrorAndClose(sequence, context.errors().translate(error).packet());
                return;
            }
            enterCommandPhase(sequence);
        });
    }

    private void enterCommandPhase(int sequence) {
        state = State.DONE;
        ChannelHandler commands = next.commands(new Login(connectionId, session, response, authenticator));
        ctx.writeAndFlush(new MySqlPacket(sequence, OkPacket.of(0, 0, ServerStatus.AUTOCOMMIT, 0)
                .encode(ctx.alloc(), session.capabilities())));
        // The OK above went out uncompressed; compression starts with the client's first command.
        Compression.negotiate(announced, response.capabilities(), response.zstdLevel())
                .ifPresent(algorithm -> Compression.install(ctx.pipeline(), "decoder", algorithm));
        ctx.pipeline().addAfter(ctx.name(), COMMANDS, commands);
        ctx.channel().config().setAutoRead(true);
        context.metrics().authenticated();
        for (MySqlPacket packet : held) {
            ctx.fireChannelRead(packet);
        }
        held.clear();
        // From here on the command phase owns the session, the connection slot and the close.
        session = null;
        reserved = false;
        ctx.pipeline().remove(this);
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
        if (evt == TlsUpgradeHandler.TlsStarted.INSTANCE) {
            if (authenticator != null) {
                authenticator.tlsStarted();
            }
            return;
        }
        ctx.fireUserEventTriggered(evt);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        state = State.CLOSED;
        if (handshakeTimeout != null) {
            handshakeTimeout.cancel(false);
        }
        held.forEach(MySqlPacket::release);
        held.clear();
        if (session != null) {
            context.registry().unregister(session);
            next.abandon(session);
            session = null;
        }
        if (reserved) {
            context.registry().unreserve();
            reserved = false;
        }
        context.metrics().connectionClosed();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        if (state == State.CLOSED) {
            return;
        }
        if (cause instanceof java.io.IOException) {
            // The client went away.
            state = State.CLOSED;
            ctx.close();
            return;
        }
        ErrorTranslator.Translation translation = context.errors().translate(cause, "connection " + connectionId);
        int sequence = 2;
        if (cause instanceof PacketDecoder.PacketTooLargeException tooLarge) {
            // A split packet over the limit: the client has sent pieces 0..n and waits for n + 1.
            sequence = tooLarge.sequenceId() + 1;
        }
        if (translation.closeConnection()) {
            sendErrorAndClose(sequence, translation.packet());
        } else {
            context.metrics().error(translation.packet().errno());
            ctx.writeAndFlush(new MySqlPacket(sequence, translation.packet().encode(ctx.alloc())));
        }
    }

    private void sendErrorAndClose(int sequence, ErrPacket error) {
        state = State.CLOSED;
        context.metrics().error(error.errno());
        ctx.writeAndFlush(new MySqlPacket(sequence, error.encode(ctx.alloc())))
                .addListener(done -> ctx.close());
    }
}
