package io.shardgate.proxy.execution;

import io.netty.channel.Channel;
import io.netty.channel.EventLoop;
import io.shardgate.proxy.backend.BackendConnection;
import io.shardgate.proxy.backend.BackendStatement;
import io.shardgate.proxy.metrics.ProxyMetrics;
import io.shardgate.proxy.protocol.ClientCharset;
import io.shardgate.proxy.protocol.Command;
import io.shardgate.proxy.protocol.ErrPacket;
import io.shardgate.proxy.protocol.MySqlPacket;
import io.shardgate.proxy.session.ClientStatement;

import java.util.concurrent.CompletableFuture;

import static java.util.Objects.requireNonNull;

/**
 * Runs a client's command on one backend connection and relays the response: byte for byte
 * ({@link Relay.Shape#PASSTHROUGH}) for a session bound to one backend (an unsharded deployment, and
 * session statements of a sharded one), rewritten for a sharded statement whose plan is one route to
 * one shard ({@link Request#shape()}): the execution primitive of every single-backend command. Here,
 * once: the error boundary of a command in flight (a step that throws ends the command with an ERR,
 * or closes the client when part of the response went out), the retry of an autocommit read whose
 * replica fails before answering (on the primary), and backpressure through the client's
 * {@link ClientChannel}. What a command means for the session is its {@link Host}'s.
 *
 * <p>One per client connection (per statement for a sharded one, whose host is the statement's
 * run); commands run one at a time; runs on the client's event loop, and backend callbacks hop onto it.
 *
 * @param <R> the host's description of a forwarded command
 */
public final class Forwarder<R extends Forwarder.Request<R>> {
    private static final System.Logger LOG = System.getLogger(Forwarder.class.getName());

    /** A forwarded command, as the forwarder needs to know it. */
    public interface Request<R> {
        Command command();

        /** The prepared statement the command runs (execute, fetch, long data, reset); null for others. */
        ClientStatement statement();

        /** Whether this is the second try of a read whose replica failed. */
        boolean retried();

        /** The same command again, for the primary. */
        R retry();

        /** How the response reaches the client (a sharded statement's is rewritten: {@link Relay.Shape#TEXT}, {@link Relay.Shape#BINARY}). */
        default Relay.Shape shape() {
            return Relay.Shape.PASSTHROUGH;
        }

        /** The session's status flags for a rewritten response's end (not read for {@link Relay.Shape#PASSTHROUGH}). */
        default int status() {
            return 0;
        }
    }

    /** What a command means for the client's session: the connection it runs on, and its bookkeeping. */
    public interface Host<R> {
        /** The connection that runs {@code request} (replica choice, settings sync: the session's router). */
        CompletableFuture<BackendConnection> backendFor(R request);

        /** Whether the session is in a transaction (a read inside one is never retried elsewhere). */
        boolean inTransaction();

        /** Whether the session took {@code backend} for this command only (so another may serve a retry). */
        boolean bindsOnlyForCommand(BackendConnection backend);

        /** Whether the client is gone (the connection found for it then goes back at once: {@link #abandon}). */
        boolean gone();

        /** Whether the session exists still (a late callback after its end does nothing). */
        boolean active();

        void abandon();

        /** The session's connection failed or is in an unknown protocol state: it is closed, not reused. */
        void discardBackend();

        /** Ends the client's connection (part of a response went out; nothing consistent can follow). */
        void close();

        /**
         * The client's character set, to prepare a request's {@link Request#statement()} on the backend.
         * Asked only for a request with a statement: a host that forwards none (a sharded statement, sent
         * as text) need not answer.
         */
        default ClientCharset charset() {
            throw new UnsupportedOperationException("this host forwards no prepared statements");
        }

        /** The client's execute packet, with the backend's statement id and parameter types (as {@link #charset()}, only for a statement). */
        default MySqlPacket forBackend(MySqlPacket packet, ClientStatement statement, BackendStatement prepared) {
            throw new UnsupportedOperationException("this host forwards no prepared statements");
        }

        /** The per-command listener of the response: session changes on the way, bookkeeping at its end. */
        Response response(R request, BackendConnection backend);

        /** The command failed before any of its response reached the client: an ERR, and the next command. */
        void failBeforeResponse(R request, Throwable error);

        /** After a command's response: the session lets go of its connection unless it must hold it, then runs the next. */
        void afterCommand();

        /**
         * The connection failed and the command is not retried: what lived on it is gone; with nothing
         * sent yet an ERR and the next command, else (part of a response reached the client) the only
         * consistent end, a close.
         */
        void lost(R request, Throwable cause, boolean started);
    }

    /** A command's response, as the host follows it. */
    public interface Response {
        /** On the backend's loop: a packet about to go to the client; returns what goes instead (or itself). */
        MySqlPacket relaying(BackendConnection backend, MySqlPacket packet);

        /** On the client's loop: the response went out; the session follows it, and its next command runs. */
        void completed(int status, boolean error, int warnings);

        /** As {@link #completed(int, boolean, int)}, with the relay (what a rewritten response learned: insert id, GTID, ERR). */
        default void completed(Relay relay, int status, boolean error, int warnings) {
            completed(status, error, warnings);
        }
    }

    private final EventLoop loop;
    private final ClientChannel out;
    private final ProxyMetrics metrics;
    private final Host<R> host;
    private final String who;

    /** @param who names the client connection in the log */
    public Forwarder(Channel client, ClientChannel out, ProxyMetrics metrics, Host<R> host, String who) {
        this(requireNonNull(client, "client is null").eventLoop(), out, metrics, host, who);
    }

    /** Writing to {@code out}, on its channel's event loop. */
    public Forwarder(ClientChannel out, ProxyMetrics metrics, Host<R> host, String who) {
        this(requireNonNull(out, "out is null").eventLoop(), out, metrics, host, who);
    }

    private Forwarder(EventLoop loop, ClientChannel out, ProxyMetrics metrics, Host<R> host, String who) {
        this.loop = requireNonNull(loop, "loop is null");
        this.out = requireNonNull(out, "out is null");
        this.metrics = requireNonNull(metrics, "metrics is null");
        this.host = requireNonNull(host, "host is null");
        this.who = who;
    }

    /** The client connection, as responses are written to it. */
    public ClientChannel out() {
        return out;
    }

    /** Sends {@code packet} (its command described by {@code request}) and relays the response; the packet is released. */
    public void forward(MySqlPacket packet, R request) {
        boolean wasInTransaction = host.inTransaction();
        CompletableFuture<BackendConnection> found = host.backendFor(request);
        if (isDoneHere(found)) {
            // The usual case (the session's connection, or an idle one of the pool): no callback, no hop.
            try {
                connected(packet, request, wasInTransaction, found.join());
            } catch (RuntimeException | LinkageError e) {
                stepFailed(request, e);
            }
            return;
        }
        found.whenComplete((backend, error) -> step(request, () -> {
            if (error != null) {
                packet.release();
                host.failBeforeResponse(request, error);
                return;
            }
            connected(packet, request, wasInTransaction, backend);
        }));
    }

    /** Whether {@code future} completed normally and this is the client's loop: what follows may run at once. */
    private boolean isDoneHere(CompletableFuture<?> future) {
        return future.isDone() && !future.isCompletedExceptionally() && loop.inEventLoop();
    }

    private void connected(MySqlPacket packet, R request, boolean wasInTransaction, BackendConnection backend) {
        if (host.gone()) {
            packet.release();
            // The client left while its connection was being found: nothing had it to give back.
            host.abandon();
            return;
        }
        // An autocommit read on a replica can be sent again elsewhere if the replica fails before answering.
        MySqlPacket retry = !wasInTransaction && isReplica(backend) && host.bindsOnlyForCommand(backend) ? packet : null;
        MySqlPacket send = retry == null ? packet : new MySqlPacket(packet.sequenceId(), packet.payload().retainedDuplicate());
        ClientStatement statement = request.statement();
        if (statement == null) {
            backend.execute(send, request.command(), relay(backend, request, send, retry));
            return;
        }
        CompletableFuture<BackendStatement> preparing = PreparedStatements.on(backend, statement, host.charset());
        if (isDoneHere(preparing)) {
            prepared(backend, request, send, retry, statement, preparing.join());
            return;
        }
        preparing.whenComplete((prepared, failure) -> step(request, () -> {
            if (failure != null) {
                send.release();
                if (retry != null) {
                    retry.release();
                }
                host.failBeforeResponse(request, failure);
                return;
            }
            prepared(backend, request, send, retry, statement, prepared);
        }));
    }

    private void prepared(BackendConnection backend, R request, MySqlPacket send, MySqlPacket retry, ClientStatement statement,
                          BackendStatement prepared) {
        Relay relay = relay(backend, request, send, retry);
        backend.execute(host.forBackend(send, statement, prepared), request.command(), relay);
    }

    /** The relay of {@code request}'s response; when the host cannot follow it, the packets to send are let go. */
    private Relay relay(BackendConnection backend, R request, MySqlPacket send, MySqlPacket retry) {
        try {
            return new Relay(backend, out, request.shape(), request.status(), new Passthrough(request, host.response(request, backend), retry));
        } catch (RuntimeException | LinkageError e) {
            send.release();
            if (retry != null) {
                retry.release();
            }
            throw e;
        }
    }

    /** Whether {@code backend} is a replica's connection (a read there may run again on the primary). */
    public static boolean isReplica(BackendConnection backend) {
        return "replica".equals(backend.target().role());
    }

    /**
     * Runs a step of a forwarded command on the client's loop. A step that throws must not leave
     * the session busy for ever (a CompletableFuture callback's exception goes nowhere): the
     * command ends with an error, and the backend connection, whose protocol state is unknown
     * now, is closed. (Steps run before the response starts; after, {@link Passthrough} ends it.)
     */
    private void step(R request, Runnable action) {
        onLoop(() -> {
            try {
                action.run();
            } catch (RuntimeException | LinkageError e) {
                stepFailed(request, e);
            }
        });
    }

    private void stepFailed(R request, Throwable e) {
        LOG.log(System.Logger.Level.ERROR, who + ": " + request.command() + " failed", e);
        if (!host.active()) {
            return;
        }
        host.discardBackend();
        host.failBeforeResponse(request, e);
    }

    private void onLoop(Runnable action) {
        if (loop.inEventLoop()) {
            action.run();
        } else {
            loop.execute(action);
        }
    }

    /** Follows one response: metrics and the host's notes on the backend's loop (passthrough), its end on the client's. */
    private final class Passthrough implements Relay.Listener {
        private final R request;
        private final Response response;
        private final MySqlPacket retry;
        /** Bytes relayed to the client so far, counted in the metrics at the response's end. */
        private long bytesOut;

        Passthrough(R request, Response response, MySqlPacket retry) {
            this.request = request;
            this.response = response;
            this.retry = retry;
        }

        @Override
        public MySqlPacket relaying(Relay relay, MySqlPacket packet) {
            MySqlPacket sent = response.relaying(relay.connection(), packet);
            if (sent.header() == ErrPacket.HEADER && sent.payload().readableBytes() >= 3 && request.command() != Command.STMT_FETCH) {
                metrics.backendError(sent.payload().getUnsignedShortLE(sent.payload().readerIndex() + 1));
            }
            // Counted per response, not per packet: the counter is shared by every event loop.
            bytesOut += sent.payload().readableBytes() + 4L;
            return sent;
        }

        @Override
        public void completed(Relay relay, int status, boolean error) {
            countBytesOut();
            int warnings = relay.connection().lastWarnings();
            if (loop.inEventLoop()) {
                finish(relay, status, error, warnings);
            } else {
                loop.execute(() -> finish(relay, status, error, warnings));
            }
        }

        private void countBytesOut() {
            if (bytesOut > 0) {
                metrics.bytesOut(bytesOut);
                bytesOut = 0;
            }
        }

        /** On the client's loop: the session follows the response, and its next command runs. */
        private void finish(Relay relay, int status, boolean error, int warnings) {
            try {
                if (retry != null) {
                    retry.release();
                }
                if (!host.active()) {
                    return;
                }
                response.completed(relay, status, error, warnings);
                // (A rewritten response is flushed by its relay.)
                if (!request.command().hasNoResponse() && request.shape() == Relay.Shape.PASSTHROUGH) {
                    out.flush();
                }
                host.afterCommand();
            } catch (RuntimeException | LinkageError e) {
                // The response went out, but the session's bookkeeping did not follow it: the only consistent end is a close.
                LOG.log(System.Logger.Level.ERROR, who + ": after " + request.command(), e);
                if (host.active()) {
                    host.discardBackend();
                }
                host.close();
            }
        }

        @Override
        public void failed(Relay relay, Throwable cause) {
            countBytesOut();
            boolean started = relay.started();
            LOG.log(System.Logger.Level.WARNING, who + ": backend " + relay.connection().target() + " failed during "
                    + request.command() + (started ? " after part of the response was sent" : ""), cause);
            loop.execute(() -> {
                if (!host.active()) {
                    if (retry != null) {
                        retry.release();
                    }
                    return;
                }
                host.discardBackend();
                if (retry != null && !started) {
                    // Nothing reached the client yet: the read runs again, on another replica or the primary.
                    metrics.readRetried();
                    forward(retry, request.retry());
                    return;
                }
                if (retry != null) {
                    retry.release();
                }
                host.lost(request, cause, started);
            });
        }
    }
}
