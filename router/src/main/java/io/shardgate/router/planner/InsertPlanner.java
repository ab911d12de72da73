package io.shardgate.router.planner;

import com.alibaba.druid.sql.ast.SQLExpr;
import com.alibaba.druid.sql.ast.SQLObject;
import com.alibaba.druid.sql.ast.SQLStatement;
import com.alibaba.druid.sql.ast.expr.SQLBinaryOpExpr;
import com.alibaba.druid.sql.ast.expr.SQLDefaultExpr;
import com.alibaba.druid.sql.ast.expr.SQLIdentifierExpr;
import com.alibaba.druid.sql.ast.expr.SQLPropertyExpr;
import com.alibaba.druid.sql.ast.statement.SQLAssignItem;
import com.alibaba.druid.sql.ast.statement.SQLExprTableSource;
import com.alibaba.druid.sql.ast.statement.SQLInsertStatement;
import com.alibaba.druid.sql.ast.statement.SQLReplaceStatement;
import com.alibaba.druid.sql.dialect.mysql.ast.statement.MySqlInsertStatement;
import io.shardgate.errors.ErrorCode;
import io.shardgate.router.plan.InsertRow;
import io.shardgate.router.plan.InsertSplit;
import io.shardgate.router.plan.InsertValue;
import io.shardgate.router.plan.PlanNode;
import io.shardgate.router.plan.ValueSource;
import io.shardgate.router.schema.Sequence;
import io.shardgate.router.schema.ShardedTable;
import io.shardgate.router.value.SqlValue;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Plans INSERT and REPLACE. Into a sharded table the rows are split by shard ({@link InsertSplit}):
 * every row needs a literal or {@code ?} shard key (or one from the table's sequence), and ON DUPLICATE
 * KEY UPDATE may not assign the shard key. Without a column list the table's own columns, as the shards
 * reported them ({@link InsertColumns}), say where the shard key is; the rows are still sent as written.
 * {@code INSERT ... SET} is sent as the equivalent {@code (columns) VALUES (...)}. Into an unsharded table the statement goes
 * whole to its shard; into a reference table, to every shard.
 */
final class InsertPlanner {
    private final PlanContext context;
    private final Tokens tokens;

    InsertPlanner(PlanContext context) {
        this.context = context;
        this.tokens = context.tokens();
    }

    /** The parts of INSERT and REPLACE the planner uses. */
    private record Parts(SQLExprTableSource table, List<SQLExpr> columns, List<List<SQLExpr>> rows, boolean select,
                         List<String> partitions, List<SQLExpr> onDuplicate) {
    }

    PlanNode plan(SQLStatement statement) {
        Parts parts = parts(statement);
        List<TableUse> uses = StatementTables.of(statement, Nodes.identitySet((SQLObject) statement), context.resolver(), Nodes.identitySet());
        TableUse target = uses.stream().filter(u -> u.source() == parts.table()).findFirst().orElseThrow(
                () -> ErrorCode.UNSUPPORTED.exception("this form of INSERT"));
        List<TableUse> read = uses.stream().filter(u -> u != target).toList();
        SqlRewriter rewriter = new SqlRewriter(tokens);
        PartitionSelection partitions = context.partitions();
        Optional<List<String>> named = parts.partitions().isEmpty() ? Optional.empty()
                : partitions.shards(parts.partitions(), target.table().qualified());
        partitions.restriction(read, true);
        partitions.removeShardClauses(tokens, rewriter);
        if (target.table().unsharded()) {
            named.ifPresent(shards -> shards.stream().filter(s -> !s.equals(target.table().home())).findFirst().ifPresent(s -> {
                throw ErrorCode.UNKNOWN_PARTITION.exception(s, target.table().name());
            }));
            if (read.stream().anyMatch(u -> u.table().sharded())) {
                throw ErrorCode.UNSUPPORTED.exception("INSERT ... SELECT from sharded tables into unsharded table "
                        + target.table().qualified());
            }
            return Placement.unshardedRoute(context, uses, Optional.empty(), rewriter.build(), true);
        }
        if (target.table().reference()) {
            if (named.isPresent()) {
                throw ErrorCode.UNSUPPORTED.exception("PARTITION naming shards on reference table " + target.table().qualified()
                        + " in a write: its copies must stay equal");
            }
            if (read.stream().anyMatch(u -> !u.table().reference())) {
                throw ErrorCode.UNSUPPORTED.exception("writing reference table " + target.table().qualified()
                        + " from sharded or unsharded tables");
            }
            return Placement.unshardedRoute(context, uses, Optional.empty(), rewriter.build(), true);
        }
        if (parts.select()) {
            return new InsertSelectPlanner(context).plan(statement, target, parts.columns(), parts.onDuplicate(), named, rewriter);
        }
        if (!read.isEmpty()) {
            throw ErrorCode.UNSUPPORTED.exception("a subquery in the VALUES of an INSERT into sharded table " + target.table().qualified());
        }
        return split(parts, target, named, rewriter);
    }

    private PlanNode split(Parts parts, TableUse target, Optional<List<String>> named, SqlRewriter rewriter) {
        ShardedTable rule = target.table().shardedRule();
        String qualified = target.table().qualified();
        boolean implicit = parts.columns().isEmpty();
        List<String> columns = implicit ? InsertColumns.implicit(context, target.table(), parts.rows())
                : parts.columns().stream().map(InsertPlanner::columnName).toList();
        for (int r = 0; r < parts.rows().size() && !implicit; r++) {
            if (parts.rows().get(r).size() != columns.size()) {
                throw ErrorCode.COLUMN_COUNT_MISMATCH.exception(r + 1);
            }
        }
        for (SQLExpr assignment : parts.onDuplicate()) {
            if (assignment instanceof SQLBinaryOpExpr binary && rule.isShardKey(columnName(binary.getLeft()))) {
                throw ErrorCode.SHARD_KEY_CHANGE.exception(qualified + "." + rule.shardKey());
            }
        }
        Optional<Sequence> sequence = context.schema().schema(target.table().schema()).flatMap(s -> s.sequence(target.table().name()));
        int sequenceIndex = sequence.map(s -> Names.indexOf(columns, s.column())).orElse(-1);
        int keyIndex = Names.indexOf(columns, rule.shardKey());
        boolean appendSequence = sequence.isPresent() && sequenceIndex < 0 && !implicit;
        if (keyIndex < 0 && !(appendSequence && rule.isShardKey(sequence.get().column()))) {
            throw ErrorCode.UNSUPPORTED.exception("INSERT into sharded table " + qualified + " without a value for its shard key "
                    + rule.shardKey());
        }
        Layout layout = Layout.of(tokens, parts.rows());
        if (appendSequence && layout.columnListEnd() >= 0) {
            rewriter.insert(layout.columnListEnd(), Tokens.Fragment.of(", " + Names.quote(sequence.get().column())));
        }
        else if (appendSequence) {
            layout = layout.withSetColumn(Names.quote(sequence.get().column()));
        }
        List<InsertRow> rows = new ArrayList<>();
        for (int r = 0; r < parts.rows().size(); r++) {
            List<SQLExpr> values = parts.rows().get(r);
            List<InsertValue> row = new ArrayList<>();
            for (int v = 0; v < values.size(); v++) {
                SelectClauses.Span span = layout.values().get(r).get(v);
                Tokens.Fragment text = tokens.fragment(span.start(), span.end());
                InsertValue.Written written = new InsertValue.Written(text.text(), text.parameters(), Literals.of(values.get(v)));
                // DEFAULT in a sequence-fed column draws the next value, as it takes the next AUTO_INCREMENT value.
                boolean drawsByDefault = v == sequenceIndex && values.get(v) instanceof SQLDefaultExpr;
                row.add(v != sequenceIndex ? written : new InsertValue.FromSequence(drawsByDefault ? Optional.empty() : Optional.of(written)));
                if (v == keyIndex && written.value().isEmpty() && !drawsByDefault) {
                    throw ErrorCode.UNSUPPORTED.exception("a shard key value that is an expression: " + rule.shardKey() + " = "
                            + text.text());
                }
            }
            if (appendSequence) {
                row.add(new InsertValue.FromSequence(Optional.empty()));
            }
            rows.add(new InsertRow(r + 1, row, keyIndex >= 0 ? keyIndex : row.size() - 1));
        }
        Tokens.Fragment prefix = layout.prefix(rewriter);
        Tokens.Fragment suffix = rewriter.build(layout.suffixStart(), tokens.sql().length());
        if (!prefix.parameters().isEmpty()) {
            throw ErrorCode.UNSUPPORTED.exception("a parameter before VALUES in an INSERT into sharded table " + qualified);
        }
        String keyName = Names.quote(target.table().schema()) + "." + Names.quote(target.table().name()) + "." + Names.quote(rule.shardKey());
        InsertSplit split = new InsertSplit(keyName, rule.shardKey(), rule.vindex(), context.schema().ranges(), prefix.text(), rows, suffix.text(),
                suffix.parameters(), named.orElse(context.schema().shardNames()), named.isPresent(), sequence);
        for (InsertRow row : rows) {
            InsertSplit.literalKey(row).ifPresent(key -> split.shardOf(row, key));
            if (row.values().get(row.keyIndex()) instanceof InsertValue.Written written && written.value().orElse(null) instanceof ValueSource.Literal literal
                    && literal.value().isNull()) {
                split.shardOf(row, SqlValue.NULL);
            }
        }
        return split;
    }


    static String columnName(SQLExpr column) {
        if (column instanceof SQLIdentifierExpr identifier) {
            return Names.plain(identifier.getName());
        }
        if (column instanceof SQLPropertyExpr property) {
            return Names.plain(property.getName());
        }
        return Aggregates.text(column);
    }

    private static Parts parts(SQLStatement statement) {
        if (statement instanceof MySqlInsertStatement insert) {
            return new Parts(insert.getTableSource(), insert.getColumns(), rows(insert.getValuesList()), insert.getQuery() != null,
                    partitionNames(insert.getPartitions()), insert.getDuplicateKeyUpdate());
        }
        SQLReplaceStatement replace = (SQLReplaceStatement) statement;
        return new Parts(replace.getTableSource(), replace.getColumns(), rows(replace.getValuesList()), replace.getQuery() != null,
                partitionNames(replace.getPartitions()), List.of());
    }

    private static List<List<SQLExpr>> rows(List<SQLInsertStatement.ValuesClause> clauses) {
        return clauses == null ? List.of() : clauses.stream().map(SQLInsertStatement.ValuesClause::getValues).toList();
    }

    private static List<String> partitionNames(List<SQLAssignItem> items) {
        return items == null ? List.of() : items.stream().map(i -> Names.plain(Aggregates.text(i.getTarget()))).toList();
    }

    /**
     * Where the rows are in the text. VALUES form: the prefix runs to the first row's parenthesis.
     * SET form: {@code INSERT INTO t SET a = 1, b = 2} becomes the prefix {@code INSERT INTO t (a, b) VALUES }.
     */
    private record Layout(int prefixEnd, List<String> setColumns, int columnListEnd, List<List<SelectClauses.Span>> values,
                          int suffixStart) {

        Layout withSetColumn(String column) {
            List<String> columns = new ArrayList<>(setColumns);
            columns.add(column);
            return new Layout(prefixEnd, List.copyOf(columns), columnListEnd, values, suffixStart);
        }

        Tokens.Fragment prefix(SqlRewriter rewriter) {
            Tokens.Fragment head = rewriter.build(0, prefixEnd);
            if (setColumns.isEmpty()) {
                return head;
            }
            return new Tokens.Fragment(head.text() + "(" + String.join(", ", setColumns) + ") VALUES ", head.parameters());
        }

        static Layout of(Tokens tokens, List<List<SQLExpr>> expected) {
            int keyword = -1;
            for (int i = 0; i < tokens.size() && keyword < 0; i++) {
                if (tokens.get(i).depth() == 0 && (tokens.isWord(i, "VALUES") || tokens.isWord(i, "VALUE") || tokens.isWord(i, "SET"))) {
                    keyword = i;
                }
            }
            if (keyword < 0) {
                throw unsupported();
            }
            Layout layout = tokens.isWord(keyword, "SET") ? setForm(tokens, keyword) : valuesForm(tokens, keyword);
            if (layout.values.size() != expected.size()) {
                throw unsupported();
            }
            for (int r = 0; r < expected.size(); r++) {
                if (layout.values.get(r).size() != expected.get(r).size()) {
                    throw unsupported();
                }
            }
            if (layout.suffixStart < tokens.sql().length() && tokens.sql().substring(layout.suffixStart).toUpperCase(java.util.Locale.ROOT)
                    .matches("(?s).*\\bRETURNING\\b.*")) {
                throw ErrorCode.UNSUPPORTED.exception("INSERT ... RETURNING into a sharded table");
            }
            return layout;
        }

        private static Layout valuesForm(Tokens tokens, int keyword) {
            int columnListEnd = tokens.isOperator(keyword - 1, ')') ? tokens.get(keyword - 1).start() : -1;
            List<List<SelectClauses.Span>> rows = new ArrayList<>();
            int open = keyword + 1;
            int close = -1;
            while (tokens.isOperator(open, '(')) {
                close = tokens.closing(open);
                if (close < 0) {
                    throw unsupported();
                }
                rows.add(split(tokens, open + 1, close, tokens.get(open).depth() + 1));
                if (!tokens.isOperator(close + 1, ',')) {
                    break;
                }
                open = close + 2;
            }
            if (close < 0) {
                throw unsupported();
            }
            int suffixStart = tokens.get(close).end();
            return new Layout(tokens.get(keyword + 1).start(), List.of(), columnListEnd, rows, suffixStart);
        }

        private static Layout setForm(Tokens tokens, int keyword) {
            List<String> columns = new ArrayList<>();
            List<SelectClauses.Span> values = new ArrayList<>();
            int end = keyword + 1;
            while (end < tokens.size() && !(tokens.get(end).depth() == 0 && tokens.isWord(end, "ON"))
                    && tokens.get(end).type() != io.shardgate.router.classify.TokenType.SEMICOLON) {
                end++;
            }
            for (SelectClauses.Span assignment : split(tokens, keyword + 1, end, 0)) {
                int equals = -1;
                for (int t = keyword + 1; t < end && equals < 0; t++) {
                    if (tokens.get(t).start() >= assignment.start() && tokens.isOperator(t, '=') && tokens.get(t).depth() == 0) {
                        equals = t;
                    }
                }
                if (equals < 0 || equals + 1 >= end) {
                    throw unsupported();
                }
                columns.add(tokens.sql().substring(assignment.start(), tokens.get(equals - 1).end()));
                values.add(new SelectClauses.Span(tokens.get(equals + 1).start(), assignment.end()));
            }
            int suffixStart = tokens.get(end - 1).end();
            return new Layout(tokens.get(keyword).start(), columns, -1, List.of(values), suffixStart);
        }

        /** The comma-separated parts of tokens {@code [from, to)} at {@code depth}. */
        private static List<SelectClauses.Span> split(Tokens tokens, int from, int to, int depth) {
            List<SelectClauses.Span> parts = new ArrayList<>();
            int start = from;
            for (int i = from; i <= to; i++) {
                if (i == to || (tokens.get(i).depth() == depth && tokens.isOperator(i, ','))) {
                    if (i > start) {
                        parts.add(new SelectClauses.Span(tokens.get(start).start(), tokens.get(i - 1).end()));
                    }
                    start = i + 1;
                }
            }
            return parts;
        }

        private static RuntimeException unsupported() {
            return ErrorCode.UNSUPPORTED.exception("this form of INSERT into a sharded table");
        }
    }
}
