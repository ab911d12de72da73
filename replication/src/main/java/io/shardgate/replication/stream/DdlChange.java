package io.shardgate.replication.stream;

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
 */
public record DdlChange(String defaultSchema, String sql, Set<String> schemas, boolean global) implements Change {
    public DdlChange {
        requireNonNull(defaultSchema, "defaultSchema is null");
        requireNonNull(sql, "sql is null");
        schemas = Set.copyOf(requireNonNull(schemas, "schemas is null"));
    }

    /** The first schema it names, for positions and filters; the default schema when it names none. */
    @Override
    public String schema() {
        return schemas.isEmpty() ? defaultSchema : schemas.iterator().next();
    }
}
