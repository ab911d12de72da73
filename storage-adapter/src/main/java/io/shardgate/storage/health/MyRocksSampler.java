package io.shardgate.storage.health;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static java.util.Objects.requireNonNull;

/**
 * MyRocks' probe. First what stays quick during a write stall: the engine's presence,
 * {@code information_schema.ROCKSDB_CFSTATS} (compaction and flush pending, immutable memtables
 * and memtable bytes, summed over column families) and {@code ROCKSDB_DBSTATS} (background
 * errors). Then the {@code Rocksdb_stall_*} counters, which only the global status shows, and
 * any read of the global status waits while MyRocks has writes stopped, however short the
 * statement timeout. So that read gets {@code statusTimeout} as its socket timeout; when it
 * runs out the connection is closed (the monitor reconnects) and the sample says the counters
 * were blocked, which itself means writes are stopped right now. Slow checks add the size of
 * every ROCKSDB user table.
 */
public final class MyRocksSampler implements EngineSampler {
    private static final String STATUS = "SHOW GLOBAL STATUS WHERE Variable_name IN ('Rocksdb_stall_total_stops',"
            + " 'Rocksdb_stall_total_slowdowns', 'Rocksdb_stall_micros')";
    private static final String CF_STATS = "SELECT STAT_TYPE, SUM(VALUE) FROM information_schema.ROCKSDB_CFSTATS"
            + " WHERE STAT_TYPE IN ('COMPACTION_PENDING', 'MEM_TABLE_FLUSH_PENDING', 'NUM_IMMUTABLE_MEM_TABLE',"
            + " 'CUR_SIZE_ALL_MEM_TABLES') GROUP BY STAT_TYPE";
    private static final String DB_STATS = "SELECT STAT_TYPE, VALUE FROM information_schema.ROCKSDB_DBSTATS"
            + " WHERE STAT_TYPE = 'DB_BACKGROUND_ERRORS'";
    private static final String TABLE_SIZES = "SELECT TABLE_SCHEMA, TABLE_NAME, DATA_LENGTH + INDEX_LENGTH"
            + " FROM information_schema.TABLES WHERE ENGINE = 'ROCKSDB'"
            + " AND TABLE_SCHEMA NOT IN ('mysql', 'information_schema', 'performance_schema', 'sys')";

    private final Duration statusTimeout;

    public MyRocksSampler(Duration statusTimeout) {
        this.statusTimeout = requireNonNull(statusTimeout, "statusTimeout is null");
    }

    @Override
    public EngineSample sample(Connection connection, boolean slowChecks) throws SQLException {
        if (!Queries.engineLoaded(connection, "ROCKSDB")) {
            return EngineSample.engineMissing();
        }
        Map<EngineMetric, Long> values = new LinkedHashMap<>();
        Map<String, String> cfStats = Queries.pairs(connection, CF_STATS);
        put(values, EngineMetric.ROCKSDB_COMPACTION_PENDING, Queries.number(cfStats, "COMPACTION_PENDING"));
        put(values, EngineMetric.ROCKSDB_FLUSH_PENDING, Queries.number(cfStats, "MEM_TABLE_FLUSH_PENDING"));
        put(values, EngineMetric.ROCKSDB_IMMUTABLE_MEMTABLES, Queries.number(cfStats, "NUM_IMMUTABLE_MEM_TABLE"));
        put(values, EngineMetric.ROCKSDB_MEMTABLE_BYTES, Queries.number(cfStats, "CUR_SIZE_ALL_MEM_TABLES"));
        put(values, EngineMetric.ROCKSDB_BACKGROUND_ERRORS,
                Queries.number(Queries.pairs(connection, DB_STATS), "DB_BACKGROUND_ERRORS"));
        Map<String, Long> tableBytes = new LinkedHashMap<>();
        if (slowChecks) {
            try (Statement statement = connection.createStatement(); ResultSet rows = statement.executeQuery(TABLE_SIZES)) {
                while (rows.next()) {
                    tableBytes.put(rows.getString(1) + "." + rows.getString(2), rows.getLong(3));
                }
            }
            values.put(EngineMetric.TABLE_ALLOCATED_BYTES, tableBytes.values().stream().mapToLong(Long::longValue).sum());
        }
        boolean blocked = !stallCounters(connection, values);
        return new EngineSample(true, values, List.of(), tableBytes, slowChecks, blocked);
    }

    /** Reads the stall counters into {@code values}; false when the read ran out of time (the connection is then closed). */
    private boolean stallCounters(Connection connection, Map<EngineMetric, Long> values) throws SQLException {
        int socketTimeout = connection.getNetworkTimeout();
        connection.setNetworkTimeout(Runnable::run, (int) Math.max(1, statusTimeout.toMillis()));
        Map<String, String> status;
        try {
            status = Queries.pairs(connection, STATUS);
        } catch (SQLException e) {
            if (!connection.isClosed()) {
                throw e;
            }
            return false;
        }
        connection.setNetworkTimeout(Runnable::run, socketTimeout);
        put(values, EngineMetric.ROCKSDB_STALL_STOPS, Queries.number(status, "Rocksdb_stall_total_stops"));
        put(values, EngineMetric.ROCKSDB_STALL_SLOWDOWNS, Queries.number(status, "Rocksdb_stall_total_slowdowns"));
        put(values, EngineMetric.ROCKSDB_STALL_MICROS, Queries.number(status, "Rocksdb_stall_micros"));
        return true;
    }

    private static void put(Map<EngineMetric, Long> values, EngineMetric metric, Long value) {
        if (value != null) {
            values.put(metric, value);
        }
    }
}
