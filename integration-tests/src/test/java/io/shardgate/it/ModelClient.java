package io.shardgate.it;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A client that inserts, updates and deletes rows of {@code shop.customers (id, note, n)} through a proxy every few
 * milliseconds; {@link #model} is what its acknowledged writes left (absent: deleted). Ids above {@code rows} are new.
 */
final class ModelClient implements AutoCloseable {
    interface Connector {
        Connection connect() throws SQLException;
    }

    final Map<Long, Integer> model = new ConcurrentHashMap<>();
    final ConcurrentLinkedQueue<String> errors = new ConcurrentLinkedQueue<>();
    final AtomicLong writes = new AtomicLong();
    private final AtomicBoolean stop = new AtomicBoolean();
    private final AtomicBoolean paused = new AtomicBoolean();
    private final AtomicBoolean parked = new AtomicBoolean();
    private final boolean pairs;
    private final Thread thread;

    /** {@code rows}: ids 1..rows exist with n = 0; {@code firstNew}: where new ids start (one client per range). */
    ModelClient(Connector connector, int rows, long firstNew) {
        this(connector, "shop.customers", rows, firstNew);
    }

    /** The same on {@code table} ({@code id BIGINT PRIMARY KEY, note, n INT}). */
    ModelClient(Connector connector, String table, int rows, long firstNew) {
        this(connector, table, rows, firstNew, false);
    }

    /**
     * With {@code pairs}, every third write is a transaction that updates two random rows: through a sharded proxy most
     * pairs span two shards and commit with XA.
     */
    ModelClient(Connector connector, String table, int rows, long firstNew, boolean pairs) {
        this.pairs = pairs;
        for (long id = 1; id <= rows; id++) {
            model.put(id, 0);
        }
        thread = start(connector, table, rows, firstNew);
    }

    /** On {@code shop.customers} as {@code present} has it now (id to n, as an earlier client left it), updating ids 1..rows. */
    ModelClient(Connector connector, Map<Long, Integer> present, int rows, long firstNew) {
        model.putAll(present);
        this.pairs = false;
        thread = start(connector, "shop.customers", rows, firstNew);
    }

    private Thread start(Connector connector, String table, int rows, long firstNew) {
        Thread started = new Thread(() -> loop(connector, table, rows, firstNew), "model-client");
        started.start();
        return started;
    }

    private void loop(Connector connector, String table, int rows, long firstNew) {
        try (Connection connection = connector.connect(); Statement statement = connection.createStatement()) {
            long next = firstNew;
            while (!stop.get()) {
                if (paused.get()) {
                    parked.set(true);
                    Thread.sleep(2);
                    continue;
                }
                parked.set(false);
                ThreadLocalRandom random = ThreadLocalRandom.current();
                long id = random.nextInt(3) == 0 ? next++ : 1 + random.nextInt(rows);
                int n = random.nextInt(1_000_000);
                try {
                    if (pairs && random.nextInt(3) == 0) {
                        pair(connection, statement, table, 1 + random.nextInt(rows), 1 + random.nextInt(rows), n);
                    } else if (random.nextInt(10) == 0) {
                        statement.executeUpdate("DELETE FROM " + table + " WHERE id = " + id);
                        model.remove(id);
                    } else {
                        statement.executeUpdate("INSERT INTO " + table + " VALUES (" + id + ", 'client', " + n
                                + ") ON DUPLICATE KEY UPDATE n = VALUES(n)");
                        model.put(id, n);
                    }
                    writes.incrementAndGet();
                } catch (SQLException e) {
                    errors.add(id + ": " + e.getErrorCode() + " " + e.getMessage());
                }
                Thread.sleep(2);
            }
        } catch (SQLException | InterruptedException e) {
            errors.add("client: " + e);
        }
    }

    /** Sets {@code n} on rows {@code a} and {@code b} in one transaction (the first, if they are one). */
    private void pair(Connection connection, Statement statement, String table, long a, long b, int n) throws SQLException {
        connection.setAutoCommit(false);
        try {
            for (long id : new long[]{a, b}) {
                statement.executeUpdate("INSERT INTO " + table + " VALUES (" + id + ", 'pair', " + n
                        + ") ON DUPLICATE KEY UPDATE n = VALUES(n)");
            }
            connection.commit();
            model.put(a, n);
            model.put(b, n);
        } catch (SQLException e) {
            try {
                connection.rollback();
            } catch (SQLException ignored) {
                // the error that matters is the first
            }
            throw e;
        } finally {
            connection.setAutoCommit(true);
        }
    }

    /** The rows of {@code shop.customers} on one server: id to n. */
    static Map<Long, Integer> rowsOn(io.shardgate.replication.topology.Node node) throws SQLException {
        return rowsOn(node, "shop.customers");
    }

    static Map<Long, Integer> rowsOn(io.shardgate.replication.topology.Node node, String table) throws SQLException {
        Map<Long, Integer> rows = new java.util.HashMap<>();
        try (Connection connection = node.connect(); Statement statement = connection.createStatement();
             java.sql.ResultSet result = statement.executeQuery("SELECT id, n FROM " + table)) {
            while (result.next()) {
                rows.put(result.getLong(1), result.getInt(2));
            }
        }
        return rows;
    }

    /** Stops writing until {@link #resume}; returns once no write is under way (the model is what the servers hold). */
    void pause() {
        paused.set(true);
        Await.until("the model client parks", java.time.Duration.ofSeconds(30), parked::get);
    }

    void resume() {
        parked.set(false);
        paused.set(false);
    }

    @Override
    public void close() throws InterruptedException {
        stop.set(true);
        thread.join(30_000);
    }
}
