package io.shardgate.replication.stream;

import java.util.Set;

import static java.util.Objects.requireNonNull;

/**
 * Which schemas and tables the stream carries. An empty include set means every schema; the
 * server's own schemas and the applier's {@code _shardgate} are never carried. Tables are named
 * {@code schema.table}.
 */
public record TableFilter(Set<String> includeSchemas, Set<String> excludeSchemas, Set<String> includeTables,
                          Set<String> excludeTables) {
    private static final Set<String> SYSTEM = Set.of("mysql", "information_schema", "performance_schema", "sys",
            "_shardgate");

    public TableFilter {
        includeSchemas = Set.copyOf(requireNonNull(includeSchemas, "includeSchemas is null"));
        excludeSchemas = Set.copyOf(requireNonNull(excludeSchemas, "excludeSchemas is null"));
        includeTables = Set.copyOf(requireNonNull(includeTables, "includeTables is null"));
        excludeTables = Set.copyOf(requireNonNull(excludeTables, "excludeTables is null"));
    }

    public static TableFilter all() {
        return new TableFilter(Set.of(), Set.of(), Set.of(), Set.of());
    }

    public static TableFilter schemas(Set<String> include) {
        return new TableFilter(include, Set.of(), Set.of(), Set.of());
    }

    public boolean carriesSchema(String schema) {
        if (schema == null || SYSTEM.contains(schema) || excludeSchemas.contains(schema)) {
            return false;
        }
        return includeSchemas.isEmpty() || includeSchemas.contains(schema);
    }

    public boolean carriesTable(String schema, String table) {
        if (!carriesSchema(schema)) {
            return false;
        }
        String name = schema + "." + table;
        if (excludeTables.contains(name)) {
            return false;
        }
        return includeTables.isEmpty() || includeTables.contains(name);
    }
}
