package io.shardgate.proxy.backend;

import io.netty.channel.EventLoop;
import io.shardgate.errors.ErrorCode;
import io.shardgate.errors.ShardgateException;
import io.shardgate.proxy.protocol.Capabilities;
import io.shardgate.proxy.protocol.Command;
import io.shardgate.proxy.session.SessionSettings;

import java.time.Duration;
import java.util.Iterator;
import java.util.Objects;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.LongSupplier;

import static java.util.Objects.requireNonNull;

/**
 * The connections to one backend server, at most {@code maxConnections} of them.
 *
 * <p>Algorithm: {@code open} counts every connection that exists or is being opened. An acquire
 * takes an idle connection with the same response-shaping capabilities, else opens one while
 * {@code open < max}, else replaces an idle one that has other capabilities, else waits in a
 * FIFO queue until a connection is released or the acquire timeout passes. Among idle
 * connections it prefers one that already has the session's settings, then one on the caller's
 * event loop. A released connection whose session state is fully known goes back as it is (the
 * next session applies its own settings); one that may hold unknown state is reset with
 * COM_RESET_CONNECTION first; one whose reset fails, or that is mid-response, is closed.
 *
 * <p>Leak hazard: a connection that is acquired and never released or discarded keeps its slot
 * forever. The session that acquires a connection releases it when the client disconnects. Each loan ends once
 * ({@link PoolLoans}): a second release or discard of a connection is refused and logged, never counted.
 */
public final class BackendPool {
    private final BackendTarget target;
    private final ConnectionOpener connector;
    private final LongSupplier nanoTime;
    private final int maxConnections;
    private final Duration acquireTimeout;
    private final AtomicInteger open = new AtomicInteger();
    private final java.util.concurrent.atomic.LongAdder served = new java.util.concurrent.atomic.LongAdder();
    private final PoolLoans loans = new PoolLoans();
    private final ConcurrentLinkedDeque<BackendConnection> idle = new ConcurrentLinkedDeque<>();
    /** Guarded by {@code this}. */
    private final ArrayDeque<Waiter> waiters = new ArrayDeque<>();
    /** The last time a connection could not be opened, for the acquire timeout's message; null: never. */
    private volatile Failure lastFailure;
    /** Every open connection, idle or lent, so a drain can close those still lent when its time is up. */
    private final java.util.Set<BackendConnection> live = java.util.concurrent.ConcurrentHashMap.newKeySet();
    /** Set by a drain: a connection given back is closed, not kept. */
    private volatile boolean retired;

    public BackendPool(BackendTarget target, ConnectionOpener connector, int maxConnections, Duration acquireTimeout) {
        this(target, connector, maxConnections, acquireTimeout, System::nanoTime);
    }

    /** With {@code nanoTime} as the clock that measures how long an acquire waited. */
    BackendPool(BackendTarget target, ConnectionOpener connector, int maxConnections, Duration acquireTimeout,
                LongSupplier nanoTime) {
        this.target = requireNonNull(target, "target is null");
        this.connector = requireNonNull(connector, "connector is null");
        this.nanoTime = requireNonNull(nanoTime, "nanoTime is null");
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
        return loans.count();
    }

    public int open() {
        return open.get();
    }

    public int idle() {
        return idle.size();
    }

    /** Commands this pool's connections were chosen for (by the router), for introspection. */
    public long served() {
        return served.sum();
    }

    public void countServed() {
        served.increment();
    }

    public int maxConnections() {
        return maxConnections;
    }

    public synchronized int waiting() {
        return waiters.size();
    }

    /** A connection with these shaping capabilities, in {@code schema} (empty: none chosen). */
    public CompletableFuture<BackendConnection> acquire(EventLoop loop, long shaping, String schema) {
        return acquire(loop, shaping, schema, SessionSettings.DEFAULTS);
    }

    /**
     * A connection with these shaping capabilities, in {@code schema} (empty: none chosen),
     * preferring one that already has {@code settings} and runs on {@code loop}.
     */
    public CompletableFuture<BackendConnection> acquire(EventLoop loop, long shaping, String schema, SessionSettings settings) {
        Waiter waiter = new Waiter(loop, shaping & Capabilities.RESPONSE_SHAPING, schema, settings, nanoTime.getAsLong());
        Served served;
        synchronized (this) {
            // Queued waiters go first: a session that releases and at once acquires again must not barge past them.
            served = waiters.isEmpty() ? tryServe(waiter) : null;
            if (served == null) {
                waiters.add(waiter);
            }
        }
        if (served == null) {
            loop.schedule(() -> {
                boolean removed;
                synchronized (this) {
                    removed = waiters.remove(waiter);
                }
                if (removed) {
                    waiter.result.completeExceptionally(timedOut(waiter));
                }
            }, acquireTimeout.toMillis(), TimeUnit.MILLISECONDS);
        } else if (served.now() != null) {
            deliver(waiter, served.now());
        }
        return waiter.result;
    }

    /** Names the pool, how long the acquire waited, and the last real failure to open a connection. */
    private RuntimeException timedOut(Waiter waiter) {
        long now = nanoTime.getAsLong();
        Failure failure = lastFailure;
        String last = failure == null ? "none"
                : failure.text() + " (" + TimeUnit.NANOSECONDS.toMillis(now - failure.atNanos()) + " ms ago)";
        return ErrorCode.BACKEND_POOL_TIMEOUT.exception(TimeUnit.NANOSECONDS.toMillis(now - waiter.since()),
                target.shard(), target.role(), target.address(), loans.count(), maxConnections, last);
    }

    private static String describe(Throwable error) {
        Throwable cause = error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
        return cause instanceof ShardgateException ? cause.getMessage() : cause.getClass().getSimpleName() + ": " + cause.getMessage();
    }

    /** Completes a waiter outside the pool's lock; a waiter that has already given up sends the connection back. */
    private void deliver(Waiter waiter, BackendConnection connection) {
        if (!waiter.result.complete(connection)) {
            release(connection);
        }
    }

    /**
     * Returns a connection after use. One whose session state is all known (its settings) goes
     * straight back to the idle list, and the next session brings it to its own settings; one that
     * may hold unknown state is reset first.
     */
    public void release(BackendConnection connection) {
        if (!loans.end(connection, "released", idle.size())) {
            return;
        }
        if (retired || !connection.isOpen() || connection.isBusy() || !connection.isReading()) {
            // Mid-response, or paused with a response possibly unread: its protocol state is
            // unknown, and the next command's answer could never arrive. Close it.
            closed(connection);
            return;
        }
        if (!connection.untracked() && connection.tracksSession() && !connection.inTransaction()) {
            idle.addFirst(connection);
            drainWaiters();
            return;
        }
        connection.reset().whenComplete((ok, error) -> {
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
        if (!loans.end(connection, "discarded", idle.size())) {
            return;
        }
        closed(connection);
    }

    public void close() {
        BackendConnection connection;
        while ((connection = idle.poll()) != null) {
            connection.close();
            open.decrementAndGet();
        }
    }

    /**
     * Starts a drain: idle connections close now, and each lent one closes when it is given back.
     * {@link #restore} undoes it (the backend serves again).
     */
    public void retire() {
        retired = true;
        close();
    }

    /** The backend serves again: connections given back are kept. */
    public void restore() {
        retired = false;
    }

    public boolean retired() {
        return retired;
    }

    /**
     * The end of a drain: closes every connection, those still lent too; their sessions learn the {@code reason}
     * (a statement running gets it in its error, an open transaction is rolled back).
     */
    public void closeAll(String reason) {
        retired = true;
        close();
        for (BackendConnection connection : List.copyOf(live)) {
            connection.close(reason);
        }
    }

    private void closed(BackendConnection connection) {
        connection.close();
        open.decrementAndGet();
        drainWaiters();
    }

    private void drainWaiters() {
        // Made only when a waiter is served: a release with nobody waiting allocates nothing.
        List<Waiter> ready = null;
        List<BackendConnection> connections = null;
        synchronized (this) {
            Waiter waiter;
            while ((waiter = waiters.peek()) != null) {
                Served served = tryServe(waiter);
                if (served == null) {
                    break;
                }
                waiters.remove(waiter);
                if (served.now() != null) {
                    if (ready == null) {
                        ready = new ArrayList<>(2);
                        connections = new ArrayList<>(2);
                    }
                    ready.add(waiter);
                    connections.add(served.now());
                }
            }
        }
        if (ready == null) {
            return;
        }
        for (int i = 0; i < ready.size(); i++) {
            deliver(ready.get(i), connections.get(i));
        }
    }

    /**
     * How a waiter was served: with a connection to hand over now (outside the lock), or with one
     * being opened or switched to its schema ({@code now} null), which completes the waiter itself.
     */
    private record Served(BackendConnection now) {
        static final Served LATER = new Served(null);
    }

    /** Under the pool's lock. */
    private Served tryServe(Waiter waiter) {
        // Best an idle connection that has the session's settings (no SET needed) on the caller's
        // event loop (no thread hop per packet); then either; then any.
        for (int pass = 0; pass < 4; pass++) {
            BackendConnection idleOne = takeIdle(waiter, pass == 0 || pass == 2, pass < 2);
            if (idleOne != null) {
                return hand(idleOne, waiter);
            }
        }
        if (reserveSlot()) {
            openFor(waiter);
            return Served.LATER;
        }
        BackendConnection victim = idle.pollLast();
        if (victim != null) {
            victim.close();
            openFor(waiter);
            return Served.LATER;
        }
        return null;
    }

    private BackendConnection takeIdle(Waiter waiter, boolean sameLoopOnly, boolean sameSettingsOnly) {
        for (Iterator<BackendConnection> it = idle.iterator(); it.hasNext(); ) {
            BackendConnection candidate = it.next();
            if (candidate.shaping() != waiter.shaping
                    || (sameLoopOnly && candidate.channel().eventLoop() != waiter.loop)
                    || (sameSettingsOnly && !candidate.settings().sameAs(waiter.settings))) {
                continue;
            }
            if (idle.remove(candidate)) {
                if (!candidate.isOpen()) {
                    open.decrementAndGet();
                    continue;
                }
                loans.lend(candidate);
                return candidate;
            }
        }
        return null;
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
        loans.reserve();
        connector.connect(waiter.loop, target, waiter.shaping, waiter.schema).whenComplete((connection, error) -> {
            if (error != null) {
                lastFailure = new Failure(describe(error), nanoTime.getAsLong());
                loans.unreserve();
                open.decrementAndGet();
                waiter.result.completeExceptionally(error);
                drainWaiters();
            } else {
                connection.owner(this);
                loans.opened(connection);
                live.add(connection);
                connection.channel().closeFuture().addListener(closed -> live.remove(connection));
                if (!waiter.result.complete(connection)) {
                    release(connection);
                }
            }
        });
    }

    /** Hands an idle connection over, switching its schema first when needed. */
    private Served hand(BackendConnection connection, Waiter waiter) {
        String current = connection.schema();
        if (Objects.equals(current, waiter.schema)) {
            return new Served(connection);
        }
        if (waiter.schema.isEmpty()) {
            // A connection cannot leave its schema; open a fresh one instead.
            connection.close();
            openFor(waiter);
            loans.end(connection, "closed for a fresh one", 0);
            return Served.LATER;
        }
        connection.run(Command.INIT_DB, waiter.schema).whenComplete((ok, error) -> {
            if (error == null) {
                connection.schema(waiter.schema);
                deliver(waiter, connection);
            } else {
                // The connection is fine, only the schema is not: back to the pool, still in its old schema.
                release(connection);
                waiter.result.completeExceptionally(error);
            }
        });
        return Served.LATER;
    }

    private record Waiter(EventLoop loop, long shaping, String schema, SessionSettings settings, long since,
                          CompletableFuture<BackendConnection> result) {
        Waiter(EventLoop loop, long shaping, String schema, SessionSettings settings, long since) {
            this(loop, shaping, schema, settings, since, new CompletableFuture<>());
        }
    }

    private record Failure(String text, long atNanos) {
    }
}
