package io.shardgate.proxy.sharding;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import static java.util.Objects.requireNonNull;

/**
 * Control-plane connections that first run a table's {@code CREATE ... IF NOT EXISTS} statements,
 * once per shard per process: Shardgate's own tables appear on first use, with no setup step.
 */
public final class SchemaOnFirstUse {
    private final List<String> ddl;
    private final Set<String> ready = ConcurrentHashMap.newKeySet();

    public SchemaOnFirstUse(String... ddl) {
        this.ddl = List.of(ddl);
    }

    /** A connection to {@code shard} through {@code dataSource}, its tables created if this is the first. */
    public Connection connect(String shard, DataSource dataSource) throws SQLException {
        Connection connection = requireNonNull(dataSource, "dataSource is null").getConnection();
        if (!ready.contains(shard)) {
            try (Statement statement = connection.createStatement()) {
                for (String each : ddl) {
                    statement.execute(each);
                }
            } catch (SQLException e) {
                connection.close();
                throw e;
            }
            ready.add(shard);
        }
        return connection;
    }
}
