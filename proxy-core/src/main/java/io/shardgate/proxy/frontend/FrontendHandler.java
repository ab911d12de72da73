package io.shardgate.proxy.frontend;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.timeout.IdleStateEvent;
import io.netty.util.concurrent.ScheduledFuture;
import io.shardgate.proxy.auth.CachingSha2Password;
import io.shardgate.proxy.auth.NativePassword;
import io.shardgate.proxy.auth.Scramble;
import io.shardgate.proxy.backend.BackendConnection;
import io.shardgate.proxy.backend.ResponseSink;
import io.shardgate.proxy.config.UserConfig;
import io.shardgate.proxy.error.ErrorCode;
import io.shardgate.proxy.error.ErrorTranslator;
import io.shardgate.proxy.error.ShardgateException;
import io.shardgate.proxy.protocol.AuthSwitchRequest;
import io.shardgate.proxy.protocol.Capabilities;
import io.shardgate.proxy.protocol.ChangeUserRequest;
import io.shardgate.proxy.protocol.Command;
import io.shardgate.proxy.protocol.ErrPacket;
import io.shardgate.proxy.protocol.HandshakeResponse41;
import io.shardgate.proxy.protocol.HandshakeV10;
import io.shardgate.proxy.protocol.MySqlPacket;
import io.shardgate.proxy.protocol.OkPacket;
import io.shardgate.proxy.protocol.ServerStatus;
import io.shardgate.proxy.protocol.compress.Compression;

import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * One client connection: the handshake and authentication, then commands. Commands run one at
 * a time; packets a client sends while one runs wait in order. Responses stream from the backend
 * packet by packet, and the backend is not read while the client cannot take more (backpressure).
 *
 * <p>Runs on the client channel's event loop; backend callbacks hop onto it.
 */
final class FrontendHandler extends ChannelInboundHandlerAdapter {
    private static final System.Logger LOG = System.getLogger(FrontendHandler.class.getName());
    private static final int UTF8MB4_GENERAL_CI = 45;
    private static final int AUTH_MORE_DATA = 0x01;

    private enum State { HANDSHAKE, AUTH_SWITCH, SHA2_FULL, SHA2_RSA, COMMAND, CLOSED }

    private final FrontendContext context;
    private final ArrayDeque<MySqlPacket> queued = new ArrayDeque<>();
    private final CommandRouter router;
    private ChannelHandlerContext ctx;
    private State state = State.HANDSHAKE;
    private long connectionId;
    private byte[] nonce;
    private boolean reserved;
    private boolean tls;
    private HandshakeResponse41 response;
    private UserConfig user;
    private boolean passwordGiven;
    private long announced;
    private boolean changingUser;
    private BackendConnection localInfileTarget;
    private ClientSession session;
    private ScheduledFuture<?> handshakeTimeout;
    private boolean busy;
    private boolean responseStarted;

    FrontendHandler(FrontendContext context) {
        this.context = context;
        this.router = new CommandRouter(context);
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        this.ctx = ctx;
        context.metrics().connectionOpened();
        if (!context.registry().tryReserve()) {
            context.metrics().connectionRefused();
            sendErrorAndClose(0, ErrorCode.TOO_MANY_CONNECTIONS.packet());
            return;
        }
        reserved = true;
        connectionId = context.registry().nextId();
        nonce = Scramble.generate(context.random());
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
        handshakeTimeout = ctx.executor().schedule(() -> {
            if (state != State.COMMAND && ctx.channel().isActive()) {
                sendErrorAndClose(0, ErrorCode.HANDSHAKE_ERROR.packet("no authentication within "
                        + context.config().limits().handshakeTimeout().toMillis() + " ms"));
            }
        }, context.config().limits().handshakeTimeout().toMillis(), TimeUnit.MILLISECONDS);
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        MySqlPacket packet = (MySqlPacket) msg;
        try {
            switch (state) {
                case HANDSHAKE -> handshakeResponse(packet);
                case AUTH_SWITCH -> authenticate(packet.sequenceId() + 1, bytes(packet));
                case SHA2_FULL -> sha2FullAuth(packet);
                case SHA2_RSA -> sha2Plain(packet.sequenceId() + 1,
                        context.rsa().decryptPassword(bytes(packet), nonce));
                case COMMAND -> {
                    if (localInfileTarget != null) {
                        // LOAD DATA LOCAL: the file's packets (and the empty one that ends it) go straight on.
                        BackendConnection target = localInfileTarget;
                        if (packet.payload().readableBytes() == 0) {
                            localInfileTarget = null;
                        }
                        target.continueCommand(packet.retain());
                    } else if (busy) {
                        queued.add(packet.retain());
                    } else {
                        command(packet.retain());
                    }
                }
                case CLOSED -> {
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
            throw ErrorCode.HANDSHAKE_ERROR.exception(tls ? "a second SSL request" : "TLS was requested but is not offered");
        }
        response = HandshakeResponse41.decode(packet.payload());
        if (Capabilities.has(response.capabilities(), Capabilities.CLIENT_SSL) && !tls) {
            throw ErrorCode.HANDSHAKE_ERROR.exception("CLIENT_SSL set without an SSL request");
        }
        String plugin = response.authPlugin().isEmpty() ? NativePassword.PLUGIN_NAME : response.authPlugin();
        user = context.users().get(response.user());
        // An unknown user goes through the same steps as a known one, so the answer does not tell them apart.
        String wanted = user == null ? NativePassword.PLUGIN_NAME : user.authPlugin();
        if (plugin.equals(wanted)) {
            authenticate(packet.sequenceId() + 1, response.authResponse());
        } else {
            state = State.AUTH_SWITCH;
            ctx.writeAndFlush(new MySqlPacket(packet.sequenceId() + 1,
                    new AuthSwitchRequest(wanted, nonce).encode(ctx.alloc())));
        }
    }

    /** Checks the client's scramble for the user's plugin (the one in use after any switch). */
    private void authenticate(int sequence, byte[] authResponse) {
        passwordGiven = authResponse.length > 0 && !(authResponse.length == 1 && authResponse[0] == 0);
        if (user == null) {
            deny(sequence);
            return;
        }
        if (user.authPlugin().equals(CachingSha2Password.PLUGIN_NAME)) {
            boolean fast = user.sha256Stage2().map(stage2 -> CachingSha2Password.verifyFast(nonce, authResponse, stage2))
                    .orElse(false);
            if (fast) {
                ctx.write(new MySqlPacket(sequence, moreData(new byte[] {CachingSha2Password.FAST_AUTH_SUCCESS})));
                finishAuth(sequence + 1);
                return;
            }
            // No cached digest, or a mismatch: ask for the password itself (over TLS, or RSA-encrypted).
            state = State.SHA2_FULL;
            ctx.writeAndFlush(new MySqlPacket(sequence,
                    moreData(new byte[] {CachingSha2Password.PERFORM_FULL_AUTHENTICATION})));
            return;
        }
        if (!NativePassword.verify(nonce, authResponse, user.nativeStage2())) {
            deny(sequence);
            return;
        }
        finishAuth(sequence);
    }

    private void sha2FullAuth(MySqlPacket packet) {
        byte[] data = bytes(packet);
        int sequence = packet.sequenceId() + 1;
        if (tls) {
            sha2Plain(sequence, data);
        } else if (data.length == 1 && data[0] == CachingSha2Password.REQUEST_PUBLIC_KEY) {
            state = State.SHA2_RSA;
            ctx.writeAndFlush(new MySqlPacket(sequence, moreData(context.rsa().publicKeyPemBytes())));
        } else {
            // A plain password over an unencrypted connection is refused, as MySQL does.
            deny(sequence);
        }
    }

    private void sha2Plain(int sequence, byte[] password) {
        if (!CachingSha2Password.verifyPlain(password, user)) {
            deny(sequence);
            return;
        }
        finishAuth(sequence);
    }

    private ByteBuf moreData(byte[] data) {
        return ctx.alloc().buffer(1 + data.length).writeByte(AUTH_MORE_DATA).writeBytes(data);
    }

    private static byte[] bytes(MySqlPacket packet) {
        byte[] data = new byte[packet.payload().readableBytes()];
        packet.payload().getBytes(packet.payload().readerIndex(), data);
        return data;
    }

    private void deny(int sequence) {
        context.metrics().authFailed();
        sendErrorAndClose(sequence, ErrorCode.ACCESS_DENIED.packet(response.user(), clientHost(),
                passwordGiven ? "YES" : "NO"));
    }

    private void finishAuth(int sequence) {
        String host = clientHost();
        if (user.requireTls() && !tls) {
            context.metrics().authFailed();
            sendErrorAndClose(sequence, ErrorCode.INSECURE_TRANSPORT.packet(response.user()));
            return;
        }
        long negotiated = response.capabilities();
        session = new ClientSession(connectionId, ctx.channel(), response.user(), host, negotiated, response.database());
        context.registry().register(session);
        handshakeTimeout.cancel(false);
        if (!response.database().isEmpty()) {
            // Connecting with a schema fails at once if the schema is unknown, as on a server.
            busy = true;
            ctx.channel().config().setAutoRead(false);
            router.backendFor(session, ctx.channel().eventLoop()).whenComplete((backend, error) -> ctx.executor().execute(() -> {
                if (error != null) {
                    sendErrorAndClose(sequence, context.errors().translate(error).packet());
                    return;
                }
                authenticated(sequence);
            }));
            return;
        }
        authenticated(sequence);
    }

    private void authenticated(int sequence) {
        state = State.COMMAND;
        busy = false;
        ctx.writeAndFlush(new MySqlPacket(sequence, OkPacket.of(0, 0, ServerStatus.AUTOCOMMIT, 0)
                .encode(ctx.alloc(), session.capabilities())));
        if (!changingUser) {
            // The OK above went out uncompressed; compression starts with the client's first command.
            Compression.negotiate(announced, response.capabilities(), response.zstdLevel())
                    .ifPresent(algorithm -> Compression.install(ctx.pipeline(), "decoder", algorithm));
        }
        changingUser = false;
        ctx.channel().config().setAutoRead(true);
        context.metrics().authenticated();
        drainQueue();
    }

    private String clientHost() {
        return ctx.channel().remoteAddress() instanceof InetSocketAddress address
                ? address.getAddress().getHostAddress() : "localhost";
    }

    /** Runs one command; {@code packet} is owned by this method. */
    private void command(MySqlPacket packet) {
        Command command = Command.of(packet.header());
        context.metrics().command(command);
        switch (command) {
            case QUIT -> {
                packet.release();
                state = State.CLOSED;
                ctx.close();
            }
            case PING -> {
                packet.release();
                writeOk(1);
            }
            case PROCESS_KILL -> {
                ByteBuf payload = packet.payload();
                long target = payload.readableBytes() >= 5 ? payload.getUnsignedIntLE(payload.readerIndex() + 1) : -1;
                packet.release();
                runLocal(router.kill(session, target, false));
            }
            case QUERY -> {
                String sql = packet.payload().toString(packet.payload().readerIndex() + 1,
                        packet.payload().readableBytes() - 1, StandardCharsets.UTF_8);
                Optional<KillStatement> kill = KillStatement.parse(sql);
                if (kill.isPresent()) {
                    packet.release();
                    runLocal(router.kill(session, kill.get().connectionId(), kill.get().queryOnly()));
                    return;
                }
                MySqlPacket rewritten = QueryRewriter.rewrite(packet, sql, connectionId);
                forward(rewritten, command, SchemaChange.ofQuery(sql));
            }
            case CHANGE_USER -> changeUser(packet);
            case INIT_DB -> {
                String schema = packet.payload().toString(packet.payload().readerIndex() + 1,
                        packet.payload().readableBytes() - 1, StandardCharsets.UTF_8);
                forward(packet, command, SchemaChange.to(schema));
            }
            case FIELD_LIST, STATISTICS, SET_OPTION, RESET_CONNECTION, STMT_PREPARE, STMT_EXECUTE, STMT_FETCH,
                    STMT_CLOSE, STMT_RESET, STMT_SEND_LONG_DATA, DEBUG -> forward(packet, command, SchemaChange.NONE);
            default -> {
                packet.release();
                writeError(1, ErrorCode.UNKNOWN_COMMAND.packet());
            }
        }
    }

    /**
     * COM_CHANGE_USER: the old session ends (its backend connection goes back to the pool, where
     * it is reset) and the client authenticates again, through an auth switch when the new user's
     * plugin differs from the one the client used. A failed change closes the connection, as
     * MariaDB does.
     */
    private void changeUser(MySqlPacket packet) {
        ChangeUserRequest request;
        int sequence = packet.sequenceId() + 1;
        try {
            request = ChangeUserRequest.decode(packet.payload(), session.capabilities());
        } finally {
            packet.release();
        }
        context.registry().unregister(session);
        router.releaseBackend(session);
        changingUser = true;
        busy = true;
        response = new HandshakeResponse41(session.capabilities(), response.maxPacketSize(),
                request.charset() == 0 ? response.charset() : request.charset(), request.user(), request.authResponse(),
                request.schema(), request.authPlugin(), request.attributes(), response.zstdLevel());
        session = null;
        user = context.users().get(request.user());
        String plugin = request.authPlugin().isEmpty() ? NativePassword.PLUGIN_NAME : request.authPlugin();
        String wanted = user == null ? NativePassword.PLUGIN_NAME : user.authPlugin();
        if (plugin.equals(wanted)) {
            state = State.AUTH_SWITCH;
            authenticate(sequence, request.authResponse());
        } else {
            state = State.AUTH_SWITCH;
            ctx.writeAndFlush(new MySqlPacket(sequence, new AuthSwitchRequest(wanted, nonce).encode(ctx.alloc())));
        }
    }

    private void runLocal(java.util.concurrent.CompletableFuture<Void> work) {
        busy = true;
        work.whenComplete((ok, error) -> ctx.executor().execute(() -> {
            if (error != null) {
                writeError(1, context.errors().translate(error).packet());
            } else {
                writeOk(1);
            }
            commandDone();
        }));
    }

    private void forward(MySqlPacket packet, Command command, SchemaChange schemaChange) {
        busy = true;
        responseStarted = false;
        router.backendFor(session, ctx.channel().eventLoop()).whenComplete((backend, error) -> onLoop(() -> {
            if (error != null) {
                packet.release();
                writeError(1, context.errors().translate(error).packet());
                commandDone();
                return;
            }
            if (!ctx.channel().isActive()) {
                packet.release();
                return;
            }
            backend.execute(packet, command, new Relay(backend, command, schemaChange));
        }));
    }

    /** Streams one command's response to the client. Called on the backend's event loop. */
    private final class Relay implements ResponseSink {
        private final BackendConnection backend;
        private final Command command;
        private final SchemaChange schemaChange;

        Relay(BackendConnection backend, Command command, SchemaChange schemaChange) {
            this.backend = backend;
            this.command = command;
            this.schemaChange = schemaChange;
        }

        @Override
        public void packet(MySqlPacket packet) {
            if (backend.localInfileRequested()) {
                // The server asks for a local file (possible only when allow_local_infile is on).
                localInfileTarget = backend;
            }
            responseStarted = true;
            context.metrics().bytesOut(packet.payload().readableBytes() + 4L);
            ctx.write(packet, ctx.voidPromise());
            if (!ctx.channel().isWritable()) {
                backend.autoRead(false);
            }
        }

        @Override
        public void flush() {
            ctx.flush();
        }

        @Override
        public void complete(int status, boolean error) {
            onLoop(() -> {
                if (!error) {
                    schemaChange.apply(session, backend);
                    if (!command.hasNoResponse() && session != null) {
                        session.status(status);
                    }
                }
                if (command.hasNoResponse()) {
                    commandDone();
                    return;
                }
                ctx.flush();
                commandDone();
            });
        }

        @Override
        public void failed(Throwable cause) {
            LOG.log(System.Logger.Level.WARNING, "connection " + connectionId + ": backend " + backend.target()
                    + " failed during " + command + (responseStarted ? " after part of the response was sent" : ""), cause);
            ctx.executor().execute(() -> {
                router.discardBackend(session);
                if (responseStarted) {
                    // Part of a response already reached the client: the only consistent end is a close.
                    state = State.CLOSED;
                    ctx.close();
                    return;
                }
                writeError(1, context.errors().translate(cause).packet());
                commandDone();
            });
        }
    }

    /** Runs on this connection's event loop: inline when already there (the common case), else as a task. */
    private void onLoop(Runnable action) {
        if (ctx.executor().inEventLoop()) {
            action.run();
        } else {
            ctx.executor().execute(action);
        }
    }

    private void commandDone() {
        busy = false;
        drainQueue();
    }

    private void drainQueue() {
        while (!busy && state == State.COMMAND && !queued.isEmpty()) {
            command(queued.poll());
        }
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) {
        BackendConnection backend = session == null ? null : session.backend();
        if (backend != null && ctx.channel().isWritable()) {
            backend.autoRead(true);
        }
        ctx.fireChannelWritabilityChanged();
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
        if (evt == TlsUpgradeHandler.TlsStarted.INSTANCE) {
            tls = true;
            return;
        }
        if (evt instanceof IdleStateEvent && state == State.COMMAND && !busy) {
            state = State.CLOSED;
            ctx.close();
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
        MySqlPacket packet;
        while ((packet = queued.poll()) != null) {
            packet.release();
        }
        if (session != null) {
            context.registry().unregister(session);
            router.releaseBackend(session);
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
        ErrorTranslator.Translation translation = context.errors().translate(cause);
        if (translation.packet().errno() == ErrorCode.INTERNAL.errno()) {
            LOG.log(System.Logger.Level.ERROR, "connection " + connectionId + ": internal error", cause);
        } else {
            LOG.log(System.Logger.Level.DEBUG, "connection " + connectionId + ": " + cause);
        }
        int sequence = state == State.COMMAND ? 1 : 2;
        if (translation.closeConnection()) {
            sendErrorAndClose(sequence, translation.packet());
        } else {
            writeError(sequence, translation.packet());
        }
    }

    /** An OK the proxy answers itself, carrying the session's transaction state as the backend last reported it. */
    private void writeOk(int sequence) {
        ctx.writeAndFlush(new MySqlPacket(sequence, OkPacket.of(0, 0, session.status(), 0)
                .encode(ctx.alloc(), session.capabilities())));
    }

    private void writeError(int sequence, ErrPacket error) {
        context.metrics().error(error.errno());
        ctx.writeAndFlush(new MySqlPacket(sequence, error.encode(ctx.alloc())));
    }

    private void sendErrorAndClose(int sequence, ErrPacket error) {
        state = State.CLOSED;
        context.metrics().error(error.errno());
        ctx.writeAndFlush(new MySqlPacket(sequence, error.encode(ctx.alloc())))
                .addListener(done -> ctx.close());
    }

    static ByteBuf utf8(String text) {
        return Unpooled.copiedBuffer(text, StandardCharsets.UTF_8);
    }
}
