package io.shardgate.proxy.frontend;

import io.netty.channel.EventLoop;
import io.shardgate.proxy.backend.BackendConnection;
import io.shardgate.proxy.backend.BackendPool;
import io.shardgate.proxy.error.ErrorCode;
import io.shardgate.proxy.protocol.Command;

import java.util.concurrent.CompletableFuture;

/**
 * Decides which backend connection serves a session's next command. For now every session is
 * pinned to one connection of the first shard's primary for its whole life; read/write split and
 * sharding replace this decision without touching the protocol handling.
 */
final class CommandRouter {
    private final FrontendContext context;

    CommandRouter(FrontendContext context) {
        this.context = context;
    }

    CompletableFuture<BackendConnection> backendFor(ClientSession session, EventLoop loop) {
        BackendConnection pinned = session.backend();
        if (pinned != null && pinned.isOpen()) {
            return CompletableFuture.completedFuture(pinned);
        }
        if (pinned != null) {
            session.backend(null);
            context.primaryPool().discard(pinned);
        }
        return context.primaryPool().acquire(loop, session.capabilities(), session.schema())
                .thenApply(connection -> {
                    session.backend(connection);
                    return connection;
                });
    }

    void releaseBackend(ClientSession session) {
        BackendConnection backend = session.backend();
        if (backend != null) {
            session.backend(null);
            if (backend.schema() == null) {
                context.primaryPool().discard(backend);
            } else {
                context.primaryPool().release(backend);
            }
        }
    }

    void discardBackend(ClientSession session) {
        BackendConnection backend = session.backend();
        if (backend != null) {
            session.backend(null);
            context.primaryPool().discard(backend);
        }
    }

    /**
     * KILL [QUERY] for a Shardgate connection id: the statement is killed on the backend
     * connection serving that session, and for KILL CONNECTION the client connection is closed too.
     */
    CompletableFuture<Void> kill(ClientSession killer, long targetId, boolean queryOnly) {
        ClientSession target = context.registry().find(targetId).orElse(null);
        if (target == null) {
            return CompletableFuture.failedFuture(ErrorCode.UNKNOWN_THREAD.exception(targetId));
        }
        if (!target.user().equals(killer.user())) {
            return CompletableFuture.failedFuture(ErrorCode.NOT_THREAD_OWNER.exception(targetId));
        }
        BackendConnection victim = target.backend();
        CompletableFuture<Void> done;
        if (victim == null) {
            done = CompletableFuture.completedFuture(null);
        } else {
            String sql = (queryOnly ? "KILL QUERY " : "KILL CONNECTION ") + victim.serverThreadId();
            done = context.primaryPool().acquire(killer.channel().eventLoop(), 0, "")
                    .thenCompose(control -> control.run(Command.QUERY, sql).whenComplete((ok, error) -> {
                        if (error == null) {
                            context.primaryPool().release(control);
                        } else {
                            context.primaryPool().discard(control);
                        }
                    }));
        }
        if (!queryOnly) {
            done = done.thenRun(() -> target.channel().close());
        }
        return done;
    }
}
