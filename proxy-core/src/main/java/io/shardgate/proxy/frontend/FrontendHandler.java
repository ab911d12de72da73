package io.shardgate.proxy.frontend;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.timeout.IdleStateEvent;
import io.shardgate.proxy.backend.BackendConnection;
import io.shardgate.proxy.backend.ResponseSink;
import io.shardgate.proxy.error.ErrorCode;
import io.shardgate.proxy.error.ErrorTranslator;
import io.shardgate.proxy.protocol.Capabilities;
import io.shardgate.proxy.protocol.ClientCharset;
import io.shardgate.proxy.protocol.Command;
import io.shardgate.proxy.protocol.ErrPacket;
import io.shardgate.proxy.protocol.MySqlPacket;
import io.shardgate.proxy.protocol.OkPacket;
import io.shardgate.proxy.protocol.ServerStatus;
import io.shardgate.proxy.protocol.SessionStateInfo;
import io.shardgate.proxy.protocol.StatementPackets;
import io.shardgate.proxy.backend.BackendStatement;
import io.shardgate.proxy.session.ClientStatement;
import io.shardgate.router.classify.Classification;
import io.shardgate.proxy.protocol.LocalResultSet;
import io.shardgate.proxy.routing.EngineHealth;
import java.util.List;

import java.util.ArrayDeque;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;

/**
 * One authenticated client connection: its commands. Commands run one at a time; packets a client
 * sends while one runs wait in order. Responses stream from the backend packet by packet, and the
 * backend is not read while the client cannot take more (backpressure). {@link ConnectionPhaseHandler}
 * puts it in the pipeline with the authenticated session once the client is logged in.
 *
 * <p>Runs on the client channel's event loop; backend callbacks hop onto it.
 */
final class FrontendHandler extends ChannelInboundHandlerAdapter implements CommandScope {
    private static final System.Logger LOG = System.getLogger(FrontendHandler.class.getName());

    /** COMMAND: serving commands; CHANGE_USER: a COM_CHANGE_USER's authentication is under way. */
    private enum State { COMMAND, CHANGE_USER, CLOSED }

    private final FrontendContext context;
    private final ArrayDeque<MySqlPacket> queued = new ArrayDeque<>();
    private final CommandRouter router;
    private final long connectionId;
    private final StatementRunner runner;
    private final Commands commands;
    private ChannelHandlerContext ctx;
    private State state = State.COMMAND;
    private Consumer<MySqlPacket> exchange;
    private BackendConnection localInfileTarget;
    private ClientSession session;
    private boolean busy;
    private boolean responseStarted;
    /** The backend connection whose reads wait for the client's socket to drain; null when none. */
    private volatile BackendConnection paused;
    /** The session's sharded commands, in a sharded deployment; null otherwise. */
    private ShardedCommands sharded;

    FrontendHandler(FrontendContext context, CommandRouter router, Login login) {
        this(context, router, login, null, ddlGate(context));
    }

    /** With {@code runner} in place of the relay to the backends (null: the relay) and the given DDL gate; for tests. */
    FrontendHandler(FrontendContext context, CommandRouter router, Login login, StatementRunner runner, DdlGate ddlGate) {
        this.context = context;
        this.router = router;
        this.connectionId = login.connectionId();
        this.session = login.session();
        this.runner = runner == null ? new Relaying() : runner;
        this.commands = new Commands(this, login, ddlGate);
    }

    /** DDL goes to every shard, checked against each one's engine when engine health knows it. */
    private static DdlGate ddlGate(FrontendContext context) {
        List<String> ddlShards = context.sharding().map(deployment -> deployment.schema().shardNames())
                .orElse(List.of(context.backends().shard()));
        return new DdlGate(ddlShards, context.backends().health().map(EngineHealth::ddlValidator).orElse(null),
                shard -> context.backends().health().map(health -> health.primaryCapabilities(shard)).orElse(null));
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        this.ctx = ctx;
        sharded = context.sharding().map(deployment -> new ShardedCommands(context, deployment, session)).orElse(null);
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        MySqlPacket packet = (MySqlPacket) msg;
        try {
            switch (state) {
                case CHANGE_USER -> exchange.accept(packet);
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

    @Override
    public FrontendContext context() {
        return context;
    }

    @Override
    public ChannelHandlerContext ctx() {
        return ctx;
    }

    @Override
    public ClientSession session() {
        return session;
    }

    @Override
    public void session(ClientSession session) {
        this.session = session;
    }

    @Override
    public ShardedCommands sharded() {
        return sharded;
    }

    @Override
    public void sharded(ShardedCommands sharded) {
        this.sharded = sharded;
    }

    @Override
    public CommandRouter router() {
        return router;
    }

    @Override
    public StatementRunner runner() {
        return runner;
    }

    @Override
    public void busy() {
        busy = true;
    }

    @Override
    public void close() {
        state = State.CLOSED;
        ctx.close();
    }

    @Override
    public void exchange(Consumer<MySqlPacket> exchange) {
        this.exchange = exchange;
        state = exchange == null ? State.COMMAND : State.CHANGE_USER;
    }

    /** The {@link StatementRunner} over this handler's relay ({@link #forward}). */
    private final class Relaying implements StatementRunner {
        @Override
        public void forward(MySqlPacket packet, Command command) {
            FrontendHandler.this.forward(packet, Pending.of(command));
        }

        @Override
        public void query(MySqlPacket packet, Classification classification, boolean needsLastInsertId,
                          TemporaryTableNames.Change temporaryTables, boolean readsDiagnostics) {
            FrontendHandler.this.forward(packet, new Pending(Command.QUERY, classification, null, needsLastInsertId, 0, null)
                    .withTemporaryTables(temporaryTables).withDiagnostics(readsDiagnostics));
        }

        @Override
        public void prepare(MySqlPacket packet, Classification classification, int id, String sql) {
            FrontendHandler.this.forward(packet, new Pending(Command.STMT_PREPARE, classification, null, false, id, sql));
        }

        @Override
        public void prepareFailed(Classification classification, int id, String sql, Throwable error) {
            failBeforeResponse(new Pending(Command.STMT_PREPARE, classification, null, false, id, sql), error);
        }

        @Override
        public void statement(MySqlPacket packet, Command command, ClientStatement statement, boolean needsLastInsertId) {
            FrontendHandler.this.forward(packet, new Pending(command, statement.classification(), statement, needsLastInsertId,
                    0, null));
        }
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
            sendErrorAndClose(sequence + 1, ErrorCode.PACKETS_OUT_OF_ORDER.packet());
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
        ErrorTranslator.Translation translation = translated(cause);
        if (translation.closeConnection()) {
            sendErrorAndClose(1, translation.packet());
            return;
        }
        writeError(1, translation.packet());
        afterCommand();
    }

    /** The ERR for {@code cause}, logged: an internal error with its stack, anything else briefly. */
    private ErrorTranslator.Translation translated(Throwable cause) {
        ErrorTranslator.Translation translation = context.errors().translate(cause);
        if (translation.packet().errno() == ErrorCode.INTERNAL.errno()) {
            LOG.log(System.Logger.Level.ERROR, "connection " + connectionId + ": internal error", cause);
        } else {
            LOG.log(System.Logger.Level.DEBUG, "connection " + connectionId + ": " + cause);
        }
        return translation;
    }

    /** Runs one command; {@code packet} is owned by this method. */
    private void command(MySqlPacket packet) {
        Command command = Command.of(packet.header());
        context.metrics().command(command);
        commands.executor(command).execute(packet);
    }

    @Override
    public void writeResult(LocalResultSet result) {
        for (MySqlPacket packet : result.encode(ctx.alloc(), session.capabilities(), session.status())) {
            ctx.write(packet);
        }
        ctx.flush();
    }

    /**
     * What a forwarded command needs after its response: the statement's classification (COM_QUERY),
     * the prepared statement it runs (execute, fetch, long data, reset), or the id and SQL of a
     * statement being prepared.
     */
    private record Pending(Command command, Classification classification, ClientStatement statement,
                           boolean needsLastInsertId, int preparedId, String preparedSql, boolean retried,
                           TemporaryTableNames.Change temporaryTables, boolean readsDiagnostics) {
        Pending(Command command, Classification classification, ClientStatement statement, boolean needsLastInsertId,
                int preparedId, String preparedSql) {
            this(command, classification, statement, needsLastInsertId, preparedId, preparedSql, false, null, false);
        }

        Pending withTemporaryTables(TemporaryTableNames.Change change) {
            return change == null ? this : new Pending(command, classification, statement, needsLastInsertId, preparedId,
                    preparedSql, retried, change, readsDiagnostics);
        }

        Pending withDiagnostics(boolean diagnostics) {
            return !diagnostics ? this : new Pending(command, classification, statement, needsLastInsertId, preparedId,
                    preparedSql, retried, temporaryTables, true);
        }

        static Pending of(Command command) {
            return new Pending(command, null, null, false, 0, null);
        }

        /** The same command sent again after its replica failed: this time to the primary. */
        Pending retry() {
            return new Pending(command, classification, statement, needsLastInsertId, preparedId, preparedSql, true,
                    temporaryTables, readsDiagnostics);
        }
    }

    private void forward(MySqlPacket packet, Pending pending) {
        busy = true;
        responseStarted = false;
        boolean wasInTransaction = session.inTransaction();
        router.backendFor(session, ctx.channel().eventLoop(), routedBy(pending), pending.needsLastInsertId(),
                        pending.readsDiagnostics())
                .whenComplete((backend, error) -> step(pending, () -> {
            if (error != null) {
                packet.release();
                failBeforeResponse(pending, error);
                return;
            }
            if (!ctx.channel().isActive() || state == State.CLOSED) {
                packet.release();
                // The client left while its connection was being found: channelInactive had none to give back.
                if (session != null) {
                    router.endSession(session, false);
                }
                return;
            }
            // An autocommit read on a replica can be sent again elsewhere if the replica fails before answering.
            MySqlPacket retry = !wasInTransaction && isReplica(backend) && session.backend() == backend
                    && !session.holdsBackend() ? packet : null;
            MySqlPacket send = retry == null ? packet : new MySqlPacket(packet.sequenceId(), packet.payload().retainedDuplicate());
            if (pending.statement() == null) {
                backend.execute(send, pending.command(), new Relay(backend, pending, retry));
                return;
            }
            preparedOn(backend, pending.statement()).whenComplete((prepared, failure) -> step(pending, () -> {
                if (failure != null) {
                    send.release();
                    if (retry != null) {
                        retry.release();
                    }
                    failBeforeResponse(pending, failure);
                    return;
                }
                MySqlPacket out = StatementRewriter.forBackend(send, pending.statement(), prepared, ctx.alloc());
                backend.execute(out, pending.command(), new Relay(backend, pending, retry));
            }));
        }));
    }

    private static boolean isReplica(BackendConnection backend) {
        return "replica".equals(backend.target().role());
    }

    /**
     * Runs a step of a forwarded command on the client's loop. A step that throws must not leave
     * the session busy for ever (a CompletableFuture callback's exception goes nowhere): the
     * command ends with an error, and the backend connection, whose protocol state is unknown
     * now, is closed.
     */
    private void step(Pending pending, Runnable action) {
        onLoop(() -> {
            try {
                action.run();
            } catch (RuntimeException | LinkageError e) {
                LOG.log(System.Logger.Level.ERROR, "connection " + connectionId + ": " + pending.command() + " failed", e);
                if (session == null) {
                    return;
                }
                router.discardBackend(session);
                if (responseStarted) {
                    state = State.CLOSED;
                    ctx.close();
                    return;
                }
                failBeforeResponse(pending, e);
            }
        });
    }

    /** The classification that routes a command: statements by their class; other commands go to the primary. */
    private static Classification routedBy(Pending pending) {
        if (pending.retried()) {
            return null;
        }
        return switch (pending.command()) {
            case QUERY, STMT_EXECUTE, STMT_BULK_EXECUTE -> pending.classification();
            default -> null;
        };
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

    /** The backend statement serving {@code statement} on {@code backend}: cached, or prepared now. */
    private CompletableFuture<BackendStatement> preparedOn(BackendConnection backend, ClientStatement statement) {
        BackendStatement cached = backend.statements().get(statement.cacheKey());
        if (cached != null) {
            return CompletableFuture.completedFuture(cached);
        }
        String schema = backend.schema();
        boolean switchSchema = !statement.schema().isEmpty() && !statement.schema().equals(schema);
        CompletableFuture<Void> before = switchSchema ? backend.run(Command.INIT_DB, statement.schema())
                : CompletableFuture.completedFuture(null);
        // The client's statement in its character set (the connection's character_set_client follows the session's).
        ClientCharset charset = session.clientCharset();
        return before.thenCompose(ok -> backend.prepare(charset.encode(statement.sql())))
                .thenCompose(prepared -> {
                    cache(backend, statement.cacheKey(), prepared);
                    if (!switchSchema || schema == null || schema.isEmpty()) {
                        if (switchSchema) {
                            backend.schema(statement.schema());
                        }
                        return CompletableFuture.completedFuture(prepared);
                    }
                    return backend.run(Command.INIT_DB, schema).thenApply(back -> prepared);
                });
    }

    private static void cache(BackendConnection backend, String key, BackendStatement statement) {
        for (BackendStatement evicted : backend.statements().put(key, statement)) {
            backend.closeStatement(evicted.id());
        }
    }

    /**
     * Streams one command's response to the client, and notes on the way what it changes in the
     * session. {@link #packet} runs on the backend's event loop; the session is updated in
     * {@link #complete} on the client's.
     */
    private final class Relay implements ResponseSink {
        private final BackendConnection backend;
        private final Pending pending;
        private final MySqlPacket retry;
        private final long sentAtNanos = System.nanoTime();
        private final boolean clientTracksSession;
        private java.util.List<SessionStateInfo> changes;
        private long insertId;
        private int preparedBackendId = -1;
        private int preparedParameters;

        Relay(BackendConnection backend, Pending pending, MySqlPacket retry) {
            this.backend = backend;
            this.pending = pending;
            this.retry = retry;
            this.clientTracksSession = Capabilities.has(session.capabilities(), Capabilities.CLIENT_SESSION_TRACK);
        }

        @Override
        public void packet(MySqlPacket packet) {
            if (backend.localInfileRequested()) {
                // The server asks for a local file (possible only when allow_local_infile is on).
                localInfileTarget = backend;
            }
            if (backend.lastPacketWasOk()) {
                packet = noteOk(packet);
            } else if (pending.command() == Command.STMT_PREPARE && preparedBackendId < 0 && packet.header() == 0x00) {
                preparedBackendId = StatementPackets.statementId(packet.payload());
                preparedParameters = StatementPackets.prepareOkParameters(packet.payload());
                StatementPackets.statementId(packet.payload(), pending.preparedId());
            }
            if (packet.header() == ErrPacket.HEADER && packet.payload().readableBytes() >= 3
                    && pending.command() != Command.STMT_FETCH) {
                context.metrics().backendError(packet.payload().getUnsignedShortLE(packet.payload().readerIndex() + 1));
            }
            responseStarted = true;
            context.metrics().bytesOut(packet.payload().readableBytes() + 4L);
            ctx.write(packet, ctx.voidPromise());
            if (!ctx.channel().isWritable()) {
                pause(backend);
            }
        }

        /** Reads an OK's session changes and insert id; strips the state for a client that did not ask for it. */
        private MySqlPacket noteOk(MySqlPacket packet) {
            // The tracker has read the OK's head already; the session state is parsed only when there is some.
            if ((backend.okStatus() & ServerStatus.SESSION_STATE_CHANGED) != 0) {
                SessionStateInfo info = SessionStateInfo.ofOk(packet.payload());
                if (info != SessionStateInfo.NONE) {
                    if (changes == null) {
                        changes = new java.util.ArrayList<>(2);
                    }
                    changes.add(info);
                }
            }
            long id = backend.okInsertId();
            if (id != 0) {
                insertId = id;
            }
            if (sharded != null && sharded.sharded().inTransaction()) {
                // The first shard ran this outside the session's sharded transaction; the client must still see it open.
                OkPacket.addStatus(packet.payload(), ServerStatus.IN_TRANS);
            }
            if (clientTracksSession || !backend.okHasTrailer()) {
                return packet;
            }
            MySqlPacket stripped = new MySqlPacket(packet.sequenceId(),
                    SessionStateInfo.withoutSessionState(packet.payload(), ctx.alloc()));
            packet.release();
            return stripped;
        }

        @Override
        public void flush() {
            ctx.flush();
        }

        @Override
        public void complete(int status, boolean error) {
            int warnings = backend.lastWarnings();
            onLoop(() -> {
                if (paused == backend) {
                    paused = null; // the connection resumed reading itself at the response's end
                }
                try {
                    completed(status, error, warnings);
                } catch (RuntimeException | LinkageError e) {
                    // The response went out, but the session's bookkeeping did not follow it: the only consistent end is a close.
                    LOG.log(System.Logger.Level.ERROR, "connection " + connectionId + ": after " + pending.command(), e);
                    if (session != null) {
                        router.discardBackend(session);
                    }
                    state = State.CLOSED;
                    ctx.close();
                }
            });
        }

        private void completed(int status, boolean error, int warnings) {
            if (retry != null) {
                retry.release();
            }
            if (session == null) {
                return;
            }
            String gtidBefore = session.lastGtid();
            SessionChanges.apply(session, backend, pending.classification(), changes, insertId, pending.temporaryTables(), error,
                    warnings);
            if (!session.lastGtid().equals(gtidBefore)) {
                context.backends().observeCommit(session.causalPosition(), sentAtNanos);
            }
            if (!pending.command().hasNoResponse()) {
                session.status(sharded == null ? status : sharded.sharded().status(ShardedCommands.autocommit(session)));
                session.backendNoBackslashEscapes((status & ServerStatus.NO_BACKSLASH_ESCAPES) != 0);
            }
            statementBookkeeping(status, error);
            if (!pending.command().hasNoResponse()) {
                ctx.flush();
            }
            afterCommand();
        }

        private void statementBookkeeping(int status, boolean error) {
            ClientStatement statement = pending.statement();
            switch (pending.command()) {
                case STMT_PREPARE -> {
                    if (error || preparedBackendId < 0) {
                        session.statements().prepareFailed();
                        return;
                    }
                    ClientStatement added = session.statements().add(pending.preparedId(), pending.preparedSql(),
                            session.schema(), preparedParameters, pending.classification());
                    if (backend.statements().get(added.cacheKey()) == null) {
                        cache(backend, added.cacheKey(), new BackendStatement(preparedBackendId, preparedParameters));
                    } else {
                        backend.closeStatement(preparedBackendId); // the connection has it already
                    }
                }
                case STMT_EXECUTE -> {
                    session.longData().remove(statement.id());
                    if (!error && (status & ServerStatus.CURSOR_EXISTS) != 0) {
                        session.cursors().add(statement.id());
                    } else {
                        session.cursors().remove(statement.id());
                    }
                }
                case STMT_FETCH -> {
                    if (error || (status & ServerStatus.LAST_ROW_SENT) != 0) {
                        session.cursors().remove(statement.id());
                    }
                }
                case STMT_RESET -> {
                    session.cursors().remove(statement.id());
                    session.longData().remove(statement.id());
                }
                default -> {
                }
            }
        }

        @Override
        public void failed(Throwable cause) {
            LOG.log(System.Logger.Level.WARNING, "connection " + connectionId + ": backend " + backend.target()
                    + " failed during " + pending.command() + (responseStarted ? " after part of the response was sent" : ""), cause);
            ctx.executor().execute(() -> {
                if (paused == backend) {
                    paused = null;
                }
                if (session == null) {
                    if (retry != null) {
                        retry.release();
                    }
                    return;
                }
                router.discardBackend(session);
                if (retry != null && !responseStarted) {
                    // Nothing reached the client yet: the read runs again, on another replica or the primary.
                    context.metrics().readRetried();
                    forward(retry, pending.retry());
                    return;
                }
                if (retry != null) {
                    retry.release();
                }
                // Whatever lived on that connection is gone with it.
                session.cursors().clear();
                session.longData().clear();
                if (responseStarted) {
                    // Part of a response already reached the client: the only consistent end is a close.
                    state = State.CLOSED;
                    ctx.close();
                    return;
                }
                if (pending.command() == Command.STMT_PREPARE) {
                    session.statements().prepareFailed();
                }
                if (!pending.command().hasNoResponse()) {
                    writeError(1, context.errors().translate(cause).packet());
                }
                commandDone();
            });
        }
    }

    /** After a command: the session lets go of its backend connection unless it must hold it, then runs the next. */
    @Override
    public void afterCommand() {
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
    @Override
    public void onLoop(Runnable action) {
        if (ctx.executor().inEventLoop()) {
            action.run();
        } else {
            ctx.executor().execute(action);
        }
    }

    @Override
    public void commandDone() {
        busy = false;
        drainQueue();
    }

    private void drainQueue() {
        while (!busy && state == State.COMMAND && !queued.isEmpty()) {
            runCommand(queued.poll());
        }
    }

    /**
     * Stops reading {@code backend} until the client's socket takes writes again. This runs on the
     * backend's event loop while {@link #channelWritabilityChanged} runs on the client's: the client
     * may drain between the caller's check and the pause, and its writability event, already run,
     * would then never resume the backend (a response stuck half way). So the pause is recorded
     * first and writability checked again after it. {@link #paused} stays set until the response
     * completes: every writability event until then resumes it, and a spurious resume only lets
     * a few more packets queue.
     */
    private void pause(BackendConnection backend) {
        paused = backend;
        backend.autoRead(false);
        if (ctx.channel().isWritable()) {
            backend.autoRead(true);
        }
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) {
        BackendConnection backend = paused;
        if (backend != null && ctx.channel().isWritable()) {
            // Not session.backend(): the session may have let go of the paused connection already
            // (the response ended in the same read).
            backend.autoRead(true);
        }
        if (sharded != null) {
            sharded.out().writabilityChanged();
        }
        ctx.fireChannelWritabilityChanged();
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
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
        MySqlPacket packet;
        while ((packet = queued.poll()) != null) {
            packet.release();
        }
        if (session != null) {
            context.registry().unregister(session);
            router.endSession(session, false);
        }
        if (sharded != null) {
            // A shard connection paused for this client's socket resumes, finishes its response and goes back to its pool.
            sharded.out().writabilityChanged();
            sharded.close();
        }
        // The connection phase reserved the slot; the command phase gives it back.
        context.registry().unreserve();
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
        ErrorTranslator.Translation translation = translated(cause);
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
    @Override
    public void writeOk(int sequence) {
        ctx.writeAndFlush(new MySqlPacket(sequence, OkPacket.of(0, 0, session.status(), 0)
                .encode(ctx.alloc(), session.capabilities())));
    }

    @Override
    public void writeError(int sequence, ErrPacket error) {
        context.metrics().error(error.errno());
        ctx.writeAndFlush(new MySqlPacket(sequence, error.encode(ctx.alloc())));
    }

    @Override
    public void sendErrorAndClose(int sequence, ErrPacket error) {
        state = State.CLOSED;
        context.metrics().error(error.errno());
        ctx.writeAndFlush(new MySqlPacket(sequence, error.encode(ctx.alloc())))
                .addListener(done -> ctx.close());
    }
}
