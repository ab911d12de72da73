package io.shardgate.router.planner;

import com.alibaba.druid.sql.ast.SQLExpr;
import com.alibaba.druid.sql.ast.SQLObject;
import com.alibaba.druid.sql.ast.SQLStatement;
import com.alibaba.druid.sql.ast.expr.SQLAllColumnExpr;
import com.alibaba.druid.sql.ast.expr.SQLBinaryOpExpr;
import com.alibaba.druid.sql.ast.expr.SQLPropertyExpr;
import com.alibaba.druid.sql.ast.statement.SQLInsertStatement;
import com.alibaba.druid.sql.ast.statement.SQLReplaceStatement;
import com.alibaba.druid.sql.ast.statement.SQLSelect;
import com.alibaba.druid.sql.ast.statement.SQLSelectItem;
import com.alibaba.druid.sql.ast.statement.SQLSelectQueryBlock;
import io.shardgate.errors.ErrorCode;
import io.shardgate.errors.ShardgateException;
import io.shardgate.router.exec.Role;
import io.shardgate.router.plan.InsertFromSelect;
import io.shardgate.router.plan.InsertRow;
import io.shardgate.router.plan.InsertSplit;
import io.shardgate.router.plan.InsertValue;
import io.shardgate.router.plan.PlanNode;
import io.shardgate.router.plan.Route;
import io.shardgate.router.plan.RouteVariant;
import io.shardgate.router.plan.ShardSelection;
import io.shardgate.router.plan.ShardSql;
import io.shardgate.router.plan.ValueSource;
import io.shardgate.router.schema.Sequence;
import io.shardgate.router.schema.ShardedTable;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Plans {@code INSERT ... SELECT} (and REPLACE) into a sharded table. Every inserted row must land
 * on the shard its source rows are read on, provably from the statement:
 * <ul>
 * <li><b>pinned</b>: every sharded table the SELECT reads is pinned to one shard ({@link KeyPins}),
 * and the value selected for the target's shard key is a literal, a parameter or a column pinned to
 * values of that same shard: the statement runs there;</li>
 * <li><b>co-located</b>: the SELECT's tables are co-located ({@link CoLocation}), and the value
 * selected for the target's shard key is the shard key of a table of the SELECT's own block with the
 * target's vindex, so each row stays on the shard it is read on: the statement runs on every shard
 * (or those its key conditions pick). The SELECT may not combine rows of several shards: no LIMIT,
 * no window functions, and aggregates only grouped by the shard key.</li>
 * </ul>
 * Both run the client's text unchanged, unless the target has a global sequence: then the SELECT runs
 * alone and its rows are inserted with drawn values ({@link InsertFromSelect}). Anything else is
 * refused with ERR 1235 saying why.
 */
final class InsertSelectPlanner {
    private final PlanContext context;
    private final Tokens tokens;

    InsertSelectPlanner(PlanContext context) {
        this.context = context;
        this.tokens = context.tokens();
    }

    PlanNode plan(SQLStatement statement, TableUse target, List<SQLExpr> columns, List<SQLExpr> onDuplicate,
                  Optional<List<String>> named, SqlRewriter rewriter) {
        SQLSelect select = statement instanceof SQLInsertStatement insert ? insert.getQuery()
                : ((SQLReplaceStatement) statement).getQuery().getSubQuery();
        String qualified = target.table().qualified();
        ShardedTable rule = target.table().shardedRule();
        if (columns.isEmpty()) {
            throw ErrorCode.UNSUPPORTED.exception("INSERT ... SELECT into sharded table " + qualified + " without a column list");
        }
        if (!(select.getQuery() instanceof SQLSelectQueryBlock block)) {
            throw ErrorCode.UNSUPPORTED.exception("INSERT ... SELECT with UNION into sharded table " + qualified);
        }
        // The SELECT's tables again, with its block as the top level (for the co-location check and its messages).
        List<TableUse> sources = StatementTables.of(statement, Nodes.identitySet((SQLObject) block), context.resolver(),
                Nodes.<com.alibaba.druid.sql.ast.statement.SQLTableSource>identitySet(target.source()));
        List<SQLSelectItem> items = block.getSelectList();
        for (SQLSelectItem item : items) {
            if (item.getExpr() instanceof SQLAllColumnExpr || item.getExpr() instanceof SQLPropertyExpr p && p.getName().equals("*")) {
                throw ErrorCode.UNSUPPORTED.exception("INSERT ... SELECT * into sharded table " + qualified + " (name the selected columns)");
            }
        }
        if (items.size() != columns.size()) {
            throw ErrorCode.UNSUPPORTED.exception("INSERT ... SELECT into sharded table " + qualified + " selecting " + items.size()
                    + " values for " + columns.size() + " columns");
        }
        for (SQLExpr assignment : onDuplicate) {
            if (assignment instanceof SQLBinaryOpExpr binary && rule.isShardKey(InsertPlanner.columnName(binary.getLeft()))) {
                throw ErrorCode.SHARD_KEY_CHANGE.exception(qualified + "." + rule.shardKey());
            }
        }
        List<String> names = columns.stream().map(InsertPlanner::columnName).toList();
        Optional<Sequence> sequence = context.schema().schema(target.table().schema()).flatMap(s -> s.sequence(target.table().name()));
        int keyIndex = Names.indexOf(names, rule.shardKey());
        if (keyIndex < 0) {
            throw ErrorCode.UNSUPPORTED.exception("INSERT ... SELECT into sharded table " + qualified + " without a value for its shard key "
                    + rule.shardKey());
        }
        List<String> candidates = candidates(sources, named);
        ColumnResolver resolver = new ColumnResolver(sources);
        SQLExpr key = items.get(keyIndex).getExpr();
        ShardSelection selection = pinned(sources, resolver, key, rule, target, candidates)
                .<ShardSelection>map(k -> k)
                .orElseGet(() -> coLocated(block, sources, resolver, key, rule, qualified, candidates));
        RouteVariant variant = selection instanceof ShardSelection.Keyed ? RouteVariant.BY_KEY : RouteVariant.SCATTER;
        if (sequence.isEmpty()) {
            return new Route(variant, qualified, selection, rewriter.build(), Role.PRIMARY);
        }
        return withSequence(sequence.get(), target, sources, names, keyIndex, items.size(), selection, variant, rewriter, candidates,
                named.isPresent());
    }

    /** The statement's one shard when the SELECT and the target's key are pinned to it. */
    private Optional<ShardSelection.Keyed> pinned(List<TableUse> read, ColumnResolver resolver, SQLExpr key, ShardedTable rule,
                                                  TableUse target, List<String> candidates) {
        KeyPins pins = KeyPins.of(read, resolver);
        Optional<List<ValueSource>> values = pins.valuesOf(key);
        if (values.isEmpty() || candidates.isEmpty()) {
            return Optional.empty();
        }
        ShardSelection.Keyed targetKey = new ShardSelection.Keyed(target.reference() + "." + rule.shardKey(), rule.vindex(),
                List.of(values.get()), candidates, context.schema().ranges(), true);
        List<ShardSelection.Keyed> keys = new ArrayList<>();
        keys.add(targetKey);
        return pins.oneShard(read, keys, candidates, context.schema().ranges())
                .map(first -> read.stream().anyMatch(u -> u.table().sharded()) ? first : targetKey);
    }

    /** Every shard (or those the SELECT's key conditions pick) when each selected row stays on the shard it is read on. */
    private ShardSelection coLocated(SQLSelectQueryBlock block, List<TableUse> read, ColumnResolver resolver, SQLExpr key,
                                     ShardedTable rule, String qualified, List<String> candidates) {
        String refused = "INSERT ... SELECT into sharded table " + qualified + " where the rows may not stay on the shard they are read on: ";
        Optional<ColumnResolver.Column> source = resolver.resolve(key).filter(c -> c.isShardKey() && c.use().scope() == block);
        if (source.isEmpty()) {
            throw ErrorCode.UNSUPPORTED.exception(refused + "select the shard key of a table of the SELECT (co-located with the target)"
                    + " for " + rule.shardKey() + ", or pin every table to one shard with shard key equalities");
        }
        TableUse use = source.get().use();
        if (!use.table().shardedRule().vindex().equals(rule.vindex()) || use.nullExtended()) {
            throw ErrorCode.UNSUPPORTED.exception(refused + use.reference() + "." + use.table().shardedRule().shardKey()
                    + (use.nullExtended() ? " is on the NULL side of an outer join" : " (" + use.table().shardedRule().vindex().describe()
                    + ") does not place rows as " + rule.shardKey() + " (" + rule.vindex().describe() + ") does"));
        }
        try {
            CoLocation.check(read, resolver, Nodes.identitySet((SQLObject) block));
        }
        catch (ShardgateException e) {
            throw ErrorCode.UNSUPPORTED.exception(refused + e.getMessage().replaceFirst("^Shardgate does not support ", ""));
        }
        if (block.getLimit() != null) {
            throw ErrorCode.UNSUPPORTED.exception(refused + "LIMIT would apply on each shard");
        }
        boolean aggregates = block.getSelectList().stream().anyMatch(i -> !Aggregates.in(i.getExpr()).isEmpty()
                || Aggregates.window(i.getExpr()).isPresent())
                || (block.getGroupBy() != null && block.getGroupBy().getHaving() != null);
        boolean groupedByKey = block.getGroupBy() != null && block.getGroupBy().getItems().stream()
                .anyMatch(g -> resolver.resolve(g).filter(c -> c.isShardKey() && c.use().scope() == block).isPresent());
        if (block.getSelectList().stream().anyMatch(i -> Aggregates.window(i.getExpr()).isPresent())
                || (aggregates || block.getGroupBy() != null) && !groupedByKey) {
            throw ErrorCode.UNSUPPORTED.exception(refused + "an aggregate or window function not grouped by the shard key"
                    + " would combine rows of several shards");
        }
        return KeyConditions.of(block, resolver, candidates, context.schema().ranges())
                .<ShardSelection>map(k -> k).orElse(new ShardSelection.Fixed(candidates));
    }

    /** The shards rows may go to: those PARTITION names on the target, within those the SELECT's PARTITION clauses allow. */
    private List<String> candidates(List<TableUse> read, Optional<List<String>> named) {
        Set<String> allowed = new LinkedHashSet<>(named.orElse(context.schema().shardNames()));
        context.partitions().restriction(read, true).ifPresent(allowed::retainAll);
        return List.copyOf(allowed);
    }

    /**
     * The target has a global sequence: the SELECT runs alone (on the shards the whole statement would have
     * run on) and its rows are inserted with drawn values.
     */
    private PlanNode withSequence(Sequence sequence, TableUse target, List<TableUse> read, List<String> names, int keyIndex, int width,
                                  ShardSelection selection, RouteVariant variant, SqlRewriter rewriter, List<String> candidates,
                                  boolean partitionSelected) {
        int selectStart = selectStart();
        int selectEnd = selectEnd(selectStart);
        int columnListEnd = tokens.get(selectStart - 1).start();
        int sequenceIndex = Names.indexOf(names, sequence.column());
        if (sequenceIndex < 0) {
            rewriter.insert(columnListEnd, Tokens.Fragment.of(", " + Names.quote(sequence.column())));
        }
        Tokens.Fragment prefix = rewriter.build(0, tokens.get(selectStart).start());
        Tokens.Fragment query = rewriter.build(tokens.get(selectStart).start(), selectEnd);
        Tokens.Fragment suffix = rewriter.build(selectEnd, tokens.sql().length());
        if (!prefix.parameters().isEmpty()) {
            throw ErrorCode.UNSUPPORTED.exception("a parameter before SELECT in an INSERT ... SELECT into sharded table "
                    + target.table().qualified());
        }
        int parameters = tokens.parameterCount();
        List<InsertValue> values = new ArrayList<>();
        for (int c = 0; c < width; c++) {
            ValueSource.Parameter value = InsertFromSelect.rowParameter(parameters, c);
            InsertValue.Written written = new InsertValue.Written("?", List.of(value), Optional.of(value));
            values.add(c == sequenceIndex ? new InsertValue.FromSequence(Optional.of(written)) : written);
        }
        if (sequenceIndex < 0) {
            values.add(new InsertValue.FromSequence(Optional.empty()));
        }
        ShardedTable rule = target.table().shardedRule();
        String keyName = Names.quote(target.table().schema()) + "." + Names.quote(target.table().name()) + "." + Names.quote(rule.shardKey());
        InsertSplit template = new InsertSplit(keyName, rule.shardKey(), rule.vindex(), context.schema().ranges(),
                prefix.text().stripTrailing() + " VALUES ", List.of(new InsertRow(1, values, keyIndex)), suffix.text(),
                suffix.parameters(), candidates, partitionSelected, Optional.of(sequence));
        String from = read.stream().filter(u -> u.table().sharded()).findFirst().map(u -> u.table().qualified()).orElse(target.table().qualified());
        Route source = new Route(variant, from, selection, new ShardSql(query.text(), query.parameters()),
                Role.PRIMARY);
        return new InsertFromSelect(target.table().qualified(), source, template, width);
    }

    /** The token of the top-level SELECT (or WITH) that starts the statement's query. */
    private int selectStart() {
        for (int i = 1; i < tokens.size(); i++) {
            if (tokens.get(i).depth() == 0 && (tokens.isWord(i, "SELECT") || tokens.isWord(i, "WITH"))) {
                if (!tokens.isOperator(i - 1, ')')) {
                    break;
                }
                return i;
            }
        }
        throw ErrorCode.UNSUPPORTED.exception("this form of INSERT ... SELECT into a sharded table");
    }

    /** Where the query ends: at a top-level ON DUPLICATE KEY UPDATE, or a final semicolon, or the end. */
    private int selectEnd(int from) {
        for (int i = from; i < tokens.size(); i++) {
            if (tokens.get(i).depth() == 0 && ((tokens.isWord(i, "ON") && tokens.isWord(i + 1, "DUPLICATE"))
                    || tokens.get(i).type() == io.shardgate.router.classify.TokenType.SEMICOLON)) {
                return tokens.get(i - 1).end();
            }
        }
        return tokens.sql().length();
    }


}
