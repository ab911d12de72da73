package io.shardgate.tools.bench;

import io.shardgate.router.shard.KeyRange;
import io.shardgate.router.vindex.XxHash64;

import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * One client writing through one proxy every 10 ms: an autocommit {@code INSERT} of a new row into {@link #TABLE}, its
 * key the next id whose hash (the {@code hash} vindex) falls in the range that moves. It records each acknowledged
 * write (its id and when its OK arrived) and each error; a failed write is not acknowledged, and the next one opens a
 * new connection.
 */
final class WriteProbe implements AutoCloseable {
    static final String TABLE = "sbtest.probe";
    static final String DDL = "CREATE TABLE " + TABLE + " (id BIGINT NOT NULL PRIMARY KEY, proxy INT NOT NULL, seq BIGINT NOT NULL)";
    private static final long PERIOD_NANOS = TimeUnit.MILLISECONDS.toNanos(10);

    private final int proxyIndex;
    private final String url;
    private final String user;
    private final String password;
    private final KeyRange moving;
    private final Thread thread;
    private final List<Long> ackedIds = new ArrayList<>();
    private final List<Long> ackedAt = new ArrayList<>();
    private final List<String> errors = new ArrayList<>();
    private volatile boolean stopping;

    WriteProbe(int proxyIndex, int port, String user, String password, KeyRange moving) {
        this.proxyIndex = proxyIndex;
        this.url = "jdbc:mariadb://127.0.0.1:" + port + "/?connectTimeout=5000&socketTimeout=30000";
        this.user = user;
        this.password = password;
        this.moving = moving;
        this.thread = new Thread(this::write, "bench-probe-" + proxyIndex);
        this.thread.setDaemon(true);
    }

    void start() {
        thread.start();
    }

    /** The keyspace id of {@code id} under the {@code hash} vindex (xxHash64 of its decimal text). */
    static long keyspaceId(long id) {
        return XxHash64.hash(Long.toString(id).getBytes(StandardCharsets.US_ASCII));
    }

    /** The first id at or after {@code from} whose keyspace id is in {@code range}. */
    static long nextIn(KeyRange range, long from) {
        long id = from;
        while (!range.contains(keyspaceId(id))) {
            id++;
        }
        return id;
    }

    private void write() {
        long id = 1_000_000_000L * (proxyIndex + 1);
        long seq = 0;
        long next = System.nanoTime();
        Connection connection = null;
        while (!stopping) {
            id = nextIn(moving, id + 1);
            try {
                if (connection == null) {
                    connection = DriverManager.getConnection(url, user, password);
                }
                try (PreparedStatement insert = connection.prepareStatement("INSERT INTO " + TABLE + " (id, proxy, seq) VALUES (?, ?, ?)")) {
                    insert.setLong(1, id);
                    insert.setInt(2, proxyIndex);
                    insert.setLong(3, ++seq);
                    insert.executeUpdate();
                }
                long at = System.nanoTime();
                synchronized (this) {
                    ackedIds.add(id);
                    ackedAt.add(at);
                }
            } catch (SQLException e) {
                synchronized (this) {
                    errors.add("id " + id + ": " + e.getErrorCode() + " " + e.getSQLState() + " " + e.getMessage());
                }
                close(connection);
                connection = null;
            }
            next = Math.max(next + PERIOD_NANOS, System.nanoTime());
            LockSupport.parkNanos(next - System.nanoTime());
        }
        close(connection);
    }

    private static void close(Connection connection) {
        if (connection != null) {
            try {
                connection.close();
            } catch (SQLException e) {
                // gone already
            }
        }
    }

    synchronized List<Long> ackedIds() {
        return List.copyOf(ackedIds);
    }

    synchronized List<String> errors() {
        return List.copyOf(errors);
    }

    /** Lets each of {@code probes} get {@code writes} more writes acknowledged, within 30 s in all. */
    static void awaitMore(List<WriteProbe> probes, int writes) throws InterruptedException {
        List<Integer> base = probes.stream().map(WriteProbe::acknowledged).toList();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        for (int i = 0; i < probes.size(); i++) {
            while (probes.get(i).acknowledged() < base.get(i) + writes && System.nanoTime() < deadline) {
                TimeUnit.MILLISECONDS.sleep(50);
            }
        }
    }

    /** The ids of the probe rows on {@code node}. */
    static List<Long> idsOn(io.shardgate.replication.topology.Node node) throws java.sql.SQLException {
        List<Long> ids = new java.util.ArrayList<>();
        try (Connection connection = node.connect(); java.sql.Statement statement = connection.createStatement();
             java.sql.ResultSet rows = statement.executeQuery("SELECT id FROM " + TABLE)) {
            while (rows.next()) {
                ids.add(rows.getLong(1));
            }
        }
        return ids;
    }

    synchronized int acknowledged() {
        return ackedIds.size();
    }

    /** The longest time between two acknowledged writes, where the later came at or after {@code from} and the earlier at or before {@code to}. */
    synchronized long longestGapNanos(long from, long to) {
        return longestGap(ackedAt, from, to);
    }

    static long longestGap(List<Long> acks, long from, long to) {
        long longest = 0;
        for (int i = 1; i < acks.size(); i++) {
            if (acks.get(i) >= from && acks.get(i - 1) <= to) {
                longest = Math.max(longest, acks.get(i) - acks.get(i - 1));
            }
        }
        return longest;
    }

    @Override
    public void close() throws InterruptedException {
        stopping = true;
        thread.join(TimeUnit.SECONDS.toMillis(60));
    }
}
