package io.shardgate.storage.health;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import static java.util.Objects.requireNonNull;

/**
 * MariaDB's semi-synchronous replication as seen on a primary, for shards with
 * {@code durability: semi_sync}. MariaDB 10.3 and later have it built in (no plugin).
 *
 * <p>With {@code rpl_semi_sync_master_wait_point=AFTER_SYNC} the primary answers a commit only
 * after a replica has acknowledged its binary log events, so a commit the client saw survives the
 * loss of the primary. When no replica acknowledges within {@code rpl_semi_sync_master_timeout}
 * the primary falls back to asynchronous replication ({@code Rpl_semi_sync_master_status} OFF)
 * and keeps committing; it switches back once a replica catches up.
 *
 * <p>Examples of {@link #misconfiguration}: {@code enabled=OFF} gives
 * {@code "rpl_semi_sync_master_enabled is OFF (expected: ON)"}; {@code enabled=ON,
 * wait_point=AFTER_COMMIT} gives {@code "rpl_semi_sync_master_wait_point is AFTER_COMMIT
 * (expected: AFTER_SYNC)"}.
 */
public final class SemiSync {
    public static final String ENABLED = "rpl_semi_sync_master_enabled";
    public static final String WAIT_POINT = "rpl_semi_sync_master_wait_point";
    public static final String STATUS = "Rpl_semi_sync_master_status";
    /** The reason a primary is DEGRADED while it replicates asynchronously. */
    public static final String FALLEN_BACK = "semi-sync replication has fallen back to asynchronous (" + STATUS + " is OFF)";

    private static final String VARIABLES = "SHOW GLOBAL VARIABLES WHERE Variable_name IN ('" + ENABLED + "', '" + WAIT_POINT + "')";
    private static final String STATUS_QUERY = "SHOW GLOBAL STATUS WHERE Variable_name = '" + STATUS + "'";

    private SemiSync() {
    }

    /** What keeps the primary on {@code connection} from semi-sync with AFTER_SYNC; empty when it has it. */
    public static List<String> misconfiguration(Connection connection) throws SQLException {
        return misconfiguration(Queries.pairs(requireNonNull(connection, "connection is null"), VARIABLES));
    }

    /**
     * Why a semi-sync primary is DEGRADED: its settings ({@link #misconfiguration}), or
     * {@link #FALLEN_BACK}; empty while commits wait for a replica.
     */
    public static List<String> degradation(Connection connection) throws SQLException {
        List<String> reasons = new ArrayList<>(misconfiguration(connection));
        if (reasons.isEmpty() && !on(Queries.pairs(connection, STATUS_QUERY).get(STATUS.toUpperCase(Locale.ROOT)))) {
            reasons.add(FALLEN_BACK);
        }
        return reasons;
    }

    /** {@link #misconfiguration(Connection)} over {@code SHOW GLOBAL VARIABLES} pairs (names in upper case). */
    static List<String> misconfiguration(Map<String, String> variables) {
        List<String> problems = new ArrayList<>();
        String enabled = variables.get(ENABLED.toUpperCase(Locale.ROOT));
        if (!on(enabled)) {
            problems.add(ENABLED + " is " + shown(enabled) + " (expected: ON)");
        }
        String waitPoint = variables.get(WAIT_POINT.toUpperCase(Locale.ROOT));
        if (!"AFTER_SYNC".equalsIgnoreCase(waitPoint)) {
            problems.add(WAIT_POINT + " is " + shown(waitPoint) + " (expected: AFTER_SYNC)");
        }
        return problems;
    }

    private static boolean on(String value) {
        return "ON".equalsIgnoreCase(value) || "1".equals(value);
    }

    private static String shown(String value) {
        return value == null ? "not set (semi-sync unavailable)" : value;
    }
}
