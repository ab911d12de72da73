package io.shardgate.router.exec;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;

/**
 * A shard's result for operator tests, written as a small text table: a header of
 * {@code name:KIND} (KIND a {@link ValueKind}, or {@code STRING/collation}) and rows of values separated
 * by {@code |}; {@code NULL} is SQL NULL. It records whether it was closed and how far it was read.
 */
final class FakeStream implements RowStream {
    private final List<ColumnMeta> columns;
    private final List<Row> rows;
    private final Completion completion;
    private int next;
    boolean closed;

    private FakeStream(List<ColumnMeta> columns, List<Row> rows, Completion completion) {
        this.columns = columns;
        this.rows = rows;
        this.completion = completion;
    }

    static FakeStream table(String text) {
        return table(text, Completion.NONE);
    }

    static FakeStream table(String text, Completion completion) {
        List<String> lines = text.strip().lines().map(String::strip).filter(l -> !l.isEmpty()).toList();
        List<ColumnMeta> columns = new ArrayList<>();
        for (String header : lines.get(0).split("\\|")) {
            String[] parts = header.strip().split(":");
            String[] kind = parts[1].split("/");
            ValueKind valueKind = ValueKind.valueOf(kind[0]);
            int collation = kind.length > 1
                    ? io.shardgate.router.collation.Collations.byName(kind[1]).map(c -> c.id()).orElse(999)
                    : ColumnMeta.of(parts[0], valueKind).collationId();
            columns.add(new ColumnMeta(parts[0], valueKind, collation, valueKind == ValueKind.DECIMAL ? 2 : 0));
        }
        List<Row> rows = new ArrayList<>();
        for (String line : lines.subList(1, lines.size())) {
            String[] cells = line.split("\\|", -1);
            Object[] values = new Object[columns.size()];
            for (int i = 0; i < values.length; i++) {
                values[i] = value(cells[i].strip(), columns.get(i).kind());
            }
            rows.add(Row.of(values));
        }
        return new FakeStream(List.copyOf(columns), rows, completion);
    }

    private static Object value(String cell, ValueKind kind) {
        if (cell.equals("NULL")) {
            return null;
        }
        return switch (kind) {
            case INTEGER -> Long.parseLong(cell);
            case DECIMAL -> new BigDecimal(cell);
            case FLOAT -> Double.parseDouble(cell);
            default -> cell;
        };
    }

    int rowsRead() {
        return next;
    }

    @Override
    public List<ColumnMeta> columns() {
        return columns;
    }

    @Override
    public Row next() {
        return next < rows.size() ? rows.get(next++) : null;
    }

    @Override
    public Completion completion() {
        return completion;
    }

    @Override
    public void close() {
        closed = true;
    }

    /** Everything {@code stream} returns, each row as a list, then closes it. */
    static List<List<Object>> drain(RowStream stream) {
        List<List<Object>> result = new ArrayList<>();
        for (Row row = stream.next(); row != null; row = stream.next()) {
            result.add(row.values());
        }
        stream.close();
        return result;
    }
}
