package io.shardgate.it;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.function.BooleanSupplier;

/** Waiting on a condition with a deadline, and the server a read lands on: what the topology tests share. */
final class Await {
    private Await() {
    }

    /** Checks {@code condition} every 10 ms until it holds; fails naming {@code what} after {@code timeout}. */
    static void until(String what, Duration timeout, BooleanSupplier condition) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError("timed out after " + timeout + " waiting until " + what);
            }
            try {
                Thread.sleep(10); // between checks of the condition, which is what the loop waits on
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError("interrupted waiting until " + what, e);
            }
        }
    }

    /**
     * Runs {@code SELECT SLEEP(5), @@server_id} through {@code connection} in the background, once it is seen running on
     * {@code replica}; completes with the two values.
     */
    static java.util.concurrent.CompletableFuture<java.util.List<Integer>> sleepOn(Connection connection,
                                                                                  io.shardgate.replication.topology.Node replica) {
        java.util.concurrent.CompletableFuture<java.util.List<Integer>> sleeping = java.util.concurrent.CompletableFuture.supplyAsync(() -> {
            try (Statement statement = connection.createStatement();
                 ResultSet rows = statement.executeQuery("SELECT SLEEP(5), @@server_id")) {
                if (!rows.next()) {
                    throw new AssertionError("SELECT SLEEP(5) returned no row");
                }
                return java.util.List.of(rows.getInt(1), rows.getInt(2));
            } catch (SQLException e) {
                throw new AssertionError(e);
            }
        });
        until("the sleep runs on " + replica.address(), Duration.ofSeconds(5), () -> replica.queryString(
                "SELECT COUNT(*) FROM information_schema.PROCESSLIST WHERE INFO LIKE 'SELECT SLEEP(5)%'").equals("1"));
        return sleeping;
    }

    /** The {@code @@server_id} of the server {@code SELECT @@server_id} reaches through {@code connection}. */
    static int serverId(Connection connection) throws SQLException {
        try (Statement statement = connection.createStatement(); ResultSet rows = statement.executeQuery("SELECT @@server_id")) {
            if (!rows.next()) {
                throw new AssertionError("SELECT @@server_id returned no row");
            }
            return rows.getInt(1);
        }
    }
}
