package io.shardgate.replication.lag;

import io.shardgate.replication.topology.Node;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

/**
 * Inserts rows {@code 1, 2, 3, ...} into {@code table} on the primary, one autocommit statement
 * every {@code period}, on its own thread, and remembers when each insert was sent (System.nanoTime,
 * the monitor's clock). A replica that has row {@code n} but not {@code n + 1} lacks nothing older
 * than the moment {@code n + 1} was sent.
 */
final class SteadyWriter implements AutoCloseable {
    private final Map<Long, Long> sentAt = new ConcurrentHashMap<>();
    private final AtomicReference<Throwable> failure = new AtomicReference<>();
    private final Thread thread;
    private volatile boolean running = true;

    private SteadyWriter(Node primary, String table, Duration period) {
        this.thread = new Thread(() -> write(primary, table, period.toNanos()), "steady-writer");
        this.thread.setDaemon(true);
    }

    static SteadyWriter start(Node primary, String table, Duration period) {
        SteadyWriter writer = new SteadyWriter(primary, table, period);
        writer.thread.start();
        return writer;
    }

    private void write(Node primary, String table, long periodNanos) {
        try (Connection connection = primary.connect();
             PreparedStatement insert = connection.prepareStatement("INSERT INTO " + table + " (id) VALUES (?)")) {
            long next = System.nanoTime();
            for (long id = 1; running; id++) {
                insert.setLong(1, id);
                sentAt.put(id, System.nanoTime());
                insert.executeUpdate();
                next += periodNanos;
                LockSupport.parkNanos(next - System.nanoTime());
            }
        } catch (SQLException | RuntimeException e) {
            failure.set(e);
        }
    }

    /** When row {@code id} was sent, once it has been. */
    OptionalLong sentAt(long id) {
        Long nanos = sentAt.get(id);
        return nanos == null ? OptionalLong.empty() : OptionalLong.of(nanos);
    }

    /** Rows sent so far. */
    int sent() {
        return sentAt.size();
    }

    /** The error that stopped the writer, or null while it runs (or ran) cleanly. */
    Throwable failure() {
        return failure.get();
    }

    /** Stops writing and waits for the statement in flight. */
    @Override
    public void close() {
        running = false;
        try {
            thread.join(10_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
