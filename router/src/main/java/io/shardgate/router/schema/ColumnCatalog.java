package io.shardgate.router.schema;

import java.util.Optional;

/**
 * The columns of the tables of sharded schemas, as the planner reads them: without I/O, from whatever
 * snapshot proxy-core last loaded from the shards ({@link SchemaSnapshot}). Implementations are safe to
 * call from any thread.
 */
public interface ColumnCatalog {

    /** A catalog that knows no table: every lookup is empty. */
    ColumnCatalog NONE = new ColumnCatalog() {
        @Override
        public Optional<TableColumns> columns(String schema, String table) {
            return Optional.empty();
        }

        @Override
        public Optional<String> conflict(String schema, String table) {
            return Optional.empty();
        }
    };

    /**
     * The columns of {@code schema.table} (the table name as the server spells it; the schema name ignoring
     * case, as the sharding schema matches it); empty when they were never loaded.
     */
    Optional<TableColumns> columns(String schema, String table);

    /**
     * Why the shards holding {@code schema.table} disagree on its column list (names, order, generated
     * kinds), naming the shards; empty when they agree or when it is unknown.
     */
    Optional<String> conflict(String schema, String table);
}
