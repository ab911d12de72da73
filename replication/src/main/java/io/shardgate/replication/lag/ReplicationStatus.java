package io.shardgate.replication.lag;

import java.util.List;
import java.util.Map;

import static java.util.Objects.requireNonNull;

/**
 * A replica's replication threads as {@code SHOW ALL SLAVES STATUS} reports them, one row per
 * replication connection. With several connections (multi-source) the least healthy decides the
 * state, and a thread counts as running only when it runs on every connection.
 *
 * @param state      {@link ReplicaState#HEALTHY}, one of the stopped or error states, or
 *                   {@link ReplicaState#NOT_A_REPLICA} when there is no row
 * @param ioRunning  every {@code Slave_IO_Running} is {@code Yes}
 * @param sqlRunning every {@code Slave_SQL_Running} is {@code Yes}
 * @param error      the first reported error, such as {@code "SQL error 1062: Duplicate entry ..."}; empty when none
 */
record ReplicationStatus(ReplicaState state, boolean ioRunning, boolean sqlRunning, String error) {
    ReplicationStatus {
        requireNonNull(state, "state is null");
        requireNonNull(error, "error is null");
    }

    /** Reads the rows of {@code SHOW ALL SLAVES STATUS}, each column label to its value (null for SQL NULL). */
    static ReplicationStatus of(List<Map<String, String>> rows) {
        requireNonNull(rows, "rows is null");
        if (rows.isEmpty()) {
            return new ReplicationStatus(ReplicaState.NOT_A_REPLICA, false, false, "");
        }
        ReplicaState state = ReplicaState.HEALTHY;
        boolean io = true;
        boolean sql = true;
        String error = "";
        for (Map<String, String> row : rows) {
            boolean rowIo = "Yes".equals(row.get("Slave_IO_Running"));
            boolean rowSql = "Yes".equals(row.get("Slave_SQL_Running"));
            String rowError = error(row);
            state = state.worse(rowError.isEmpty() ? threadState(rowIo, rowSql) : ReplicaState.REPLICATION_ERROR);
            io &= rowIo;
            sql &= rowSql;
            if (error.isEmpty()) {
                error = rowError;
            }
        }
        return new ReplicationStatus(state, io, sql, error);
    }

    private static ReplicaState threadState(boolean io, boolean sql) {
        if (!sql) {
            return ReplicaState.SQL_THREAD_STOPPED;
        }
        return io ? ReplicaState.HEALTHY : ReplicaState.IO_THREAD_STOPPED;
    }

    private static String error(Map<String, String> row) {
        String connection = row.getOrDefault("Connection_name", "");
        String prefix = connection == null || connection.isEmpty() ? "" : "connection '" + connection + "': ";
        if (isSet(row.get("Last_SQL_Errno"))) {
            return prefix + "SQL error " + row.get("Last_SQL_Errno") + ": " + row.get("Last_SQL_Error");
        }
        if (isSet(row.get("Last_IO_Errno"))) {
            return prefix + "IO error " + row.get("Last_IO_Errno") + ": " + row.get("Last_IO_Error");
        }
        if (isSet(row.get("Last_Errno"))) {
            return prefix + "error " + row.get("Last_Errno") + ": " + row.get("Last_Error");
        }
        return "";
    }

    private static boolean isSet(String errno) {
        return errno != null && !errno.isBlank() && !"0".equals(errno.trim());
    }
}
