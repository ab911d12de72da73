package io.shardgate.router.schema;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;

import static java.util.Objects.requireNonNull;

/**
 * What every shard said its tables' columns are, at one moment: an immutable value; a reload makes a new
 * one ({@link #withShard}, {@link #withTable}). A table is found by its schema ignoring case (as the
 * sharding schema matches schemas) and its name exactly (MariaDB on Linux, {@code lower_case_table_names=0},
 * compares table names by their bytes); columns are then found ignoring case ({@link TableColumns#column}).
 *
 * <p>The columns the planner uses are those of the first shard, in config order, that holds the table.
 * When another shard's list differs in names, order or generated kinds, {@link #conflict} says so, and the
 * planner refuses what depends on the list; other differences (a type, a collation, a default) are only
 * reported ({@link #mismatches}).
 */
public final class SchemaSnapshot implements ColumnCatalog {

    /** A table: its schema in lower case, its name as the server spells it. */
    public record TableKey(String schema, String table) implements Comparable<TableKey> {
        public TableKey {
            schema = requireNonNull(schema, "schema is null").toLowerCase(Locale.ROOT);
            requireNonNull(table, "table is null");
        }

        @Override
        public int compareTo(TableKey other) {
            int bySchema = schema.compareTo(other.schema);
            return bySchema != 0 ? bySchema : table.compareTo(other.table);
        }
    }

    /**
     * One shard's columns of a table differ from the first shard's.
     *
     * @param reference   the first shard holding the table, whose columns the planner uses
     * @param shard       the shard that differs
     * @param differences how, in words
     * @param blocking    whether the difference is in names, order or generated kinds (the implicit column list)
     */
    public record Mismatch(String schema, String table, String reference, String shard, List<String> differences,
                           boolean blocking) {
        public Mismatch {
            differences = List.copyOf(differences);
        }
    }

    private final List<String> shards;
    /** Per table, per shard (in shard order), its columns there. */
    private final Map<TableKey, Map<String, TableColumns>> tables;

    private SchemaSnapshot(List<String> shards, Map<TableKey, Map<String, TableColumns>> tables) {
        this.shards = shards;
        this.tables = tables;
    }

    /** A snapshot that knows no table yet, for {@code shards} in config order. */
    public static SchemaSnapshot empty(List<String> shards) {
        return new SchemaSnapshot(List.copyOf(requireNonNull(shards, "shards is null")), Map.of());
    }

    /**
     * This snapshot with everything {@code shard} holds in {@code schemas} replaced by {@code loaded}: a full
     * load of those schemas from that shard (a table it no longer has is forgotten there).
     */
    public SchemaSnapshot withShard(String shard, Collection<String> schemas, List<TableColumns> loaded) {
        requireShard(shard);
        Set<String> replaced = schemas.stream().map(s -> s.toLowerCase(Locale.ROOT)).collect(Collectors.toSet());
        Map<TableKey, Map<String, TableColumns>> next = copy();
        next.forEach((key, byShard) -> {
            if (replaced.contains(key.schema())) {
                byShard.remove(shard);
            }
        });
        for (TableColumns table : loaded) {
            if (!replaced.contains(table.schema().toLowerCase(Locale.ROOT))) {
                throw new IllegalArgumentException("table " + table.schema() + "." + table.table() + " is not in the schemas loaded: "
                        + schemas);
            }
            next.computeIfAbsent(new TableKey(table.schema(), table.table()), k -> new LinkedHashMap<>()).put(shard, table);
        }
        return new SchemaSnapshot(shards, freeze(next));
    }

    /** This snapshot with one table reloaded from one shard; {@code loaded} empty: the shard no longer has it. */
    public SchemaSnapshot withTable(String shard, String schema, String table, Optional<TableColumns> loaded) {
        requireShard(shard);
        Map<TableKey, Map<String, TableColumns>> next = copy();
        TableKey key = new TableKey(schema, table);
        if (loaded.isPresent()) {
            next.computeIfAbsent(key, k -> new LinkedHashMap<>()).put(shard, loaded.get());
        }
        else if (next.containsKey(key)) {
            next.get(key).remove(shard);
        }
        return new SchemaSnapshot(shards, freeze(next));
    }

    @Override
    public Optional<TableColumns> columns(String schema, String table) {
        Map<String, TableColumns> byShard = tables.get(new TableKey(schema, table));
        return byShard == null ? Optional.empty() : byShard.values().stream().findFirst();
    }

    @Override
    public Optional<String> conflict(String schema, String table) {
        List<Mismatch> blocking = mismatches(new TableKey(schema, table)).stream().filter(Mismatch::blocking).toList();
        if (blocking.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(blocking.stream().map(m -> "on shard " + m.shard() + " " + String.join(", ", m.differences())
                + " (against shard " + m.reference() + ")").collect(Collectors.joining("; ")));
    }

    /** Every table some shard holds, ordered by schema and name. */
    public List<TableKey> tables() {
        return List.copyOf(new TreeMap<>(tables).keySet());
    }

    /** A table's columns on each shard that holds it, in shard order. */
    public Map<String, TableColumns> byShard(String schema, String table) {
        return tables.getOrDefault(new TableKey(schema, table), Map.of());
    }

    /** Every shard whose columns of a table differ from the first shard's, ordered by table. */
    public List<Mismatch> mismatches() {
        List<Mismatch> all = new ArrayList<>();
        for (TableKey key : tables()) {
            all.addAll(mismatches(key));
        }
        return all;
    }

    private List<Mismatch> mismatches(TableKey key) {
        Map<String, TableColumns> byShard = tables.get(key);
        if (byShard == null || byShard.size() < 2) {
            return List.of();
        }
        List<Mismatch> found = new ArrayList<>();
        String reference = byShard.keySet().iterator().next();
        TableColumns first = byShard.get(reference);
        byShard.forEach((shard, columns) -> {
            List<String> differences = first.differences(columns);
            if (!differences.isEmpty()) {
                found.add(new Mismatch(first.schema(), first.table(), reference, shard, differences, !first.sameShape(columns)));
            }
        });
        return found;
    }

    private void requireShard(String shard) {
        if (!shards.contains(shard)) {
            throw new IllegalArgumentException("unknown shard '" + shard + "' (expected one of: " + String.join(", ", shards) + ")");
        }
    }

    private Map<TableKey, Map<String, TableColumns>> copy() {
        Map<TableKey, Map<String, TableColumns>> copy = new LinkedHashMap<>();
        tables.forEach((key, byShard) -> copy.put(key, new LinkedHashMap<>(byShard)));
        return copy;
    }

    /** Each table's shards in config order, tables no shard holds dropped, all unmodifiable. */
    private Map<TableKey, Map<String, TableColumns>> freeze(Map<TableKey, Map<String, TableColumns>> draft) {
        Map<TableKey, Map<String, TableColumns>> frozen = new LinkedHashMap<>();
        draft.forEach((key, byShard) -> {
            Map<String, TableColumns> ordered = new LinkedHashMap<>();
            for (String shard : shards) {
                if (byShard.containsKey(shard)) {
                    ordered.put(shard, byShard.get(shard));
                }
            }
            if (!ordered.isEmpty()) {
                frozen.put(key, java.util.Collections.unmodifiableMap(ordered));
            }
        });
        return java.util.Collections.unmodifiableMap(frozen);
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof SchemaSnapshot that && shards.equals(that.shards) && tables.equals(that.tables);
    }

    @Override
    public int hashCode() {
        return tables.hashCode();
    }

    @Override
    public String toString() {
        return "SchemaSnapshot" + tables.keySet();
    }
}
