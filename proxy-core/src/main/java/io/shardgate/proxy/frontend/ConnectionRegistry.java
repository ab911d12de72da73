package io.shardgate.proxy.frontend;

import java.util.Collection;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/** Client connection ids, the connection limit, and the lookups KILL and SHOW PROCESSLIST need. */
public final class ConnectionRegistry {
    private final int maxConnections;
    private final AtomicLong nextId = new AtomicLong(1);
    private final AtomicInteger count = new AtomicInteger();
    private final ConcurrentMap<Long, ClientSession> sessions = new ConcurrentHashMap<>();

    public ConnectionRegistry(int maxConnections) {
        this.maxConnections = maxConnections;
    }

    /** Reserves a slot; false when the limit is reached (the caller sends ERR 1040). */
    boolean tryReserve() {
        while (true) {
            int current = count.get();
            if (current >= maxConnections) {
                return false;
            }
            if (count.compareAndSet(current, current + 1)) {
                return true;
            }
        }
    }

    void unreserve() {
        count.decrementAndGet();
    }

    long nextId() {
        return nextId.getAndIncrement() & 0xFFFFFFFFL;
    }

    void register(ClientSession session) {
        sessions.put(session.connectionId(), session);
    }

    void unregister(ClientSession session) {
        sessions.remove(session.connectionId(), session);
    }

    Optional<ClientSession> find(long connectionId) {
        return Optional.ofNullable(sessions.get(connectionId));
    }

    /** The logged-in sessions (SHOW PROCESSLIST), a weakly consistent view. */
    Collection<ClientSession> sessions() {
        return sessions.values();
    }

    public int connections() {
        return count.get();
    }
}
