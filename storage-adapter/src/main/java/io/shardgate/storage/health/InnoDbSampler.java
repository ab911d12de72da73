package io.shardgate.storage.health;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * InnoDB's probe: the history list length ({@code INNODB_METRICS trx_rseg_history_len}, or
 * {@code Innodb_history_list_length} when that counter is disabled) and the page-compression
 * savings. Slow checks add the indexes marked corrupt ({@code INNODB_SYS_INDEXES.TYPE & 16})
 * and the allocated size of every file-per-table tablespace.
 */
public final class InnoDbSampler implements EngineSampler {
    private static final String HISTORY = "SELECT ENABLED, COUNT FROM information_schema.INNODB_METRICS"
            + " WHERE NAME = 'trx_rseg_history_len'";
    private static final String STATUS = "SHOW GLOBAL STATUS WHERE Variable_name IN ('Innodb_history_list_length',"
            + " 'Innodb_page_compression_saved')";
    private static final String CORRUPT = "SELECT t.NAME, i.NAME FROM information_schema.INNODB_SYS_INDEXES i"
            + " JOIN information_schema.INNODB_SYS_TABLES t ON t.TABLE_ID = i.TABLE_ID WHERE i.TYPE & 16 <> 0";
    private static final String TABLE_SIZES = "SELECT NAME, ALLOCATED_SIZE FROM information_schema.INNODB_SYS_TABLESPACES"
            + " WHERE NAME LIKE '%/%' AND NAME NOT LIKE 'mysql/%' AND NAME NOT LIKE 'sys/%'";

    @Override
    public EngineSample sample(Connection connection, boolean slowChecks) throws SQLException {
        if (!Queries.engineLoaded(connection, "InnoDB")) {
            return EngineSample.engineMissing();
        }
        Map<EngineMetric, Long> values = new LinkedHashMap<>();
        Map<String, String> status = Queries.pairs(connection, STATUS);
        List<String> history = Queries.firstRow(connection, HISTORY);
        boolean counterEnabled = history.size() == 2 && "1".equals(history.get(0));
        Long length = counterEnabled ? Queries.parse(history.get(1))
                : Queries.number(status, "Innodb_history_list_length");
        if (length != null) {
            values.put(EngineMetric.INNODB_HISTORY_LIST_LENGTH, length);
        }
        Long saved = Queries.number(status, "Innodb_page_compression_saved");
        if (saved != null) {
            values.put(EngineMetric.INNODB_PAGE_COMPRESSION_SAVED, saved);
        }
        List<String> corrupt = new ArrayList<>();
        Map<String, Long> tableBytes = new LinkedHashMap<>();
        if (slowChecks) {
            try (Statement statement = connection.createStatement()) {
                try (ResultSet rows = statement.executeQuery(CORRUPT)) {
                    while (rows.next()) {
                        corrupt.add(rows.getString(1) + "." + rows.getString(2));
                    }
                }
                try (ResultSet rows = statement.executeQuery(TABLE_SIZES)) {
                    while (rows.next()) {
                        tableBytes.put(rows.getString(1).replace('/', '.'), rows.getLong(2));
                    }
                }
            }
            values.put(EngineMetric.INNODB_CORRUPT_INDEXES, (long) corrupt.size());
            values.put(EngineMetric.TABLE_ALLOCATED_BYTES, tableBytes.values().stream().mapToLong(Long::longValue).sum());
        }
        return new EngineSample(true, values, corrupt, tableBytes, slowChecks, false);
    }
}
