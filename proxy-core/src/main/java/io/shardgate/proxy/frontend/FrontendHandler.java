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
import io.shardgate.proxy.config.UserConfig;
import io.shardgate.errors.ErrorCode;
import io.shardgate.proxy.error.ErrorTranslator;
import io.shardgate.proxy.protocol.AuthSwitchRequest;
import io.shardgate.proxy.protocol.Capabilities;
import io.shardgate.proxy.protocol.ChangeUserRequest;
import io.shardgate.proxy.protocol.ClientCharset;
import io.shardgate.proxy.protocol.Command;
import io.shardgate.proxy.protocol.ErrPacket;
import io.shardgate.proxy.protocol.HandshakeResponse41;
import io.shardgate.proxy.protocol.HandshakeV10;
import io.shardgate.proxy.protocol.MySqlPacket;
import io.shardgate.proxy.protocol.OkPacket;
import io.shardgate.proxy.protocol.ServerStatus;
import io.shardgate.proxy.protocol.StatementPackets;
import io.shardgate.proxy.protocol.compress.Compression;
import io.shardgate.proxy.backend.BackendStatement;
import io.shardgate.proxy.execution.ClientChannel;
import io.shardgate.proxy.execution.Forwarder;
import io.shardgate.proxy.session.ClientStatement;
import io.shardgate.proxy.session.SessionPin;
import io.shardgate.router.classify.Classification;
import io.shardgate.router.classify.StatementClassifier;
import io.shardgate.router.classify.StatementClass;
import io.shardgate.router.classify.TemporaryTable;
import io.shardgate.router.classify.TransactionKind;
import io.shardgate.proxy.protocol.LocalResultSet;
import io.shardgate.proxy.routing.BackendRow;
import io.shardgate.proxy.routing.EngineHealth;
import java.util.List;

import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
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
    private final StatementClassifier classifier = new StatementClassifier();
    private final DdlGate ddlGate;
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
    /** The session's sharded commands, in a sharded deployment; null otherwise. */
    private ShardedCommands sharded;

    FrontendHandler(FrontendContext context) {
        this.context = context;
        this.router = new CommandRouter(context);
        List<String> ddlShards = context.sharding().map(deployment -> deployment.schema().shardNames())
                .orElse(List.of(context.backends().shard()));
        this.ddlGate = new DdlGate(ddlShards, context.backends().health().map(EngineHealth::ddlValidator).orElse(null),
                shard -> context.backends().health().map(health -> health.primaryCapabilities(shard)).orElse(null));
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
            io.netty.handler.ssl.SslHandler ssl = ctx.pipeline().get(io.netty.handler.ssl.SslHandler.class);
            if (state != State.COMMAND && ssl != null && !ssl.handshakeFuture().isSuccess()) {
                // An SSL request and no TLS handshake after it: no ERR can reach the client (it would wait in the
                // TLS handler until that gives up, 10 s later); the connection just closes.
                state = State.CLOSED;
                ctx.close();
                return;
            }
            if (state != State.COMMAND && ctx.channel().isActive()) {
                sendErrorAndClose(0, ErrPacket.of(ErrorCode.HANDSHAKE_ERROR, "no authentication within "
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
                        runCommand(packet.retain());
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
        sendErrorAndClose(sequence, ErrPacket.of(ErrorCode.ACCESS_DENIED, response.user(), clientHost(),
                passwordGiven ? "YES" : "NO"));
    }

    private void finishAuth(int sequence) {
        String host = clientHost();
        if (user.requireTls() && !tls) {
            context.metrics().authFailed();
            sendErrorAndClose(sequence, ErrPacket.of(ErrorCode.INSECURE_TRANSPORT, response.user()));
            return;
        }
        long negotiated = response.capabilities();
        session = new ClientSession(connectionId, ctx.channel(), response.user(), host, negotiated, response.database(),
                response.charset(), context.config().limits().maxPreparedStatements());
        context.registry().register(session);
        handshakeTimeout.cancel(false);
        if (!response.database().isEmpty()) {
            // Connecting with a schema fails at once if the schema is unknown, as on a server.
            busy = true;
            ctx.channel().config().setAutoRead(false);
            router.backendFor(session, ctx.channel().eventLoop(), null, false, false).whenComplete((backend, error) -> ctx.executor().execute(() -> {
                if (error != null) {
                    sendErrorAndClose(sequence, context.errors().translate(error).packet());
                    return;
                }
                router.commandFinished(session);
                authenticated(sequence);
            }));
            return;
        }
        authenticated(sequence);
    }

    private void authenticated(int sequence) {
        state = State.COMMAND;
        sharded = context.sharding().map(deployment -> new ShardedCommands(context, deployment, session)).orElse(null);
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

    /**
     * Runs one command ({@code packet} is owned by this method). A command must start at sequence id
     * 0; one that does not is refused as MariaDB refuses it (forwarded as it is, the backend would
     * close on it with the command unanswered). A command that fails before anything of it is in
     * flight gets its error here, on the client's side: thrown from a queued command, the exception
     * would otherwise surface in whichever backend pipeline completed the previous command.
     */
    private void runCommand(MySqlPacket packet) {
        if (packet.sequenceId() != 0) {
            int sequence = packet.sequenceId();
            packet.release();
            sendErrorAndClose(sequence + 1, ErrPacket.of(ErrorCode.PACKETS_OUT_OF_ORDER));
            return;
        }
        try {
            command(packet);
        } catch (RuntimeException | LinkageError e) {
            // A LinkageError too (a class missing from the package): escaping to the event loop, it would leave the client unanswered.
            commandFailed(e);
        }
    }

    private void commandFailed(Throwable cause) {
        ErrorTranslator.Translation translation = context.errors().translate(cause);
        if (translation.packet().errno() == ErrorCode.INTERNAL.errno()) {
            LOG.log(System.Logger.Level.ERROR, "connection " + connectionId + ": internal error", cause);
        } else {
            LOG.log(System.Logger.Level.DEBUG, "connection " + connectionId + ": " + cause);
        }
        if (translation.closeConnection()) {
            sendErrorAndClose(1, translation.packet());
            return;
        }
        writeError(1, translation.packet());
        afterCommand();
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
                // Read in the client's character set, losslessly; the packet itself goes on unchanged unless rewritten.
                ClientCharset charset = session.clientCharset();
                String sql = statementText(charset, packet);
                Optional<KillStatement> kill = KillStatement.parse(sql);
                if (kill.isPresent()) {
                    packet.release();
                    runLocal(router.kill(session, kill.get().connectionId(), kill.get().queryOnly()));
                    return;
                }
                Optional<ShardgateStatement> own = ShardgateStatement.parse(sql);
                if (own.isPresent()) {
                    packet.release();
                    answer(own.get());
                    return;
                }
                Classification classification = classifier.classify(sql);
                LocalResultSet ddlWarnings = sharded == null ? null : sharded.ddlWarnings(sql, classification);
                if (ddlWarnings != null) {
                    packet.release();
                    writeResult(ddlWarnings);
                    return;
                }
                if (isNextTransactionOnly(classification, sql)) {
                    // Runs right before the session's next statement, on whichever backend that goes to.
                    packet.release();
                    session.nextTransaction(sql, classification.transactionKind() == TransactionKind.SET_TRANSACTION_READ_ONLY);
                    writeOk(1);
                    return;
                }
                java.util.Map<String, String> ddlStatements = java.util.Map.of();
                if (classification.statementClass() == StatementClass.WRITE) {
                    DdlGate.Outcome ddl = ddlGate.check(sql, session.allowBlockingDdl());
                    if (ddl != null) {
                        ddlStatements = ddl.perShard();
                    }
                    if (ddl != null && ddl.refusal() != null) {
                        packet.release();
                        writeError(1, ddl.refusal());
                        return;
                    }
                    if (ddl != null && !ddl.sql().equals(sql)) {
                        byte[] edited;
                        try {
                            if (!exact(charset, packet, sql)) {
                                throw ClientCharset.UnmappableTextException.invalid(charset);
                            }
                            // The validator's edits add ASCII clauses; the rest is the client's text, encoded back exactly.
                            edited = charset.encode(ddl.sql());
                        } catch (ClientCharset.UnmappableTextException e) {
                            packet.release();
                            writeError(1, context.errors().translate(e).packet());
                            return;
                        }
                        packet.release();
                        sql = ddl.sql();
                        packet = MySqlPacket.command(Command.QUERY, edited);
                    }
                }
                session.trackingChange(TrackingChange.of(sql));
                if (sharded != null && shardedQuery(packet, sql, classification, ddlStatements)) {
                    return;
                }
                MySqlPacket rewritten = rewritten(packet, sql);
                if (rewritten == null) {
                    return;
                }
                forward(rewritten, new Pending(command, classification, null, classification.effects().readsLastInsertId(), 0, null)
                        .withTemporaryTables(TemporaryTableNames.of(sql, classification.temporaryTable() != TemporaryTable.NONE))
                        .withDiagnostics(classification.effects().readsDiagnostics()));
            }
            case CHANGE_USER -> changeUser(packet);
            case STMT_PREPARE -> prepare(packet);
            case STMT_EXECUTE, STMT_BULK_EXECUTE, STMT_FETCH, STMT_SEND_LONG_DATA -> statementCommand(packet, command);
            case STMT_RESET -> statementReset(packet);
            case STMT_CLOSE -> statementClose(packet);
            case RESET_CONNECTION -> {
                packet.release();
                if (sharded != null) {
                    sharded.close();
                    sharded = context.sharding().map(deployment -> new ShardedCommands(context, deployment, session)).orElse(null);
                }
                router.endSession(session, true);
                session.reset();
                writeOk(1);
            }
            case SET_OPTION -> {
                // The multi-statement option lives on the backend connection: keep that one.
                session.pins().add(SessionPin.STATEMENT_OPTION);
                forward(packet, Pending.of(command));
            }
            case INIT_DB, FIELD_LIST, STATISTICS, DEBUG -> forward(packet, Pending.of(command));
            default -> {
                packet.release();
                writeError(1, ErrPacket.of(ErrorCode.UNKNOWN_COMMAND));
            }
        }
    }

    /**
     * A statement in a sharded deployment: planned and run across shards, or a transaction
     * statement for the session's shard branches. False when it runs the usual way instead (session
     * statements, on the first shard).
     */
    private boolean shardedQuery(MySqlPacket packet, String sql, Classification classification,
                                 java.util.Map<String, String> perShard) {
        if (classification.statementClass() == StatementClass.TRANSACTION) {
            return shardedTransaction(packet, classification, () -> {
                MySqlPacket rewritten = rewritten(packet, sql);
                if (rewritten != null) {
                    forward(rewritten, new Pending(Command.QUERY, classification, null, false, 0, null));
                } else {
                    afterCommand();
                }
            });
        }
        if (!ShardedCommands.planned(classification)) {
            return false;
        }
        ClientCharset charset = session.clientCharset();
        boolean exact = exact(charset, packet, sql);
        packet.release();
        if (!exact) {
            // Planned text goes to the shards encoded back: only text that round-trips exactly may be planned.
            writeError(1, context.errors().translate(ClientCharset.UnmappableTextException.invalid(charset)).packet());
            return true;
        }
        runSharded(sharded.query(session, QueryRewriter.rewrite(sql, connectionId, session.noBackslashEscapes()), classification,
                perShard));
        return true;
    }

    /**
     * The query packet with the rewrites its statement needs (the packet itself when none). Null
     * when it cannot be rewritten exactly: the packet is released and the client has its ERR.
     */
    private MySqlPacket rewritten(MySqlPacket packet, String sql) {
        try {
            return QueryRewriter.rewrite(packet, sql, session.clientCharset(), connectionId, session.noBackslashEscapes());
        } catch (ClientCharset.UnmappableTextException e) {
            packet.release();
            writeError(1, context.errors().translate(e).packet());
            return null;
        }
    }

    /**
     * A transaction statement in a sharded deployment, as a query or a prepared statement: BEGIN,
     * COMMIT and ROLLBACK act on the session's shard branches; SET autocommit=1 commits them and then
     * runs as usual ({@code forwardIt}). False when the statement runs the usual way instead.
     */
    private boolean shardedTransaction(MySqlPacket packet, Classification classification, Runnable forwardIt) {
        ShardedCommands.TransactionAction action = ShardedCommands.transactionAction(classification, sharded.sharded().inTransaction());
        if (action == ShardedCommands.TransactionAction.FORWARD) {
            return false;
        }
        if (action == ShardedCommands.TransactionAction.COMMIT_THEN_FORWARD) {
            busy = true;
            sharded.transaction(session, action).whenComplete((ok, error) -> onLoop(() -> {
                if (error != null) {
                    packet.release();
                    finishSharded(null, error);
                    return;
                }
                session.status(sharded.sharded().status(ShardedCommands.autocommit(session)));
                forwardIt.run();
            }));
            return true;
        }
        packet.release();
        runSharded(sharded.transaction(session, action));
        return true;
    }

    /** Runs a sharded command: the worker writes its response; this writes an OK or ERR when it did not. */
    private void runSharded(CompletableFuture<?> work) {
        busy = true;
        work.whenComplete((result, error) -> onLoop(() -> finishSharded(result, error)));
    }

    private void finishSharded(Object result, Throwable error) {
        if (session == null) {
            commandDone();
            return;
        }
        session.status(sharded.sharded().status(ShardedCommands.autocommit(session)));
        if (error != null) {
            ErrorTranslator.Translation translation = context.errors().translate(error);
            if (ErrorTranslator.fromBackend(error)) {
                context.metrics().backendError(translation.packet().errno());
            }
            if (translation.closeConnection()) {
                LOG.log(System.Logger.Level.ERROR, "connection " + connectionId + ": sharded statement failed", error);
                sendErrorAndClose(sharded.out().nextSequence(), translation.packet());
                return;
            }
            writeError(sharded.out().nextSequence(), translation.packet());
        } else if (result instanceof io.shardgate.proxy.sharding.StatementOutcome outcome) {
            if (outcome.relayedErrno() != 0) {
                context.metrics().backendError(outcome.relayedErrno());
                context.metrics().error(outcome.relayedErrno());
            }
            if (outcome.lastInsertId() != 0) {
                session.lastInsertId(outcome.lastInsertId());
            }
        } else {
            writeOk(1);
        }
        afterCommand();
    }

    /** SET TRANSACTION without SESSION or GLOBAL: it applies to the next transaction only. */
    private static boolean isNextTransactionOnly(Classification classification, String sql) {
        TransactionKind kind = classification.transactionKind();
        return !classification.multiStatement() && (kind == TransactionKind.SET_TRANSACTION_READ_ONLY
                || kind == TransactionKind.SET_TRANSACTION_READ_WRITE || kind == TransactionKind.SET_TRANSACTION_ISOLATION)
                && StatementEnd.startsWith(sql, "SET", "TRANSACTION");
    }

    /** Answers a statement Shardgate handles itself. */
    private void answer(ShardgateStatement statement) {
        if (statement instanceof ShardgateStatement.SetAllowBlockingDdl set) {
            session.allowBlockingDdl(set.allowed());
            writeOk(1);
        } else if (statement instanceof ShardgateStatement.SetMaxLag set) {
            session.maxLagMs(set.millis());
            writeOk(1);
        } else if (statement instanceof ShardgateStatement.GetMaxLag) {
            writeResult(new LocalResultSet(List.of("@@shardgate_max_lag_ms"),
                    List.of(List.of(Long.toString(session.maxLagMs().orElse(context.config().routing().maxReplicaLagMs()))))));
        } else if (statement instanceof ShardgateStatement.GetCausalToken) {
            writeResult(new LocalResultSet(List.of("@@shardgate_causal_token"),
                    List.of(List.of(CausalTokens.current(context, session)))));
        } else if (statement instanceof ShardgateStatement.SetCausalToken set) {
            try {
                CausalTokens.present(context, session, set.token());
                writeOk(1);
            } catch (IllegalArgumentException e) {
                writeError(1, ErrPacket.of(ErrorCode.WRONG_VALUE_FOR_VARIABLE, "shardgate_causal_token", set.token()));
            }
        } else {
            List<List<String>> rows = new java.util.ArrayList<>();
            for (BackendRow row : context.report().rows()) {
                rows.add(java.util.Arrays.asList(row.shard(), row.role(), row.address(), row.state(),
                        row.lagMs() == null ? null : Long.toString(row.lagMs()), Integer.toString(row.inFlight()),
                        Long.toString(row.served()), row.position(), row.lastError()));
            }
            writeResult(new LocalResultSet(List.of("shard", "role", "address", "state", "lag_ms", "in_flight", "served",
                    "gtid_position", "last_error"), rows));
        }
    }

    private void writeResult(LocalResultSet result) {
        for (MySqlPacket packet : result.encode(ctx.alloc(), session.capabilities(), session.status())) {
            ctx.write(packet);
        }
        ctx.flush();
    }

    /** The statement of a COM_QUERY or COM_STMT_PREPARE packet, read in the client's character set. */
    private static String statementText(ClientCharset charset, MySqlPacket packet) {
        ByteBuf payload = packet.payload();
        return charset.decode(payload, payload.readerIndex() + 1, Math.max(0, payload.readableBytes() - 1));
    }

    /** Whether {@code sql}, read from {@code packet}, encodes back to its bytes (copied only for a charset that may not). */
    private static boolean exact(ClientCharset charset, MySqlPacket packet, String sql) {
        return charset.lossless() || charset.exact(statementBytes(packet), sql);
    }

    /** The statement of a COM_QUERY or COM_STMT_PREPARE packet: its bytes after the command byte. */
    private static byte[] statementBytes(MySqlPacket packet) {
        ByteBuf payload = packet.payload();
        byte[] bytes = new byte[Math.max(0, payload.readableBytes() - 1)];
        payload.getBytes(payload.readerIndex() + 1, bytes);
        return bytes;
    }


    /** COM_STMT_PREPARE: prepared on the backend that serves it now, under an id Shardgate owns. */
    private void prepare(MySqlPacket packet) {
        if (session.statements().isFull()) {
            packet.release();
            writeError(1, ErrPacket.of(ErrorCode.TOO_MANY_PREPARED_STATEMENTS, session.statements().limit()));
            return;
        }
        ClientCharset charset = session.clientCharset();
        String sql = statementText(charset, packet);
        Classification prepared = classifier.classify(sql);
        if (prepared.statementClass() == StatementClass.WRITE) {
            // A prepared DDL statement is checked against the engines as a text one is, at PREPARE.
            DdlGate.Outcome ddl = ddlGate.check(sql, session.allowBlockingDdl());
            if (ddl != null && ddl.refusal() != null) {
                packet.release();
                writeError(1, ddl.refusal());
                return;
            }
        }
        if (sharded != null && ShardedCommands.planned(prepared)) {
            if (!exact(charset, packet, sql)) {
                packet.release();
                writeError(1, context.errors().translate(ClientCharset.UnmappableTextException.invalid(charset)).packet());
                return;
            }
            // Planned, then described by a shard the plan routes to (the first shard may not hold the table).
            packet.release();
            int id = session.statements().reserveId();
            busy = true;
            sharded.prepare(session, sql, prepared).whenComplete((metadata, error) -> onLoop(() -> shardedPrepared(id, sql,
                    prepared, metadata, error)));
            return;
        }
        int id = session.statements().reserveId();
        forward(packet, new Pending(Command.STMT_PREPARE, classifier.classify(sql), null, false, id, sql));
    }

    private void shardedPrepared(int id, String sql, Classification classification, io.shardgate.proxy.sharding.ShardedPrepare.Metadata metadata,
                                 Throwable error) {
        if (session == null) {
            commandDone();
            return;
        }
        if (error != null) {
            failBeforeResponse(new Pending(Command.STMT_PREPARE, classification, null, false, id, sql),
                    error instanceof java.util.concurrent.CompletionException && error.getCause() != null ? error.getCause() : error);
            return;
        }
        session.statements().add(id, sql, session.schema(), metadata.parameters(), classification);
        int sequence = 1;
        for (ByteBuf payload : metadata.payloads(id, Capabilities.has(session.capabilities(), Capabilities.CLIENT_DEPRECATE_EOF),
                session.status(), ctx.alloc())) {
            ctx.write(new MySqlPacket(sequence++, payload));
        }
        ctx.flush();
        afterCommand();
    }

    private void statementCommand(MySqlPacket packet, Command command) {
        io.shardgate.errors.ShardgateException malformed = StatementPacketCheck.statementId(packet.payload(), command);
        if (malformed != null) {
            packet.release();
            throw malformed;
        }
        int id = StatementPackets.statementId(packet.payload());
        Optional<ClientStatement> found = session.statements().find(id);
        if (found.isEmpty()) {
            packet.release();
            if (command != Command.STMT_SEND_LONG_DATA) { // it has no response; the execute reports the error
                writeError(1, ErrPacket.of(ErrorCode.UNKNOWN_STATEMENT, Integer.toUnsignedLong(id), commandName(command)));
            }
            return;
        }
        ClientStatement statement = found.get();
        // Checked before anything of it reaches a backend, which must only see packets it answers as expected.
        io.shardgate.errors.ShardgateException refused = StatementPacketCheck.check(packet.payload(), command, statement,
                session.longData().contains(statement.id()) || (sharded != null && sharded.hasLongData(statement.id())));
        if (refused != null) {
            packet.release();
            throw refused;
        }
        if (sharded != null && ShardedCommands.planned(statement.classification())) {
            shardedStatementCommand(packet, command, statement);
            return;
        }
        if (sharded != null && command == Command.STMT_EXECUTE && statement.classification().statementClass() == StatementClass.TRANSACTION) {
            MySqlPacket execute = packet;
            if (shardedTransaction(packet, statement.classification(), () -> forward(execute, new Pending(command,
                    statement.classification(), statement, false, 0, null)))) {
                return;
            }
        }
        if (command == Command.STMT_FETCH && !session.cursors().contains(statement.id())) {
            packet.release();
            writeError(1, ErrPacket.of(ErrorCode.NO_OPEN_CURSOR, statement.id()));
            return;
        }
        if (command == Command.STMT_SEND_LONG_DATA) {
            session.longData().add(statement.id());
        }
        session.trackingChange(command == Command.STMT_EXECUTE ? TrackingChange.of(statement.sql()) : null);
        forward(packet, new Pending(command, statement.classification(), statement,
                command != Command.STMT_FETCH && statement.classification().effects().readsLastInsertId(), 0, null));
    }

    private void shardedStatementCommand(MySqlPacket packet, Command command, ClientStatement statement) {
        try {
            switch (command) {
                case STMT_SEND_LONG_DATA -> sharded.longData(statement.id(), packet.payload());
                case STMT_EXECUTE -> {
                    java.util.Map<String, String> perShard = java.util.Map.of();
                    if (statement.classification().statementClass() == StatementClass.WRITE) {
                        DdlGate.Outcome ddl = ddlGate.check(statement.sql(), session.allowBlockingDdl());
                        if (ddl != null && ddl.refusal() != null) {
                            // The session's allowance may have changed since PREPARE.
                            writeError(1, ddl.refusal());
                            return;
                        }
                        perShard = ddl == null ? perShard : ddl.perShard();
                    }
                    runSharded(sharded.execute(session, statement, packet.payload(), perShard));
                }
                case STMT_FETCH -> writeError(1, ErrPacket.of(ErrorCode.NO_OPEN_CURSOR, statement.id()));
                default -> writeError(1, ErrPacket.of(ErrorCode.UNSUPPORTED, commandName(command) + " in a sharded deployment"));
            }
        } finally {
            packet.release();
        }
    }

    private static String commandName(Command command) {
        return switch (command) {
            case STMT_EXECUTE, STMT_BULK_EXECUTE -> "mysqld_stmt_execute";
            case STMT_FETCH -> "mysqld_stmt_fetch";
            case STMT_RESET -> "mysqld_stmt_reset";
            default -> "mysqld_stmt_send_long_data";
        };
    }

    /** COM_STMT_RESET: only a statement with a cursor or long data has anything to reset on its backend. */
    private void statementReset(MySqlPacket packet) {
        int id = StatementPackets.hasStatementId(packet.payload()) ? StatementPackets.statementId(packet.payload()) : 0;
        Optional<ClientStatement> found = session.statements().find(id);
        if (found.isEmpty()) {
            packet.release();
            writeError(1, ErrPacket.of(ErrorCode.UNKNOWN_STATEMENT, Integer.toUnsignedLong(id), "mysqld_stmt_reset"));
            return;
        }
        ClientStatement statement = found.get();
        if (sharded != null) {
            sharded.forget(statement.id());
        }
        if (session.backend() != null && (session.cursors().contains(statement.id()) || session.longData().contains(statement.id()))) {
            forward(packet, new Pending(Command.STMT_RESET, statement.classification(), statement, false, 0, null));
            return;
        }
        packet.release();
        writeOk(1);
    }

    /** COM_STMT_CLOSE: forgets the statement; the backend keeps it cached for other sessions. No response. */
    private void statementClose(MySqlPacket packet) {
        int id = StatementPackets.hasStatementId(packet.payload()) ? StatementPackets.statementId(packet.payload()) : 0;
        packet.release();
        Optional<ClientStatement> removed = session.statements().remove(id);
        if (removed.isEmpty()) {
            return;
        }
        if (sharded != null) {
            sharded.forget(removed.get().id());
        }
        int statementId = removed.get().id();
        BackendConnection backend = session.backend();
        boolean open = session.cursors().remove(statementId) | session.longData().remove(statementId);
        if (!open || backend == null) {
            return;
        }
        BackendStatement cached = backend.statements().get(removed.get().cacheKey());
        busy = true;
        CompletableFuture<Void> reset = cached == null ? CompletableFuture.completedFuture(null) : backend.resetStatement(cached.id());
        reset.whenComplete((ok, error) -> onLoop(() -> {
            if (error != null) {
                backend.markUntracked();
            }
            afterCommand();
        }));
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
        router.endSession(session, true);
        if (sharded != null) {
            sharded.close();
            sharded = null;
        }
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

    /** Runs this connection's forwarded commands (one at a time); made on the first. */
    private Forwarder<Pending> forwarder;

    private Forwarder<Pending> forwarder() {
        if (forwarder == null) {
            forwarder = new Forwarder<>(ctx.channel(), new ClientChannel(ctx.channel(), session.capabilities()), context.metrics(),
                    new SessionHost(), "connection " + connectionId);
        }
        return forwarder;
    }

    private void forward(MySqlPacket packet, Pending pending) {
        busy = true;
        forwarder().forward(packet, pending);
    }

    private void failBeforeResponse(Pending pending, Throwable error) {
        if (pending.command() == Command.STMT_PREPARE) {
            session.statements().prepareFailed();
        }
        if (pending.command() == Command.STMT_SEND_LONG_DATA) {
            // No response is allowed: the next execute of this statement reports the failure.
            afterCommand();
            return;
        }
        writeError(1, context.errors().translate(error).packet());
        afterCommand();
    }

    /** What a forwarded command means for this client's session ({@link Forwarder} runs it). */
    private final class SessionHost implements Forwarder.Host<Pending> {
        @Override
        public CompletableFuture<BackendConnection> backendFor(Pending pending) {
            return router.backendFor(session, ctx.channel().eventLoop(), pending.routedBy(), pending.needsLastInsertId(),
                    pending.readsDiagnostics());
        }

        @Override
        public boolean inTransaction() {
            return session.inTransaction();
        }

        @Override
        public boolean bindsOnlyForCommand(BackendConnection backend) {
            return session.backend() == backend && !session.holdsBackend();
        }

        @Override
        public boolean gone() {
            return !ctx.channel().isActive() || state == State.CLOSED;
        }

        @Override
        public boolean active() {
            return session != null;
        }

        @Override
        public void abandon() {
            if (session != null) {
                router.endSession(session, false);
            }
        }

        @Override
        public void discardBackend() {
            router.discardBackend(session);
        }

        @Override
        public void close() {
            state = State.CLOSED;
            ctx.close();
        }

        @Override
        public ClientCharset charset() {
            return session.clientCharset();
        }

        @Override
        public MySqlPacket forBackend(MySqlPacket packet, ClientStatement statement, BackendStatement prepared) {
            return StatementRewriter.forBackend(packet, statement, prepared, ctx.alloc());
        }

        @Override
        public Forwarder.Response response(Pending pending, BackendConnection backend) {
            return new ForwardedResponse(context, session, sharded, backend, pending, ctx.alloc(),
                    target -> localInfileTarget = target);
        }

        @Override
        public void failBeforeResponse(Pending pending, Throwable error) {
            FrontendHandler.this.failBeforeResponse(pending, error);
        }

        @Override
        public void afterCommand() {
            FrontendHandler.this.afterCommand();
        }

        @Override
        public void lost(Pending pending, Throwable cause, boolean started) {
            // Whatever lived on that connection is gone with it.
            session.cursors().clear();
            session.longData().clear();
            if (started) {
                // Part of a response already reached the client: the only consistent end is a close.
                close();
                return;
            }
            if (pending.command() == Command.STMT_PREPARE) {
                session.statements().prepareFailed();
            }
            if (!pending.command().hasNoResponse()) {
                writeError(1, context.errors().translate(cause).packet());
            }
            commandDone();
        }
    }

    /** After a command: the session lets go of its backend connection unless it must hold it, then runs the next. */
    private void afterCommand() {
        if (session == null) {
            commandDone();
            return;
        }
        if (state == State.CLOSED) {
            // The client is gone or going: nothing may keep a backend connection for it (channelInactive may have run already).
            router.endSession(session, false);
            commandDone();
            return;
        }
        CompletableFuture<Void> finished = router.commandFinished(session);
        if (finished.isDone()) {
            commandDone();
        } else {
            finished.whenComplete((ok, error) -> onLoop(this::commandDone));
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
            runCommand(queued.poll());
        }
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) {
        if (forwarder != null) {
            forwarder.out().writabilityChanged();
        }
        if (sharded != null) {
            sharded.out().writabilityChanged();
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
            router.endSession(session, false);
        }
        if (forwarder != null) {
            // A backend connection paused for this client's socket resumes, finishes its response and goes back to its pool.
            forwarder.out().writabilityChanged();
        }
        if (sharded != null) {
            // A shard connection paused for this client's socket resumes, finishes its response and goes back to its pool.
            sharded.out().writabilityChanged();
            sharded.close();
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
        if (cause instanceof io.shardgate.proxy.protocol.PacketDecoder.PacketTooLargeException tooLarge) {
            // A split packet over the limit: the client has sent pieces 0..n and waits for n + 1.
            sequence = tooLarge.sequenceId() + 1;
        }
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
