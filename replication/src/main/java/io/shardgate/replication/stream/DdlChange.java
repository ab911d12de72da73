package io.shardgate.replication.stream;

import io.shardgate.replication.stream.history.TableVersion;

import java.util.List;
import java.util.Set;

import static java.util.Objects.requireNonNull;

/**
 * A DDL statement from the source's binlog.
 *
 * @param defaultSchema the session's default database when it ran (may be empty)
 * @param sql           the statement as logged
 * @param schemas       the schemas it changes, as far as they can be read from the statement
 * @param global        true when it must be a barrier for every schema: database-level DDL
 *                      (CREATE/ALTER/DROP DATABASE) or a statement whose schemas cannot be told
 * @param history       the schema history's table versions it made, stored with its position
 */
public record DdlChange(String defaultSchema, String sql, Set<String> schemas, boolean global,
                        List<TableVersion> history) implements Change {
    public DdlChange {
        requireNonNull(defaultSchema, "defaultSchema is null");
        requireNonNull(sql, "sql is null");
        schemas = Set.copyOf(requireNonNull(schemas, "schemas is null"));
        history = List.copyOf(requireNonNull(history, "history is null"));
    }

    /** A DDL change that made no schema history versions. */
    public DdlChange(String defaultSchema, String sql, Set<String> schemas, boolean global) {
        this(defaultSchema, sql, schemas, global, List.of());
    }

    public DdlChange withHistory(List<TableVersion> versions) {
        return new DdlChange(defaultSchema, sql, schemas, global, versions);
    }

    /** The first schema it names, for positions and filters; the default schema when it names none. */
    @Override
    public String schema() {
        return schemas.isEmpty() ? defaultSchema : schemas.iterator().next();
    }
}
