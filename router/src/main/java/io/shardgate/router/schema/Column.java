package io.shardgate.router.schema;

import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * One column of a table as a shard's {@code information_schema.COLUMNS} describes it.
 *
 * @param name          its name (compared ignoring case, as MariaDB compares column names)
 * @param position      its ordinal position, from 1
 * @param type          {@code COLUMN_TYPE}, such as {@code bigint(20)} or {@code varchar(64)}
 * @param collation     {@code COLLATION_NAME}; empty for a column that is not a string
 * @param generated     whether it is a generated column, and how it is stored
 * @param defaultValue  {@code COLUMN_DEFAULT} as MariaDB shows it ({@code NULL}, {@code 'x'}, {@code current_timestamp()});
 *                      empty when the column has no default
 * @param autoIncrement whether it is an AUTO_INCREMENT column
 */
public record Column(String name, int position, String type, Optional<String> collation, Generated generated,
                     Optional<String> defaultValue, boolean autoIncrement) {

    /** How a column's values come to be. */
    public enum Generated {
        /** An ordinary column: a value or its default is stored. */
        NO,
        /** {@code GENERATED ALWAYS AS (...) VIRTUAL}: computed when read. */
        VIRTUAL,
        /** {@code GENERATED ALWAYS AS (...) STORED} (MariaDB's PERSISTENT): computed when written. */
        STORED
    }

    public Column {
        requireNonNull(name, "name is null");
        if (position < 1) {
            throw new IllegalArgumentException("position: " + position + " (expected: >= 1)");
        }
        requireNonNull(type, "type is null");
        requireNonNull(collation, "collation is null");
        requireNonNull(generated, "generated is null");
        requireNonNull(defaultValue, "defaultValue is null");
    }

    /** A plain column: not generated, no default, no AUTO_INCREMENT. */
    public static Column of(String name, int position, String type) {
        return new Column(name, position, type, Optional.empty(), Generated.NO, Optional.empty(), false);
    }

    /** Whether {@code other} is the same column to a statement that lists the columns implicitly: name, position, generated. */
    boolean sameShape(Column other) {
        return name.equalsIgnoreCase(other.name) && position == other.position && generated == other.generated;
    }

    /** How the column is written in a report: {@code name type [collation] [VIRTUAL|STORED]}. */
    public String describe() {
        return name + " " + type + collation.map(c -> " " + c).orElse("") + (generated == Generated.NO ? "" : " " + generated);
    }
}
