package io.shardgate.replication.copy;

import io.shardgate.replication.topology.Node;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Inserts, updates (values, and now and then the primary key) and deletes rows of a table
 * {@code (id BIGINT PRIMARY KEY, customer VARCHAR, total DECIMAL, qty INT, note TEXT)} on the source
 * until stopped, one autocommitted statement at a time.
 */
final class SourceWriter implements AutoCloseable {
    private final Node source;
    private final String table;
    private final AtomicLong nextId;
    private final AtomicLong operations = new AtomicLong();
    private final AtomicReference<Throwable> failure = new AtomicReference<>();
    private final Thread thread;
    private volatile boolean stopped;

    SourceWriter(Node source, String table, long firstFreeId, long seed) {
        this.source = source;
        this.table = table;
        this.nextId = new AtomicLong(firstFreeId);
        this.thread = new Thread(() -> run(new Random(seed)), "source-writer");
        thread.setDaemon(true);
    }

    SourceWriter start() {
        thread.start();
        return this;
    }

    long operations() {
        return operations.get();
    }

    private void run(Random random) {
        try (Connection connection = source.connect(); Statement statement = connection.createStatement()) {
            while (!stopped) {
                long existing = 1 + random.nextInt((int) Math.max(1, nextId.get() - 1));
                int pick = random.nextInt(100);
                String sql;
                if (pick < 40) {
                    long id = nextId.getAndIncrement();
                    sql = "INSERT INTO " + table + " VALUES (" + id + ", 'new ü " + id + "', " + id + ".5, 1, NULL)";
                } else if (pick < 75) {
                    sql = "UPDATE " + table + " SET qty = qty + 1, total = total + 0.25, customer = CONCAT('u', customer)"
                            + " WHERE id = " + existing;
                } else if (pick < 95) {
                    sql = "DELETE FROM " + table + " WHERE id = " + existing;
                } else {
                    sql = "UPDATE IGNORE " + table + " SET id = " + nextId.getAndIncrement() + " WHERE id = " + existing;
                }
                statement.execute(sql);
                operations.incrementAndGet();
            }
        } catch (SQLException | RuntimeException e) {
            failure.set(e);
        }
    }

    /** Stops and waits; throws what stopped it early. */
    void stop() throws InterruptedException {
        stopped = true;
        thread.join();
        if (failure.get() != null) {
            throw new AssertionError("the writer failed", failure.get());
        }
    }

    @Override
    public void close() throws InterruptedException {
        stop();
    }
}
