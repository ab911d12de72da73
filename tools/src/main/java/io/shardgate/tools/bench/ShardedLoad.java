package io.shardgate.tools.bench;

import io.shardgate.replication.topology.Node;
import io.shardgate.router.shard.KeyRange;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * sysbench's table ({@code sbtest.sbtest1}, as {@code oltp_read_write prepare --auto-inc=off} makes it: the same columns,
 * the same kind of values) loaded straight onto the shard primaries, each row on the shard whose key range holds its id's
 * keyspace id under the {@code hash} vindex. Through a proxy, each 1,000-row INSERT spans both shards and commits with
 * XA; straight onto the shards, in parallel, it is faster and no cross-shard commit is involved.
 */
final class ShardedLoad {
    static final String DDL = "CREATE TABLE sbtest.sbtest1 (id INTEGER NOT NULL, k INTEGER DEFAULT '0' NOT NULL,"
            + " c CHAR(120) DEFAULT '' NOT NULL, pad CHAR(60) DEFAULT '' NOT NULL, PRIMARY KEY (id), KEY k_1 (k))";
    private static final int ROWS_PER_INSERT = 1_000;

    private ShardedLoad() {
    }

    /** sysbench's random text: {@code groups} groups of 11 digits joined by '-' (c: 10 groups, 119 characters; pad: 5, 59). */
    static String digits(SplittableRandom random, int groups) {
        StringBuilder text = new StringBuilder(groups * 12);
        for (int g = 0; g < groups; g++) {
            text.append(g == 0 ? "" : "-");
            for (int i = 0; i < 11; i++) {
                text.append((char) ('0' + random.nextInt(10)));
            }
        }
        return text.toString();
    }

    /** Takes one INSERT statement. */
    interface Sink {
        void accept(String insert) throws SQLException;
    }

    /** The rows with ids 1..rows whose keyspace id is in {@code range}, as multi-row INSERTs of up to 1,000 rows, one by one. */
    static void inserts(KeyRange range, int rows, long seed, Sink inserts) throws SQLException {
        SplittableRandom random = new SplittableRandom(seed);
        StringBuilder insert = null;
        int inBatch = 0;
        for (int id = 1; id <= rows; id++) {
            if (!range.contains(WriteProbe.keyspaceId(id))) {
                continue;
            }
            if (insert == null) {
                insert = new StringBuilder("INSERT INTO sbtest.sbtest1 (id, k, c, pad) VALUES ");
            }
            insert.append(inBatch == 0 ? "" : ",").append('(').append(id).append(',').append(1 + random.nextInt(rows))
                    .append(",'").append(digits(random, 10)).append("','").append(digits(random, 5)).append("')");
            if (++inBatch == ROWS_PER_INSERT) {
                inserts.accept(insert.toString());
                insert = null;
                inBatch = 0;
            }
        }
        if (insert != null) {
            inserts.accept(insert.toString());
        }
    }

    /** Creates {@code sbtest.sbtest1} on each shard of {@code shards} (by key range) and loads its rows, all shards at once. */
    static void load(Map<String, Node> shards, int rows) throws SQLException, InterruptedException {
        ExecutorService pool = Executors.newFixedThreadPool(shards.size());
        try {
            List<Future<Void>> loads = new ArrayList<>();
            long seed = 1;
            for (Map.Entry<String, Node> shard : shards.entrySet()) {
                KeyRange range = KeyRange.parse(shard.getKey());
                long shardSeed = seed++;
                loads.add(pool.submit(() -> {
                    try (Connection connection = shard.getValue().connect(); Statement statement = connection.createStatement()) {
                        statement.execute(DDL);
                        inserts(range, rows, shardSeed, statement::executeUpdate);
                    }
                    return null;
                }));
            }
            for (Future<Void> load : loads) {
                try {
                    load.get();
                } catch (java.util.concurrent.ExecutionException e) {
                    if (e.getCause() instanceof SQLException sql) {
                        throw sql;
                    }
                    throw new IllegalStateException("loading sbtest1 failed", e.getCause());
                }
            }
        } finally {
            pool.shutdownNow();
        }
    }
}
