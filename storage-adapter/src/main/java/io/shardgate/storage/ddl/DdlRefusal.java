package io.shardgate.storage.ddl;

import io.shardgate.storage.Engine;

import java.util.Locale;

import static java.util.Objects.requireNonNull;

/**
 * Why the DDL validator refuses a statement, as data: a MySQL error number and SQLSTATE chosen
 * so that clients react as they would to the same refusal from MariaDB itself, a message
 * template, and what it means. Templates take positional arguments: {@code %1$s} the shard,
 * {@code %2$s} the engine (as MariaDB names it), {@code %3$s} the clause, {@code %4$s} a detail.
 *
 * <p>proxy-core maps these into its error catalog; docs/errors.md lists them.
 */
public enum DdlRefusal {
    FOREIGN_KEY_UNSUPPORTED(1235, "42000", "Shard %1$s (%2$s) does not support foreign keys: %3$s",
            "A FOREIGN KEY or an inline REFERENCES on an engine without foreign keys. MyRocks refuses the"
                    + " table-level form but accepts inline REFERENCES and silently drops it."),
    FULLTEXT_UNSUPPORTED(1214, "HY000", "Shard %1$s (%2$s) does not support FULLTEXT indexes: %3$s",
            "A FULLTEXT index on an engine without them (MyRocks)."),
    SPATIAL_UNSUPPORTED(1178, "42000", "Shard %1$s (%2$s) does not support spatial types or indexes: %3$s",
            "A GEOMETRY-family column or a SPATIAL index on an engine without them (MyRocks)."),
    TABLE_OPTION_UNSUPPORTED(1478, "HY000", "Shard %1$s (%2$s) does not support the table option %3$s: %4$s",
            "ROW_FORMAT, KEY_BLOCK_SIZE or PAGE_COMPRESSED on MyRocks, which stores them and ignores them;"
                    + " or ROW_FORMAT=COMPRESSED on InnoDB while innodb_read_only_compressed=ON."),
    INVALID_KEY_BLOCK_SIZE(1478, "HY000", "Shard %1$s (%2$s) does not accept %3$s: %4$s",
            "A KEY_BLOCK_SIZE InnoDB rejects for the server's innodb_page_size."),
    CONFLICTING_COMPRESSION(1221, "HY000", "Incorrect usage of %3$s on shard %1$s (%2$s): %4$s",
            "ROW_FORMAT=COMPRESSED (or a KEY_BLOCK_SIZE) together with PAGE_COMPRESSED=1."),
    COMPRESSION_PROVIDER_NOT_LOADED(4185, "HY000",
            "Shard %1$s (%2$s) cannot use %3$s: its provider plugin is not loaded (available: %4$s)",
            "A page-compression algorithm whose provider_* plugin the shard's server has not loaded."),
    ENGINE_MISMATCH(1235, "42000", "Shard %1$s runs %2$s; %3$s would put the table in another engine: %4$s",
            "An ENGINE= clause (the table's or a partition's) naming an engine Shardgate has no storage adapter"
                    + " for, such as MEMORY, Aria or MyISAM. One naming an engine with an adapter (InnoDB, RocksDB) is"
                    + " rewritten to the shard's engine instead."),
    ALTER_ALGORITHM_UNAVAILABLE(1845, "0A000", "%3$s is not supported for this operation on shard %1$s (%2$s). Try %4$s",
            "The statement asks for an ALGORITHM or LOCK cheaper than the shard's engine allows for it."),
    BLOCKING_DDL(1846, "0A000",
            "%3$s is not supported. Reason: it blocks writes on shard %1$s (%2$s) for the whole operation. Try %4$s",
            "The ALTER would block writes (ALGORITHM=COPY, or LOCK=SHARED/EXCLUSIVE on a non-instant change)"
                    + " and the session has not allowed blocking DDL."),
    DDL_NOT_UNDERSTOOD(1235, "42000", "Shardgate cannot check this DDL for shard %1$s (%2$s): %4$s",
            "The statement could not be parsed well enough to check it against the shard's engine, so it is"
                    + " not sent to any shard.");

    private final int errno;
    private final String sqlState;
    private final String template;
    private final String description;

    DdlRefusal(int errno, String sqlState, String template, String description) {
        this.errno = errno;
        this.sqlState = sqlState;
        this.template = template;
        this.description = description;
    }

    public int errno() {
        return errno;
    }

    public String sqlState() {
        return sqlState;
    }

    public String template() {
        return template;
    }

    public String description() {
        return description;
    }

    /** The message for one refusal. */
    public String message(String shard, Engine engine, String clause, String detail) {
        return String.format(Locale.ROOT, template, requireNonNull(shard, "shard is null"),
                requireNonNull(engine, "engine is null").serverName(), requireNonNull(clause, "clause is null"),
                requireNonNull(detail, "detail is null"));
    }
}
