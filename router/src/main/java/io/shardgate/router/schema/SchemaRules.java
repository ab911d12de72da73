package io.shardgate.router.schema;

import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * One logical schema, config {@code schemas[]}: its tables and sequences. Table names are looked up
 * ignoring case, so two tables may not differ only in case.
 */
public final class SchemaRules {
    private final String name;
    private final Map<String, TableRule> tables = new LinkedHashMap<>();
    private final Map<String, Sequence> sequencesByTable = new LinkedHashMap<>();

    /** Throws IllegalArgumentException, the message starting with the config key, when the rules contradict each other. */
    public SchemaRules(String name, List<TableRule> tables, List<Sequence> sequences) {
        this.name = requireNonNull(name, "name is null");
        requireNonNull(tables, "tables is null");
        requireNonNull(sequences, "sequences is null");
        String prefix = "schemas[" + name + "]";
        for (TableRule table : tables) {
            if (this.tables.putIfAbsent(key(table.name()), table) != null) {
                throw new IllegalArgumentException(prefix + ".tables." + table.name() + ": listed twice (names ignore case)");
            }
        }
        for (Sequence sequence : sequences) {
            String at = prefix + ".sequences." + sequence.name();
            TableRule table = this.tables.get(key(sequence.table()));
            if (table == null) {
                throw new IllegalArgumentException(at + ": table " + sequence.table() + " is not in schemas[" + name + "].tables");
            }
            if (sequencesByTable.putIfAbsent(key(sequence.table()), sequence) != null) {
                throw new IllegalArgumentException(at + ": table " + sequence.table() + " already has a sequence");
            }
        }
    }

    public String name() {
        return name;
    }

    public Collection<TableRule> tables() {
        return tables.values();
    }

    /** The rule of {@code table}, ignoring case. */
    public Optional<TableRule> table(String table) {
        return Optional.ofNullable(tables.get(key(table)));
    }

    /** The sequence feeding a column of {@code table}, if any. */
    public Optional<Sequence> sequence(String table) {
        return Optional.ofNullable(sequencesByTable.get(key(table)));
    }

    public Collection<Sequence> sequences() {
        return sequencesByTable.values();
    }

    static String key(String name) {
        return name.toLowerCase(Locale.ROOT);
    }

    @Override
    public String toString() {
        return name + tables.values();
    }
}
