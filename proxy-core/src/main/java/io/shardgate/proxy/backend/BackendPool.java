package io.shardgate.proxy.backend;

import io.netty.channel.EventLoop;
import io.shardgate.proxy.error.ErrorCode;
import io.shardgate.proxy.protocol.Capabilities;
import io.shardgate.proxy.protocol.Command;

import java.time.Duration;
import java.util.Iterator;
import java.util.Objects;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static java.util.Objects.requireNonNull;

/**
 * The connections to one backend server, at most {@code maxConnections} of them.
 *
 * <p>Algorithm: {@code open} counts every connection that exists or is being opened. An acquire
 * takes an idle connection with the same response-shaping capabilities, else opens one while
 * {@code open < max}, else replaces an idle one that has other capabilities, else waits in a
 * FIFO queue until a connection is released or the acquire timeout passes. A released
 * connection is reset with COM_RESET_CONNECTION before anyone else gets it; a connection whose
 * reset fails, whose state is unknown, or that is mid-response is closed instead.
 *
 * <p>Leak hazard: a connection that is acquired and never released or discarded keeps its slot
 * forever. The session that acquires a connection releases it when the client disconnects.
 */
public final class BackendPool {
    private final BackendTarget target;
    private final BackendConnector connector;
    private final int maxConnections;
    private final Duration acquireTimeout;
    private final AtomicInteger open = new AtomicInteger();
    private final AtomicInteger inUse = new AtomicInteger();
    private final ConcurrentLinkedDeque<BackendConnection> idle = new ConcurrentLinkedDeque<>();
    private final Queue<Waiter> waiters = new ConcurrentLinkedQueue<>();

    public BackendPool(BackendTarget target, BackendConnector connector, int maxConnections, Duration acquireTimeout) {
        this.target = requireNonNull(target, "target is null");
        this.connector = requireNonNull(connector, "connector is null");
        if (maxConnections < 1) {
            throw new IllegalArgumentException("maxConnections: " + maxConnections + " (expected: >= 1)");
        }
        this.maxConnections = maxConnections;
        this.acquireTimeout = requireNonNull(acquireTimeout, "acquireTimeout is null");
    }

    public BackendTarget target() {
        return target;
    }

    public int inUse() {
        return inUse.get();
    }

    public int open() {
        return open.get();
    }

    public int idle() {
        return idle.size();
    }

    public int maxConnections() {
        return maxConnections;
    }

    public int waiting() {
        return waiters.size();
    }

    /** A connection with these shaping capabilities, in {@code schema} (empty: none chosen). */
    public CompletableFuture<BackendConnection> acquire(EventLoop loop, long shaping, String schema) {
        Waiter waiter = new Waiter(loop, shaping & Capabilities.RESPONSE_SHAPING, schema);
        if (!tryServe(waiter)) {
            waiters.add(waiter);
            loop.schedule(() -> {
                if (waiters.remove(waiter)) {
                    waiter.result.completeExceptionally(ErrorCode.BACKEND_POOL_TIMEOUT.exception(
                            acquireTimeout.toMillis(), target.shard(), target.role(), inUse.get(), maxConnections));
                }
            }, acquireTimeout.toMillis(), TimeUnit.MILLISECONDS);
            // A release may have happened between the failed attempt and the enqueue.
            drainWaiters();
        }
        return waiter.result;
    }

    /** Returns a connection after use; it is reset before it serves anyone else. */
    public void release(BackendConnection connection) {
        inUse.decrementAndGet();
        if (!connection.isOpen() || connection.isBusy()) {
            closed(connection);
            return;
        }
        connection.run(Command.RESET_CONNECTION, null).whenComplete((ok, error) -> {
            if (error == null) {
                idle.addFirst(connection);
                drainWaiters();
            } else {
                closed(connection);
            }
        });
    }

    /** Closes a connection that must not be reused. */
    public void discard(BackendConnection connection) {
        inUse.decrementAndGet();
        closed(connection);
    }

    public void close() {
        BackendConnection connection;
        while ((connection = idle.poll()) != null) {
            connection.close();
            open.decrementAndGet();
        }
    }

    private void closed(BackendConnection connection) {
        connection.close();
        open.decrementAndGet();
        drainWaiters();
    }

    private void drainWaiters() {
        Waiter waiter;
        while ((waiter = waiters.peek()) != null) {
            if (!tryServe(waiter)) {
                return;
            }
            waiters.remove(waiter);
        }
    }

    private boolean tryServe(Waiter waiter) {
        // First a connection on the caller's event loop (no thread hop per packet), then any.
        if (takeIdle(waiter, true) || takeIdle(waiter, false)) {
            return true;
        }
        if (reserveSlot()) {
            openFor(waiter);
            return true;
        }
        BackendConnection victim = idle.pollLast();
        if (victim != null) {
            victim.close();
            openFor(waiter);
            return true;
        }
        return false;
    }

    private boolean takeIdle(Waiter waiter, boolean sameLoopOnly) {
        for (Iterator<BackendConnection> it = idle.iterator(); it.hasNext(); ) {
            BackendConnection candidate = it.next();
            if (candidate.shaping() != waiter.shaping
                    || (sameLoopOnly && candidate.channel().eventLoop() != waiter.loop)) {
                continue;
            }
            if (idle.remove(candidate)) {
                if (!candidate.isOpen()) {
                    open.decrementAndGet();
                    continue;
                }
                inUse.incrementAndGet();
                hand(candidate, waiter);
                return true;
            }
        }
        return false;
    }

    private boolean reserveSlot() {
        while (true) {
            int current = open.get();
            if (current >= maxConnections) {
                return false;
            }
            if (open.compareAndSet(current, current + 1)) {
                return true;
            }
        }
    }

    private void openFor(Waiter waiter) {
        inUse.incrementAndGet();
        connector.connect(waiter.loop, target, waiter.shaping, waiter.schema).whenComplete((connection, error) -> {
            if (error != null) {
                inUse.decrementAndGet();
                open.decrementAndGet();
                waiter.result.completeExceptionally(error);
                drainWaiters();
            } else if (!waiter.result.complete(connection)) {
                release(connection);
            }
        });
    }

    /** Hands an idle connection over, switching its schema first when needed. */
    private void hand(BackendConnection connection, Waiter waiter) {
        String current = connection.schema();
        if (Objects.equals(current, waiter.schema)) {
            waiter.result.complete(connection);
            return;
        }
        if (waiter.schema.isEmpty()) {
            // A connection cannot leave its schema; open a fresh one instead.
            connection.close();
            openFor(waiter);
            inUse.decrementAndGet();
            return;
        }
        connection.run(Command.INIT_DB, waiter.schema).whenComplete((ok, error) -> {
            if (error == null) {
                connection.schema(waiter.schema);
                waiter.result.complete(connection);
            } else {
                // The connection is fine, only the schema is not: back to the pool, still in its old schema.
                release(connection);
                waiter.result.completeExceptionally(error);
            }
        });
    }

    private record Waiter(EventLoop loop, long shaping, String schema, CompletableFuture<BackendConnection> result) {
        Waiter(EventLoop loop, long shaping, String schema) {
            this(loop, shaping, schema, new CompletableFuture<>());
        }
    }
}
