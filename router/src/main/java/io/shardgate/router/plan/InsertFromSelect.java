package io.shardgate.router.plan;

import io.shardgate.errors.ErrorCode;
import io.shardgate.router.exec.Completion;
import io.shardgate.router.exec.Row;
import io.shardgate.router.exec.RowStream;
import io.shardgate.router.exec.Streams;
import io.shardgate.router.value.SqlValue;

import java.util.ArrayList;
import java.util.List;

import static java.util.Objects.requireNonNull;

/**
 * {@code INSERT ... SELECT} into a sharded table whose rows need values the proxy draws (a global
 * sequence feeds a column): the SELECT runs first ({@code source}), its rows are held (at most
 * {@code limits.max_buffered_rows}, else {@link ErrorCode#BUFFER_LIMIT}), and they are inserted as
 * {@code VALUES} rows through {@code template}, in batches of {@link #BATCH} rows, each row on its
 * shard and each row's values bound as parameters (proxy-core sends them as literals that read back to
 * the same values). proxy-core runs it as a write to several shards: in XA mode, outside a transaction,
 * in an XA transaction of its own, so its batches are all or nothing as one statement's rows are.
 *
 * @param table    the target table, {@code shop.orders}, for EXPLAIN and errors
 * @param source   the SELECT part
 * @param template the INSERT: its prefix, suffix and one row whose value {@code k} is
 *                 {@link ValueSource.Parameter} {@code k} of the statement's parameters followed by the
 *                 selected row (see {@link #rowParameter}); a sequence column is a {@link InsertValue.FromSequence}
 * @param width    the number of columns the SELECT returns
 */
public record InsertFromSelect(String table, PlanNode source, InsertSplit template, int width) implements PlanNode {

    /** Rows per INSERT statement sent to the shards. */
    static final int BATCH = 500;

    public InsertFromSelect {
        requireNonNull(table, "table is null");
        requireNonNull(source, "source is null");
        requireNonNull(template, "template is null");
        if (template.rows().size() != 1) {
            throw new IllegalArgumentException("the template has " + template.rows().size() + " rows, not 1");
        }
    }

    /** In the template row, the value of selected column {@code column}. */
    public static ValueSource.Parameter rowParameter(int statementParameters, int column) {
        return new ValueSource.Parameter(statementParameters + column);
    }

    @Override
    public List<PlanNode> inputs() {
        return List.of(source);
    }

    @Override
    public RowStream open(Execution execution) {
        List<Row> rows = new ArrayList<>();
        try (RowStream selected = source.open(execution)) {
            for (Row row = selected.next(); row != null; row = selected.next()) {
                if (rows.size() >= execution.maxBufferedRows()) {
                    throw ErrorCode.BUFFER_LIMIT.exception(execution.maxBufferedRows(), "INSERT ... SELECT into " + table);
                }
                if (row.size() != width) {
                    throw new IllegalStateException("the SELECT returned " + row.size() + " columns, not " + width);
                }
                rows.add(row);
            }
        }
        Completion total = Completion.NONE;
        for (int from = 0; from < rows.size(); from += BATCH) {
            total = total.plus(insert(rows.subList(from, Math.min(rows.size(), from + BATCH)), from, execution));
        }
        return Streams.completed(total);
    }

    /** Inserts one batch: the template's row once per selected row, its parameters moved to that row's values. */
    private Completion insert(List<Row> batch, int firstNumber, Execution execution) {
        int statementParameters = execution.parameters().size();
        List<SqlValue> parameters = new ArrayList<>(execution.parameters());
        InsertRow shape = template.rows().get(0);
        List<InsertRow> rows = new ArrayList<>(batch.size());
        for (int r = 0; r < batch.size(); r++) {
            Row row = batch.get(r);
            int base = parameters.size();
            for (int c = 0; c < width; c++) {
                parameters.add(row.get(c));
            }
            List<InsertValue> values = new ArrayList<>();
            for (InsertValue value : shape.values()) {
                values.add(moved(value, base - statementParameters));
            }
            rows.add(new InsertRow(firstNumber + r + 1, values, shape.keyIndex()));
        }
        InsertSplit split = new InsertSplit(template.target(), template.keyColumn(), template.vindex(), template.ranges(),
                template.prefix(), rows, template.suffix(), template.suffixParameters(), template.candidates(),
                template.partitionSelected(), template.sequence());
        try (RowStream done = split.open(new Execution(execution.cursor(), parameters, execution.sequences(), execution.maxBufferedRows()))) {
            return done.completion();
        }
    }

    private static InsertValue moved(InsertValue value, int shift) {
        if (value instanceof InsertValue.Written written) {
            return moved(written, shift);
        }
        InsertValue.FromSequence sequence = (InsertValue.FromSequence) value;
        return new InsertValue.FromSequence(sequence.given().map(given -> moved(given, shift)));
    }

    private static InsertValue.Written moved(InsertValue.Written written, int shift) {
        ValueSource.Parameter parameter = (ValueSource.Parameter) written.value().orElseThrow();
        ValueSource.Parameter now = new ValueSource.Parameter(parameter.index() + shift);
        return new InsertValue.Written(written.text(), List.of(now), java.util.Optional.of(now));
    }

    @Override
    public <R> R accept(PlanVisitor<R> visitor) {
        return visitor.visit(this);
    }
}
