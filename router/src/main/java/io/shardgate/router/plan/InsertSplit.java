package io.shardgate.router.plan;

import io.shardgate.router.value.SqlValue;
import io.shardgate.errors.ErrorCode;
import io.shardgate.router.exec.ConcatStream;
import io.shardgate.router.exec.Role;
import io.shardgate.router.exec.RowStream;
import io.shardgate.router.exec.ShardStatement;
import io.shardgate.router.exec.Streams;
import io.shardgate.router.schema.Sequence;
import io.shardgate.router.shard.ShardRanges;
import io.shardgate.router.vindex.ShardKey;
import io.shardgate.router.vindex.Vindex;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * An INSERT (or REPLACE) into a sharded table, split into one statement per shard: each row goes to
 * the shard its key maps to; rows keep their order within a shard. Sequence values are drawn at
 * execution, before the rows are placed, and the first one is reported as the last insert id.
 *
 * @param target         {@code `shop`.`orders`.`customer_id`}: the shard key column, for errors and EXPLAIN
 * @param keyColumn      {@code customer_id}: the shard key column's name
 * @param vindex         the shard key's vindex
 * @param ranges         the shards' key ranges
 * @param prefix         the statement up to and including VALUES, as each shard gets it
 * @param rows           the rows
 * @param suffix         the statement after the rows (ON DUPLICATE KEY UPDATE ...)
 * @param suffixParameters what the {@code ?} of {@code suffix} are bound to
 * @param candidates     the shards rows may go to: every shard, or those PARTITION (...) names
 * @param partitionSelected whether PARTITION (...) named the candidates (a row outside them is ERR 1748)
 * @param sequence       the global sequence feeding a column, if any
 */
public record InsertSplit(String target, String keyColumn, Vindex vindex, ShardRanges ranges, String prefix, List<InsertRow> rows, String suffix,
                          List<ValueSource> suffixParameters, List<String> candidates, boolean partitionSelected,
                          Optional<Sequence> sequence) implements PlanNode {

    public InsertSplit {
        requireNonNull(target, "target is null");
        requireNonNull(keyColumn, "keyColumn is null");
        requireNonNull(vindex, "vindex is null");
        requireNonNull(ranges, "ranges is null");
        requireNonNull(prefix, "prefix is null");
        rows = List.copyOf(rows);
        requireNonNull(suffix, "suffix is null");
        suffixParameters = List.copyOf(suffixParameters);
        candidates = List.copyOf(candidates);
        requireNonNull(sequence, "sequence is null");
        if (rows.isEmpty()) {
            throw new IllegalArgumentException("no rows");
        }
    }

    /** What an execution sends: one statement per shard, and the first sequence value drawn (0 if none). */
    public record Split(List<ShardStatement> statements, long firstGeneratedId) {
    }

    /** The per-shard statements of an execution; sequence values come from {@code sequences}. */
    public Split split(List<SqlValue> parameters, SequenceSource sequences) {
        Map<String, List<BoundRow>> byShard = new LinkedHashMap<>();
        long firstGenerated = 0;
        int needed = 0;
        for (InsertRow row : rows) {
            for (InsertValue value : row.values()) {
                if (value instanceof InsertValue.FromSequence fromSequence && drawsFromSequence(fromSequence, parameters)) {
                    needed++;
                }
            }
        }
        // One statement's ids are consecutive, as AUTO_INCREMENT's are, whatever other sessions draw meanwhile.
        long[] next = {needed == 0 ? 0 : sequences.nextRange(sequence.orElseThrow(), needed)};
        for (InsertRow row : rows) {
            BoundRow bound = bind(row, parameters, next);
            if (firstGenerated == 0 && bound.generated != 0) {
                firstGenerated = bound.generated;
            }
            byShard.computeIfAbsent(shardOf(row, bound.key), s -> new ArrayList<>()).add(bound);
        }
        List<ShardStatement> statements = new ArrayList<>();
        for (String shard : candidates) {
            List<BoundRow> shardRows = byShard.get(shard);
            if (shardRows == null) {
                continue;
            }
            int length = prefix.length() + suffix.length();
            for (BoundRow row : shardRows) {
                length += row.text.length() + 2;
            }
            StringBuilder sql = new StringBuilder(length).append(prefix);
            List<SqlValue> values = new ArrayList<>();
            for (int i = 0; i < shardRows.size(); i++) {
                sql.append(i == 0 ? "" : ", ").append(shardRows.get(i).text);
                values.addAll(shardRows.get(i).parameters);
            }
            sql.append(suffix);
            for (ValueSource source : suffixParameters) {
                values.add(source.value(parameters));
            }
            statements.add(new ShardStatement(shard, sql.toString(), values, Role.PRIMARY));
        }
        return new Split(statements, firstGenerated);
    }

    private record BoundRow(String text, List<SqlValue> parameters, SqlValue key, long generated) {
    }

    /** Whether this row's sequence column takes a drawn value: left out, NULL or 0 (as AUTO_INCREMENT). */
    private static boolean drawsFromSequence(InsertValue.FromSequence value, List<SqlValue> parameters) {
        Optional<InsertValue.Written> given = value.given();
        if (given.isPresent() && given.get().value().isEmpty()) {
            return false;
        }
        SqlValue givenValue = given.flatMap(InsertValue.Written::value).map(v -> v.value(parameters)).orElse(SqlValue.NULL);
        return givenValue.isNull() || isZero(givenValue);
    }

    /** {@code next[0]}: the next value of the statement's reserved range. */
    private BoundRow bind(InsertRow row, List<SqlValue> parameters, long[] next) {
        if (row.text().isPresent()) {
            // A row as the client wrote it: a literal key, nothing to bind or draw.
            return new BoundRow(row.text().get(), List.of(), literalKey(row).orElseThrow(), 0);
        }
        StringBuilder text = new StringBuilder("(");
        List<SqlValue> values = new ArrayList<>();
        SqlValue key = SqlValue.NULL;
        long generated = 0;
        for (int i = 0; i < row.values().size(); i++) {
            InsertValue value = row.values().get(i);
            SqlValue actual;
            InsertValue.Written written;
            if (value instanceof InsertValue.FromSequence fromSequence) {
                Optional<InsertValue.Written> given = fromSequence.given();
                SqlValue givenValue = given.flatMap(InsertValue.Written::value).map(v -> v.value(parameters)).orElse(SqlValue.NULL);
                if (given.isPresent() && given.get().value().isEmpty()) {
                    actual = SqlValue.NULL;
                    written = given.get();
                }
                else if (!givenValue.isNull() && !isZero(givenValue)) {
                    actual = givenValue;
                    written = given.get();
                }
                else {
                    long id = next[0]++;
                    generated = generated == 0 ? id : generated;
                    actual = SqlValue.ofLong(id);
                    written = new InsertValue.Written(Long.toString(id), List.of(), Optional.empty());
                }
            }
            else {
                written = (InsertValue.Written) value;
                actual = written.value().map(v -> v.value(parameters)).orElse(SqlValue.NULL);
            }
            text.append(i == 0 ? "" : ", ").append(written.text());
            for (ValueSource source : written.parameters()) {
                values.add(source.value(parameters));
            }
            if (i == row.keyIndex()) {
                key = actual;
            }
        }
        return new BoundRow(text.append(')').toString(), values, key, generated);
    }

    /** The row's shard key value when the statement gives it as a literal (not a parameter, not a sequence value to draw). */
    public static Optional<SqlValue> literalKey(InsertRow row) {
        InsertValue key = row.values().get(row.keyIndex());
        Optional<InsertValue.Written> written = key instanceof InsertValue.Written w ? Optional.of(w)
                : ((InsertValue.FromSequence) key).given().filter(g -> !generates(g));
        return written.flatMap(InsertValue.Written::value)
                .filter(v -> v instanceof ValueSource.Literal)
                .map(v -> ((ValueSource.Literal) v).value());
    }

    /** Whether a value given for a sequence column is a literal NULL or 0, which draws the next sequence value. */
    public static boolean generates(InsertValue.Written given) {
        return given.value().orElse(null) instanceof ValueSource.Literal literal && (literal.value().isNull() || isZero(literal.value()));
    }

    /** Whether a value reads as the decimal number 0 (text with surrounding spaces too); never a binary string. */
    private static boolean isZero(SqlValue value) {
        if (value.type() == SqlValue.Type.BYTES) {
            return false;
        }
        try {
            return new BigDecimal(value.toJava().toString().strip()).signum() == 0;
        }
        catch (NumberFormatException e) {
            return false;
        }
    }

    /** The shard a row with this key value goes to; throws the error MySQL would give for a bad key, or 1748. */
    public String shardOf(InsertRow row, SqlValue value) {
        if (value == null || value.isNull()) {
            throw ErrorCode.NULL_SHARD_KEY.exception(keyColumn);
        }
        ShardKey key = vindex.keyType().store(value).orElseThrow(() -> ErrorCode.BAD_SHARD_KEY_VALUE.exception(
                vindex.keyType().kind().name().toLowerCase(java.util.Locale.ROOT), value, target, row.number()));
        String shard = vindex.shardOf(key, ranges).orElseThrow(() -> ErrorCode.NO_SHARD_FOR_VALUE.exception(
                value.type() == SqlValue.Type.TEXT ? "'" + value + "'" : key));
        if (!candidates.contains(shard)) {
            throw partitionSelected ? ErrorCode.ROW_NOT_IN_PARTITION_SET.exception()
                    : new IllegalStateException("shard " + shard + " is not among the candidates " + candidates);
        }
        return shard;
    }

    @Override
    public List<PlanNode> inputs() {
        return List.of();
    }

    @Override
    public RowStream open(Execution execution) {
        Split split = split(execution.parameters(), execution.sequences());
        List<RowStream> streams = new ArrayList<>();
        for (ShardStatement statement : split.statements()) {
            streams.add(execution.cursor().execute(statement));
        }
        RowStream all = streams.size() == 1 ? streams.get(0) : new ConcatStream(streams);
        while (all.next() != null) {
            // An INSERT has no rows; read to the end for its completion.
        }
        all.close();
        return Streams.completed(split.firstGeneratedId() != 0
                ? all.completion().withLastInsertId(split.firstGeneratedId()) : all.completion());
    }

    @Override
    public <R> R accept(PlanVisitor<R> visitor) {
        return visitor.visit(this);
    }
}
