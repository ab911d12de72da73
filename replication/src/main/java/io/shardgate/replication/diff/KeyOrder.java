package io.shardgate.replication.diff;

import io.shardgate.router.collation.Collation;
import io.shardgate.router.collation.Collations;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

import static java.util.Objects.requireNonNull;

/**
 * Orders primary keys exactly as the servers' {@code ORDER BY} does, so rows read in key order from
 * several servers merge without false mismatches: strings under their column's collation (router's
 * {@code collation} package: under {@code utf8mb4_general_ci} 'a' and 'A' are one key, and 'a' equals
 * 'a ' under PAD SPACE), numbers by value, bytes unsigned, temporal values in time order. A key column
 * whose order Shardgate cannot reproduce (an unknown collation, an ENUM) is refused up front.
 */
final class KeyOrder implements Comparator<List<Object>> {
    private static final Comparator<Object> NUMBERS = (a, b) -> compareNumbers(a, b);
    private static final Comparator<Object> BYTES = (a, b) -> Arrays.compareUnsigned((byte[]) a, (byte[]) b);
    @SuppressWarnings("unchecked")
    private static final Comparator<Object> NATURAL = (a, b) -> ((Comparable<Object>) a).compareTo(b);

    private final List<Comparator<Object>> columns;
    private final boolean integer;

    private KeyOrder(List<Comparator<Object>> columns, boolean integer) {
        this.columns = List.copyOf(columns);
        this.integer = integer;
    }

    /** One key column: its name, {@code information_schema.COLUMNS.DATA_TYPE} and collation (null if none). */
    record Column(String name, String dataType, String collation) {
        Column {
            requireNonNull(name, "name is null");
            requireNonNull(dataType, "dataType is null");
        }
    }

    /** The order of a key with these columns, in key order. */
    static KeyOrder of(List<Column> key) {
        requireNonNull(key, "key is null");
        if (key.isEmpty()) {
            throw new IllegalArgumentException("a diff needs a table with a primary key");
        }
        List<Comparator<Object>> columns = new ArrayList<>();
        for (Column column : key) {
            columns.add(comparator(column));
        }
        boolean integer = key.size() == 1 && switch (key.get(0).dataType().toLowerCase(Locale.ROOT)) {
            case "tinyint", "smallint", "mediumint", "int", "integer", "bigint" -> true;
            default -> false;
        };
        return new KeyOrder(columns, integer);
    }

    private static Comparator<Object> comparator(Column column) {
        String type = column.dataType().toLowerCase(Locale.ROOT);
        switch (type) {
            case "char", "varchar", "tinytext", "text", "mediumtext", "longtext" -> {
                String name = column.collation() == null ? "utf8mb4_general_ci" : column.collation();
                Collation collation = Collations.byName(name).orElseThrow(() -> new IllegalArgumentException(
                        "key column `" + column.name() + "` has collation " + name + ", whose order Shardgate cannot"
                                + " reproduce; it knows " + Collations.names()));
                return (a, b) -> collation.compare((CharSequence) a, (CharSequence) b);
            }
            case "binary", "varbinary", "tinyblob", "blob", "mediumblob", "longblob" -> {
                return BYTES;
            }
            case "tinyint", "smallint", "mediumint", "int", "integer", "bigint", "decimal", "float", "double", "year" -> {
                return NUMBERS;
            }
            case "date", "datetime", "timestamp", "time" -> {
                return NATURAL;
            }
            default -> throw new IllegalArgumentException("key column `" + column.name() + "` is of type " + type
                    + ", whose order a diff cannot reproduce");
        }
    }

    /** Whether the key is one integer column, whose chunk bounds can be computed instead of walked. */
    boolean integerKey() {
        return integer;
    }

    /** The number of key columns. */
    int size() {
        return columns.size();
    }

    @Override
    public int compare(List<Object> a, List<Object> b) {
        if (a.size() != columns.size() || b.size() != columns.size()) {
            throw new IllegalArgumentException("keys of " + a.size() + " and " + b.size() + " values for a key of "
                    + columns.size() + " columns");
        }
        for (int i = 0; i < columns.size(); i++) {
            int c = columns.get(i).compare(a.get(i), b.get(i));
            if (c != 0) {
                return c;
            }
        }
        return 0;
    }

    private static int compareNumbers(Object a, Object b) {
        if (isLong(a) && isLong(b)) {
            return Long.compare(asLong(a), asLong(b));
        }
        return decimal(a).compareTo(decimal(b));
    }

    private static boolean isLong(Object value) {
        return value instanceof Long || value instanceof Integer || value instanceof Short || value instanceof Byte
                || value instanceof Boolean;
    }

    private static long asLong(Object value) {
        return value instanceof Boolean flag ? (flag ? 1 : 0) : ((Number) value).longValue();
    }

    private static BigDecimal decimal(Object value) {
        if (value instanceof BigDecimal decimal) {
            return decimal;
        }
        if (value instanceof BigInteger integer) {
            return new BigDecimal(integer);
        }
        if (value instanceof Double || value instanceof Float) {
            return new BigDecimal(((Number) value).doubleValue());
        }
        return BigDecimal.valueOf(asLong(value));
    }
}
