package io.shardgate.router.plan;

import io.shardgate.errors.ErrorCode;
import io.shardgate.router.exec.Row;
import io.shardgate.router.exec.RowStream;
import io.shardgate.router.exec.ShardCursor;
import io.shardgate.router.exec.ShardStatement;
import io.shardgate.router.value.SqlValue;

import java.util.ArrayList;
import java.util.List;

import static java.util.Objects.requireNonNull;

/**
 * A statement over tables that live on different shards (a join off the shard keys, a correlated
 * subquery over another table): the rows it needs of every table but one (the driving table) are read
 * first, each table's own conditions applied on its shards, and buffered (at most
 * {@code limits.max_buffered_rows} in all); then every shard the statement runs on gets them, before
 * the statement and on the same connection, as a temporary table of the very name, schema and column
 * types of the table it copies. The shard's server then runs the client's statement unchanged: its
 * join, its expressions, its column metadata are the server's own, and the driving table streams.
 * The copies go away when the statement's result has ended ({@code DROP TEMPORARY TABLE}).
 *
 * <p>The copies are InnoDB tables: MyRocks has no temporary tables. They are not written to the binary
 * log when the shard logs rows ({@code binlog_format=ROW}, which the change stream needs too).
 *
 * @param copies    the tables copied, each with the plan that reads its rows
 * @param statement the plan of the client's statement with the copied tables placed as copies on every shard
 * @param reason    why the shards could not answer the statement without copies: the refusal copies avoid, for errors
 * @param batched   whether the one copied table streams in batches of {@link #BATCH_ROWS} rows, the statement running
 *                  once per batch (a nested loop: the statement's rows are each of one copied row, and nothing merges
 *                  them), so that no limit applies to it; else every copy is read whole first, within the limit
 */
public record CopyJoin(List<TableCopy> copies, PlanNode statement, String reason, boolean batched) implements PlanNode {

    /** How many rows of a batched copy one run of the statement gets. */
    static final int BATCH_ROWS = 5_000;
    /** How many rows one INSERT of a copy carries at most. */
    static final int ROWS_PER_INSERT = 500;
    /** How many bytes of values one INSERT of a copy carries at most (then a new INSERT starts). */
    static final long BYTES_PER_INSERT = 1 << 20;

    /**
     * One table copied.
     *
     * @param schema     its schema
     * @param table      its name
     * @param rows       the plan reading the rows the statement may need: {@code SELECT * FROM} it, with its own conditions
     * @param parameters for each {@code ?} of that plan, the statement's parameter it is
     * @param text       that SELECT's text, for EXPLAIN
     */
    public record TableCopy(String schema, String table, PlanNode rows, List<ValueSource> parameters, String text) {
        public TableCopy {
            requireNonNull(schema, "schema is null");
            requireNonNull(table, "table is null");
            requireNonNull(rows, "rows is null");
            parameters = List.copyOf(parameters);
            requireNonNull(text, "text is null");
        }

        String qualified() {
            return quote(schema) + "." + quote(table);
        }
    }

    public CopyJoin {
        copies = List.copyOf(copies);
        requireNonNull(statement, "statement is null");
        requireNonNull(reason, "reason is null");
        if (copies.isEmpty()) {
            throw new IllegalArgumentException("no table to copy");
        }
        if (batched && copies.size() != 1) {
            throw new IllegalArgumentException("only one copied table can stream in batches, not " + copies.size());
        }
    }

    @Override
    public List<PlanNode> inputs() {
        List<PlanNode> inputs = new ArrayList<>();
        copies.forEach(copy -> inputs.add(copy.rows()));
        inputs.add(statement);
        return inputs;
    }

    @Override
    public RowStream open(Execution execution) {
        if (batched) {
            TableCopy copy = copies.get(0);
            RowStream rows = copy.rows().open(own(copy, execution));
            return new CopyBatchStream(rows, (int) Math.min(BATCH_ROWS, execution.maxBufferedRows()),
                    batch -> run(execution, steps(copy, batch, new ArrayList<>()), List.of(drop(copy))));
        }
        List<ShardStatement.Step> before = new ArrayList<>();
        List<ShardStatement.Step> after = new ArrayList<>();
        long[] buffered = {0};
        for (TableCopy copy : copies) {
            steps(copy, read(copy, execution, buffered, reason), before);
            after.add(drop(copy));
        }
        return run(execution, before, after);
    }

    /** The statement, each of its shard statements with {@code before} and {@code after} around it. */
    private RowStream run(Execution execution, List<ShardStatement.Step> before, List<ShardStatement.Step> after) {
        return statement.open(new Execution(new Copying(execution.cursor(), before, after), execution.parameters(),
                execution.sequences(), execution.maxBufferedRows()));
    }

    /** The statements that make the copy of {@code rows}, added to {@code out}. */
    private static List<ShardStatement.Step> steps(TableCopy copy, List<Row> rows, List<ShardStatement.Step> out) {
        out.add(new ShardStatement.Step("CREATE TEMPORARY TABLE " + copy.qualified() + " ENGINE=InnoDB SELECT * FROM "
                + copy.qualified() + " LIMIT 0", List.of()));
        inserts(copy, rows, out);
        return out;
    }

    private static ShardStatement.Step drop(TableCopy copy) {
        return new ShardStatement.Step("DROP TEMPORARY TABLE IF EXISTS " + copy.qualified(), List.of());
    }

    /** The execution that reads a copy's rows: its parameters bound, its results not the statement's. */
    private static Execution own(TableCopy copy, Execution execution) {
        List<SqlValue> bound = new ArrayList<>(copy.parameters().size());
        for (ValueSource source : copy.parameters()) {
            bound.add(source.value(execution.parameters()));
        }
        return new Execution(execution.cursor().forSubquery(), bound, execution.sequences(), execution.maxBufferedRows());
    }

    /** The copy's rows, counted against the limit with every other copy's. */
    private static List<Row> read(TableCopy copy, Execution execution, long[] buffered, String reason) {
        List<Row> rows = new ArrayList<>();
        try (RowStream stream = copy.rows().open(own(copy, execution))) {
            Row row;
            while ((row = stream.next()) != null) {
                if (++buffered[0] > execution.maxBufferedRows()) {
                    throw ErrorCode.BUFFER_LIMIT.exception(execution.maxBufferedRows(),
                            "the rows of " + copy.schema() + "." + copy.table() + " copied to the shards of a statement they cannot answer alone ("
                                    + reason + ")");
                }
                rows.add(row);
            }
        }
        return rows;
    }

    /** The INSERTs that fill the copy, a few hundred rows or a megabyte each. */
    private static void inserts(TableCopy copy, List<Row> rows, List<ShardStatement.Step> out) {
        String prefix = "INSERT INTO " + copy.qualified() + " VALUES ";
        StringBuilder sql = new StringBuilder(prefix);
        List<SqlValue> values = new ArrayList<>();
        int inInsert = 0;
        long bytes = 0;
        for (Row row : rows) {
            if (inInsert > 0 && (inInsert >= ROWS_PER_INSERT || bytes >= BYTES_PER_INSERT)) {
                out.add(new ShardStatement.Step(sql.toString(), values));
                sql = new StringBuilder(prefix);
                values = new ArrayList<>();
                inInsert = 0;
                bytes = 0;
            }
            sql.append(inInsert == 0 ? "(" : ", (");
            int width = row.size();
            for (int i = 0; i < width; i++) {
                SqlValue value = row.get(i);
                sql.append(i == 0 ? "?" : ", ?");
                values.add(value);
                bytes += size(value);
            }
            sql.append(')');
            inInsert++;
        }
        if (inInsert > 0) {
            out.add(new ShardStatement.Step(sql.toString(), values));
        }
    }

    /** About how many bytes a value's literal takes (hex doubles a string's bytes). */
    private static long size(SqlValue value) {
        return switch (value.type()) {
            case TEXT -> 2L * value.text().length() + 16;
            case BYTES -> 2L * value.bytes().length + 4;
            default -> 24;
        };
    }

    /** {@code identifier} in backquotes. */
    public static String quote(String identifier) {
        return "`" + identifier.replace("`", "``") + "`";
    }

    @Override
    public <R> R accept(PlanVisitor<R> visitor) {
        return visitor.visit(this);
    }

    /** The statement's cursor, with the copies made before and removed after each of its shard statements. */
    private record Copying(ShardCursor cursor, List<ShardStatement.Step> before, List<ShardStatement.Step> after) implements ShardCursor {
        @Override
        public RowStream execute(ShardStatement statement) {
            return cursor.execute(statement.around(before, after));
        }

        @Override
        public ShardCursor forSubquery() {
            return new Copying(cursor.forSubquery(), before, after);
        }
    }
}
