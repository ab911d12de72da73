package io.shardgate.replication.copy;

import io.shardgate.replication.stream.RowChange;
import io.shardgate.replication.stream.RowFilter;
import io.shardgate.replication.stream.TableSchema;
import io.shardgate.router.shard.KeyRange;

import java.util.List;
import java.util.Map;

import static java.util.Objects.requireNonNull;

/**
 * Which source rows one target holds at one moment of the copy, and so which changes its stream
 * applies: rows of tables whose copy is done, and rows of the table being copied whose primary key
 * is at or below the last copied key (later rows arrive from a later snapshot, already current);
 * of those, only rows whose shard key the target's key range owns. Immutable: the copy makes a new
 * scope for each catch-up, after a chunk moved the bound.
 *
 * <p>An update can move a row into or out of the scope (its key or shard key changes): the filter
 * keeps an update when either image is in scope, and {@link #map} turns it into the insert of the
 * new image or the delete of the old one ({@link ScopedApplyTarget}).
 */
public final class CatchUpScope {
    private final Map<String, TableShape> shapes;
    /** Per table ({@code schema.table}): the last copied key, empty for a table copied in full; absent: not started. */
    private final Map<String, List<PkValue>> bounds;
    private final KeyRange range;

    /**
     * @param shapes by {@code schema.table}, every table the copy moves
     * @param bounds by {@code schema.table}: the last copied key of the table being copied, an empty
     *               list for a table copied in full; tables not started are absent
     * @param range  the target's key range
     */
    public CatchUpScope(Map<String, TableShape> shapes, Map<String, List<PkValue>> bounds, KeyRange range) {
        this.shapes = Map.copyOf(requireNonNull(shapes, "shapes is null"));
        this.bounds = Map.copyOf(requireNonNull(bounds, "bounds is null"));
        this.range = requireNonNull(range, "range is null");
    }

    /** Keeps a row change when its before or after image is in this scope. */
    public RowFilter filter() {
        return row -> inScope(row.table(), row.before()) || inScope(row.table(), row.after());
    }

    /** The change as this target applies it; null when neither image is in scope. */
    public RowChange map(RowChange row) {
        if (row.kind() != RowChange.Kind.UPDATE) {
            return inScope(row.table(), row.keyImage()) ? row : null;
        }
        boolean before = inScope(row.table(), row.before());
        boolean after = inScope(row.table(), row.after());
        if (before && after) {
            return row;
        }
        if (before) {
            return new RowChange(row.table(), RowChange.Kind.DELETE, row.before(), null);
        }
        return after ? new RowChange(row.table(), RowChange.Kind.INSERT, null, row.after()) : null;
    }

    boolean inScope(TableSchema table, Object[] image) {
        if (image == null) {
            return false;
        }
        String name = table.qualifiedName();
        List<PkValue> bound = bounds.get(name);
        TableShape shape = shapes.get(name);
        if (bound == null || shape == null) {
            return false;
        }
        List<String> columns = table.columnNames();
        if (!bound.isEmpty() && compareKey(shape, columns, image, bound) > 0) {
            return false;
        }
        if (shape.shardKey() < 0) {
            return true;
        }
        Object key = image[column(columns, shape.names().get(shape.shardKey()), name)];
        return range.contains(shape.table().vindex().keyspaceId(shape.shardKeyOf(key)));
    }

    private static int compareKey(TableShape shape, List<String> columns, Object[] image, List<PkValue> bound) {
        for (int k = 0; k < shape.keys().size(); k++) {
            KeyColumn key = shape.keys().get(k);
            int order = key.compare(image[column(columns, key.name(), shape.table().qualifiedName())], bound.get(k));
            if (order != 0) {
                return order;
            }
        }
        return 0;
    }

    private static int column(List<String> columns, String name, String table) {
        for (int i = 0; i < columns.size(); i++) {
            if (columns.get(i).equalsIgnoreCase(name)) {
                return i;
            }
        }
        throw new CopyException("the change stream's rows of " + table + " have no column " + name);
    }
}
