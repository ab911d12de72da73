package io.shardgate.proxy.backend;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A pool's loans: how many of its connections are in use (lent, or being opened for a waiter), and the end of each
 * loan exactly once. A connection's {@code lent} flag is set when the pool hands it out and cleared, by one
 * compare-and-set, by its release or discard; a second release or discard (or one of a connection never lent) is
 * refused. Counted, it would drive in_use below zero, and the connection would enter the idle list twice and be
 * handed to two sessions at once. The first one a pool sees is logged as a WARNING with the caller's stack, so that
 * the path that gives a connection back twice is found instead of silently corrupting the pool; later ones without.
 * A stale hand-back that arrives after the connection was lent again cannot be told apart (the flag is set again).
 */
final class PoolLoans {
    private static final System.Logger LOG = System.getLogger(BackendPool.class.getName());
    private final AtomicInteger inUse = new AtomicInteger();
    private final AtomicBoolean stackLogged = new AtomicBoolean();

    int count() {
        return inUse.get();
    }

    /** An idle connection is handed out. */
    void lend(BackendConnection connection) {
        connection.lent.set(true);
        inUse.incrementAndGet();
    }

    /** A connection is being opened for a waiter: in use from now on. */
    void reserve() {
        inUse.incrementAndGet();
    }

    /** The connection being opened failed to open. */
    void unreserve() {
        inUse.decrementAndGet();
    }

    /** The connection reserved for is open: lent to the waiter. */
    void opened(BackendConnection connection) {
        connection.lent.set(true);
    }

    /** Whether this ends {@code connection}'s loan ({@code how}: the caller's verb); false, logged, when it was not lent. */
    boolean end(BackendConnection connection, String how, int idle) {
        if (connection.lent.compareAndSet(true, false)) {
            inUse.decrementAndGet();
            return true;
        }
        String message = connection.target() + ": a connection not lent (given back already) was " + how
                + " again; ignored (in use " + inUse.get() + ", idle " + idle + ")";
        if (stackLogged.compareAndSet(false, true)) {
            LOG.log(System.Logger.Level.WARNING, message, new IllegalStateException("a second hand-back of one loan"));
        } else {
            LOG.log(System.Logger.Level.WARNING, message);
        }
        return false;
    }
}
