package io.shardgate.proxy.frontend;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.timeout.IdleStateEvent;
import io.shardgate.proxy.backend.BackendConnection;
import io.shardgate.proxy.backend.ResponseSink;
import io.shardgate.errors.ErrorCode;
import io.shardgate.proxy.error.ErrorTranslator;
import io.shardgate.proxy.execution.ClientChannel;
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
    /** The relay to the backends behind {@link #runner}; null when a test gives its own runner. */
    private final ForwardingRunner forwarding;
    /** The session's sharded commands, in a sharded deployment; null otherwise. */
    private ShardedCommands sharded;
    /** Counts this connection's statements per digest. */
    private final io.shardgate.proxy.digest.DigestRecorder digests;

    FrontendHandler(FrontendContext context, CommandRouter router, Login login) {
        this(context, router, login, null, ddlGate(context));
    }

    /** With {@code runner} in place of the relay to the backends (null: the relay) and the given DDL gate; for tests. */
    FrontendHandler(FrontendContext context, CommandRouter router, Login login, StatementRunner runner, DdlGate ddlGate) {
        this.context = context;
        this.router = router;
        this.connectionId = login.connectionId();
        this.session = login.session();
        this.forwarding = runner == null ? new ForwardingRunner(this, "connection " + connectionId,
                () -> state == State.CLOSED, target -> localInfileTarget = target) : null;
        this.runner = runner == null ? forwarding : runner;
        this.commands = new Commands(this, login, ddlGate);
        this.digests = new io.shardgate.proxy.digest.DigestRecorder(context.digests());
        session(session);
    }

    /** DDL of a sharded schema goes to every shard, checked against each one's engine when engine health knows it. */
    private static DdlGate ddlGate(FrontendContext context) {
        List<String> ddlShards = context.sharding().map(deployment -> deployment.schema().shardNames())
                .orElse(List.of(context.backends().shard()));
        return new DdlGate(ddlShards, context.backends().health().map(EngineHealth::ddlValidator).orElse(null),
                shard -> context.backends().health().map(health -> health.primaryCapabilities(shard)).orElse(null),
                schema -> context.sharding().map(deployment -> deployment.schema().schema(schema).isPresent()).orElse(false));
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
        if (session != null) {
            session.digests(digests);
        }
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
        ErrorTranslator.Translation translation = translated(cause);
        if (translation.closeConnection()) {
            sendErrorAndClose(1, translation.packet());
            return;
        }
        writeError(1, translation.packet());
        afterCommand();
    }

    /** The ERR for {@code cause}, logged by the translator for this connection. */
    private ErrorTranslator.Translation translated(Throwable cause) {
        return context.errors().translate(cause, "connection " + connectionId);
    }

    /** Runs one command; {@code packet} is owned by this method. */
    private void command(MySqlPacket packet) {
        Command command = Command.of(packet.header());
        context.metrics().command(command);
        session.activity().start(command, System.nanoTime());
        commands.executor(command).execute(packet);
        if (!busy) {
            digests.end(); // answered at once: a statement the proxy answered itself ends here
            idle();
        }
    }

    @Override
    public void writeResult(LocalResultSet result) {
        for (MySqlPacket packet : result.encode(ctx.alloc(), session.capabilities(), session.status())) {
            ctx.write(packet);
        }
        ctx.flush();
    }

    /** After a command: the session lets go of its backend connection unless it must hold it, then runs the next. */
    @Override
    public void afterCommand() {
        idle(); // the client has its answer: what follows here is the proxy's own bookkeeping
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

    @Override
    public void runFirst(List<MySqlPacket> commands) {
        for (int i = commands.size() - 1; i >= 0; i--) {
            queued.addFirst(commands.get(i));
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
        digests.end();
        idle();
        busy = false;
        drainQueue();
    }

    /** The session sleeps between commands (SHOW PROCESSLIST); none while COM_CHANGE_USER authenticates. */
    private void idle() {
        if (session != null) {
            session.activity().idle(System.nanoTime());
        }
    }

    private void drainQueue() {
        while (!busy && state == State.COMMAND && !queued.isEmpty()) {
            runCommand(queued.poll());
        }
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) {
        resumePausedBackend();
        ctx.fireChannelWritabilityChanged();
    }

    /** A backend connection or plan worker paused for this client's socket hears that it drained (or closed). */
    private void resumePausedBackend() {
        // One client channel writer in a sharded deployment (the forwarder's is the sharded commands'), unless
        // the sharded commands were made anew since the last forwarded command: then both hear it.
        ClientChannel forwarded = forwarding == null ? null : forwarding.out();
        if (forwarded != null) {
            forwarded.writabilityChanged();
        }
        if (sharded != null && sharded.out() != forwarded) {
            sharded.out().writabilityChanged();
        }
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
        // A backend connection paused for this client's socket resumes, finishes its response and goes back to its pool.
        resumePausedBackend();
        if (sharded != null) {
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
        digests.error();
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
