package io.shardgate.proxy.config;

/**
 * When a DDL that blocks writes may run without {@code shardgate_allow_blocking_ddl} ({@code ddl:} in
 * the config file): when, on every shard, the table's engine statistics
 * ({@code information_schema.TABLES}) show at most {@code blockingMaxRows} rows and at most
 * {@code blockingMaxBytes} bytes of data and indexes.
 *
 * <p>The defaults keep a blocking ALTER well under a second on a small machine: measured on this
 * project's 2-core test machine under load, an {@code ALGORITHM=COPY} ALTER of a sysbench-shaped table
 * took 0.17–0.45 s at 10,000 rows, 0.4–0.9 s at 20,000 and 1.3–2.9 s at 100,000 (InnoDB and MyRocks;
 * docs/engines.md). 15,000 rows lets sysbench's default 10,000-row tables through with room for
 * InnoDB's estimate; 4 MiB is about as much InnoDB data as 15,000 such rows.
 *
 * @param blockingMaxRows  the largest TABLE_ROWS a blocking DDL runs on without the session flag (0: every
 *                         blocking DDL needs the flag, whatever the size)
 * @param blockingMaxBytes the largest DATA_LENGTH + INDEX_LENGTH a blocking DDL runs on without the flag (0: as above)
 */
public record DdlConfig(long blockingMaxRows, long blockingMaxBytes) {
    public static final DdlConfig DEFAULTS = new DdlConfig(15_000, 4L * 1024 * 1024);

    public DdlConfig {
        if (blockingMaxRows < 0) {
            throw new IllegalArgumentException("blockingMaxRows: " + blockingMaxRows + " (expected: >= 0)");
        }
        if (blockingMaxBytes < 0) {
            throw new IllegalArgumentException("blockingMaxBytes: " + blockingMaxBytes + " (expected: >= 0)");
        }
    }
}
