package io.shardgate.replication.copy;

import io.shardgate.replication.lag.ReplicaLag;
import io.shardgate.replication.lag.ReplicaLagMonitor;
import io.shardgate.replication.stream.ServerEndpoint;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Locale;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/** The copy's {@link Throttle}s: replica lag and the source's InnoDB history list length. */
public final class Throttles {
    private Throttles() {
    }

    /**
     * Waits while a replica of the source that {@code monitor} measures lags more than {@code max}, or
     * its lag is unknown (a replica that cannot be measured could be arbitrarily far behind).
     */
    public static Throttle replicaLag(ReplicaLagMonitor monitor, Duration max) {
        requireNonNull(monitor, "monitor is null");
        requireNonNull(max, "max is null");
        return () -> {
            for (ReplicaLag lag : monitor.snapshot()) {
                if (lag.lagMillis().isEmpty()) {
                    return Optional.of("replica " + lag.replica().address() + " lag unknown ("
                            + (lag.lastError().isEmpty() ? lag.state() : lag.lastError()) + ")");
                }
                if (lag.lagMillis().getAsLong() > max.toMillis()) {
                    return Optional.of("replica " + lag.replica().address() + " lags " + seconds(lag.lagMillis().getAsLong())
                            + " > " + seconds(max.toMillis()));
                }
            }
            return Optional.empty();
        };
    }

    /**
     * Waits while {@code replica}'s {@code SHOW SLAVE STATUS} reports {@code Seconds_Behind_Master} above
     * {@code max}, NULL (replication stopped) or cannot be read; for a caller without a lag monitor.
     */
    public static Throttle replicaStatus(ServerEndpoint replica, Duration max) {
        requireNonNull(replica, "replica is null");
        requireNonNull(max, "max is null");
        return () -> {
            try (Connection connection = replica.connect(); Statement statement = connection.createStatement();
                 ResultSet status = statement.executeQuery("SHOW SLAVE STATUS")) {
                if (!status.next()) {
                    return Optional.of("replica " + replica.address() + " does not replicate");
                }
                long behind = status.getLong("Seconds_Behind_Master");
                if (status.wasNull()) {
                    return Optional.of("replica " + replica.address() + " lag unknown (replication stopped)");
                }
                return behind * 1000 > max.toMillis()
                        ? Optional.of("replica " + replica.address() + " lags " + behind + " s > " + seconds(max.toMillis()))
                        : Optional.empty();
            } catch (SQLException e) {
                return Optional.of("replica " + replica.address() + " lag unknown (" + e.getMessage() + ")");
            }
        };
    }

    /**
     * Waits while the source's InnoDB history list (undo not yet purged, which a long snapshot makes
     * grow and which slows every read) is longer than {@code max}
     * ({@code information_schema.INNODB_METRICS} {@code trx_rseg_history_len}).
     */
    public static Throttle historyLength(ServerEndpoint source, long max) {
        requireNonNull(source, "source is null");
        return () -> {
            try (Connection connection = source.connect(); Statement statement = connection.createStatement();
                 ResultSet rows = statement.executeQuery("SELECT `COUNT` FROM information_schema.INNODB_METRICS"
                         + " WHERE NAME = 'trx_rseg_history_len'")) {
                if (!rows.next()) {
                    return Optional.empty();
                }
                long length = rows.getLong(1);
                return length > max ? Optional.of("history list length " + length + " > " + max) : Optional.empty();
            } catch (SQLException e) {
                return Optional.of("history list length of " + source.address() + " unknown (" + e.getMessage() + ")");
            }
        };
    }

    static String seconds(long millis) {
        return String.format(Locale.ROOT, "%.1f s", millis / 1000.0).replace(".0 s", " s");
    }
}
