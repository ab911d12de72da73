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
