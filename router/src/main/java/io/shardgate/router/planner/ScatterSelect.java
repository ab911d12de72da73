package io.shardgate.router.planner;

import com.alibaba.druid.sql.ast.SQLExpr;
import com.alibaba.druid.sql.ast.SQLOrderingSpecification;
import com.alibaba.druid.sql.ast.SQLSetQuantifier;
import com.alibaba.druid.sql.ast.expr.SQLAggregateExpr;
import com.alibaba.druid.sql.ast.expr.SQLIdentifierExpr;
import com.alibaba.druid.sql.ast.expr.SQLNullExpr;
import com.alibaba.druid.sql.ast.expr.SQLPropertyExpr;
import com.alibaba.druid.sql.ast.statement.SQLSelectGroupByClause;
import com.alibaba.druid.sql.ast.statement.SQLSelectItem;
import com.alibaba.druid.sql.ast.statement.SQLSelectOrderByItem;
import com.alibaba.druid.sql.ast.statement.SQLSelectQueryBlock;
import com.alibaba.druid.sql.dialect.mysql.ast.statement.MySqlSelectQueryBlock;
import io.shardgate.errors.ErrorCode;
import io.shardgate.router.exec.AggregateFunction;
import io.shardgate.router.exec.SortKey;
import io.shardgate.router.planner.ScatterColumns.HelperRef;
import io.shardgate.router.planner.ScatterColumns.ItemRef;
import io.shardgate.router.planner.ScatterColumns.Key;
import io.shardgate.router.planner.ScatterColumns.PositionRef;
import io.shardgate.router.planner.ScatterColumns.Ref;
import io.shardgate.router.planner.ScatterColumns.SpecDraft;
import io.shardgate.router.plan.AggregateMerge;
import io.shardgate.router.plan.Distinct;
import io.shardgate.router.plan.GroupByMerge;
import io.shardgate.router.plan.HavingFilter;
import io.shardgate.router.plan.LimitOffset;
import io.shardgate.router.plan.MemorySort;
import io.shardgate.router.plan.MergeSort;
import io.shardgate.router.plan.PlanNode;
import io.shardgate.router.plan.Project;
import io.shardgate.router.plan.RollupMerge;
import io.shardgate.router.plan.Route;
import io.shardgate.router.plan.RowExpression;
import io.shardgate.router.plan.ShardSql;
import io.shardgate.router.plan.ValueSource;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * Plans one SELECT block that runs on several shards: rewrites the SQL each shard gets and puts
 * merge operators above the route.
 *
 * <ul>
 *   <li>Plain rows: ORDER BY becomes a {@link MergeSort}; LIMIT o, c is sent as LIMIT o+c and applied
 *       again by {@link LimitOffset}.</li>
 *   <li>Aggregates without GROUP BY: {@link AggregateMerge}; AVG(x) is sent as SUM(x) plus a COUNT(x) helper.</li>
 *   <li>GROUP BY: the shards sort by the group keys, {@link GroupByMerge} merges in order; HAVING moves
 *       above the merge ({@link HavingFilter}); an ORDER BY on anything but group keys becomes a
 *       {@link MemorySort}; LIMIT is applied after the merge only.</li>
 *   <li>DISTINCT: the shards sort by every column, {@link Distinct} drops neighbours that are equal.</li>
 *   <li>GROUP BY or DISTINCT including a shard key: groups never span shards, so the shards do it.</li>
 * </ul>
 *
 * Columns the merge needs but the select list lacks are appended as helper columns, dropped by
 * {@link Project} at the end ({@link ScatterColumns} keeps them and resolves every column
 * reference; {@link ScatterLimit} handles LIMIT). Anything else is refused with the construct named.
 */
final class ScatterSelect {

    private final PlanContext context;
    private final SqlRewriter rewriter;
    private final ColumnResolver resolver;
    private final Function<ShardSql, Route> route;
    private final Tokens tokens;
    private SQLSelectQueryBlock block;
    private SelectClauses clauses;
    private ScatterColumns columns;

    ScatterSelect(PlanContext context, SqlRewriter rewriter, ColumnResolver resolver, Function<ShardSql, Route> route) {
        this.context = context;
        this.rewriter = rewriter;
        this.resolver = resolver;
        this.route = route;
        this.tokens = context.tokens();
    }

    PlanNode plan(SQLSelectQueryBlock block) {
        this.block = block;
        int select = SelectClauses.topSelect(tokens);
        clauses = SelectClauses.locate(tokens, select)
                .filter(c -> c.items.size() == block.getSelectList().size())
                .orElseThrow(() -> ErrorCode.UNSUPPORTED.exception("this form of SELECT across shards"));
        refuseUnmergeable();
        columns = new ScatterColumns(block);
        SQLSelectGroupByClause groupBy = block.getGroupBy();
        List<SQLExpr> groupItems = groupBy == null ? List.of() : groupBy.getItems();
        SQLExpr having = groupBy == null ? null : groupBy.getHaving();
        boolean aggregating = !groupItems.isEmpty() || !Aggregates.in(having).isEmpty()
                || block.getSelectList().stream().anyMatch(i -> !Aggregates.in(i.getExpr()).isEmpty());
        boolean localGroups = groupItems.stream().anyMatch(this::isTopShardKey) && !clauses.withRollup && !groupBy.isWithRollUp();
        boolean distinct = block.getDistionOption() == SQLSetQuantifier.DISTINCT || block.getDistionOption() == SQLSetQuantifier.DISTINCTROW;
        if (aggregating && !localGroups) {
            if (distinct && !groupItems.isEmpty()) {
                throw ErrorCode.UNSUPPORTED.exception("SELECT DISTINCT with GROUP BY across shards");
            }
            return groupItems.isEmpty() ? scalarAggregate(having) : groupedAggregate(groupItems, having);
        }
        boolean localDistinct = localGroups || block.getSelectList().stream().anyMatch(i -> isTopShardKey(i.getExpr()));
        if (distinct && !localDistinct) {
            return distinctRows();
        }
        return rows();
    }

    // ---- the four shapes

    private PlanNode rows() {
        List<Key> order = userOrder(false);
        boolean distinct = block.getDistionOption() == SQLSetQuantifier.DISTINCT || block.getDistionOption() == SQLSetQuantifier.DISTINCTROW;
        if (distinct && !columns.helpers().isEmpty()) {
            throw ErrorCode.UNSUPPORTED.exception("ORDER BY " + columns.helpers().get(0).text()
                    + " outside the SELECT DISTINCT list across shards (a helper column would change what is distinct)");
        }
        Optional<ScatterLimit> limit = ScatterLimit.of(block, clauses);
        limit.ifPresent(l -> l.push(clauses, rewriter));
        Route shards = finishRoute();
        PlanNode node = order.isEmpty() ? shards : new MergeSort(shards, columns.sortKeys(order));
        return wrapLimitAndProject(node, limit);
    }

    private PlanNode distinctRows() {
        if (columns.anyStar()) {
            throw ErrorCode.UNSUPPORTED.exception("SELECT DISTINCT * across shards");
        }
        List<Key> order = new ArrayList<>(userOrder(false));
        for (Key key : order) {
            if (key.ref() instanceof HelperRef) {
                throw ErrorCode.UNSUPPORTED.exception("ORDER BY " + key.text().text()
                        + " outside the SELECT DISTINCT list across shards");
            }
        }
        List<Tokens.Fragment> extra = new ArrayList<>();
        for (int i = 0; i < columns.itemCount(); i++) {
            Ref item = new PositionRef(i);
            if (order.stream().noneMatch(k -> columns.column(k.ref()).equals(columns.column(item)))) {
                order.add(new Key(item, false, Tokens.Fragment.of(Integer.toString(i + 1))));
                extra.add(Tokens.Fragment.of(Integer.toString(i + 1)));
            }
        }
        if (!extra.isEmpty()) {
            if (clauses.orderBy.isPresent() && block.getOrderBy() != null && !isOrderByNull()) {
                rewriter.insert(clauses.orderBy.get().span().end(), join(", ", extra, ", "));
            }
            else {
                writeOrderBy(order);
            }
        }
        Optional<ScatterLimit> limit = ScatterLimit.of(block, clauses);
        limit.ifPresent(l -> l.push(clauses, rewriter));
        Route shards = finishRoute();
        return wrapLimitAndProject(new Distinct(new MergeSort(shards, columns.sortKeys(order))), limit);
    }

    private PlanNode scalarAggregate(SQLExpr having) {
        collectAggregateItems();
        Optional<RowExpression> condition = Optional.ofNullable(having).map(this::compileHaving);
        clauses.having.ifPresent(h -> deleteClause(h.span()));
        Optional<ScatterLimit> limit = ScatterLimit.of(block, clauses);
        clauses.limit.ifPresent(l -> deleteClause(l.span()));
        List<Key> inner = columns.innerKeys();
        if (!inner.isEmpty()) {
            aggregateText().groupByInner(inner);
            writeOrderBy(inner);
        }
        Route shards = finishRoute();
        PlanNode input = inner.isEmpty() ? shards : new MergeSort(shards, columns.sortKeys(inner));
        PlanNode node = new AggregateMerge(input, columns.resolvedAggregates());
        if (condition.isPresent()) {
            node = new HavingFilter(node, condition.get());
        }
        return wrapLimitAndProject(node, limit);
    }

    private PlanNode groupedAggregate(List<SQLExpr> groupItems, SQLExpr having) {
        boolean rollup = clauses.withRollup || block.getGroupBy().isWithRollUp();
        List<SelectClauses.Item> spans = clauses.groupBy.map(SelectClauses.Clause::items).orElse(List.of());
        if (spans.size() != groupItems.size() || (rollup && !clauses.withRollup)) {
            throw ErrorCode.UNSUPPORTED.exception("this form of GROUP BY across shards");
        }
        collectAggregateItems();
        if (rollup && (!columns.innerKeys().isEmpty() || (block.getOrderBy() != null && !isOrderByNull()))) {
            throw ErrorCode.UNSUPPORTED.exception("GROUP BY ... WITH ROLLUP with " + (!columns.innerKeys().isEmpty()
                    ? "a DISTINCT aggregate or GROUP_CONCAT" : "ORDER BY") + " across shards");
        }
        if (rollup) {
            aggregateText().removeRollup();
        }
        List<Key> groupKeys = new ArrayList<>();
        for (int i = 0; i < groupItems.size(); i++) {
            Tokens.Fragment text = tokens.fragment(spans.get(i).expression().start(), spans.get(i).expression().end());
            groupKeys.add(new Key(columns.ref(groupItems.get(i), text, false), false, text));
        }
        List<Key> userOrder = userOrder(true);
        Optional<RowExpression> condition = Optional.ofNullable(having).map(this::compileHaving);
        List<Key> shardOrder = new ArrayList<>();
        boolean orderOnGroupKeys = userOrder.stream().allMatch(k -> groupKeys.stream().anyMatch(g -> g.ref().equals(k.ref())));
        if (orderOnGroupKeys) {
            for (Key key : userOrder) {
                Key group = groupKeys.stream().filter(g -> g.ref().equals(key.ref())).findFirst().orElseThrow();
                shardOrder.add(new Key(key.ref(), key.descending(), group.text()));
            }
        }
        for (Key group : groupKeys) {
            if (shardOrder.stream().noneMatch(k -> k.ref().equals(group.ref()))) {
                shardOrder.add(group);
            }
        }
        if (!columns.innerKeys().isEmpty()) {
            aggregateText().groupByInner(columns.innerKeys());
            shardOrder.addAll(columns.innerKeys());
        }
        writeOrderBy(shardOrder);
        clauses.having.ifPresent(h -> deleteClause(h.span()));
        Optional<ScatterLimit> limit = ScatterLimit.of(block, clauses);
        clauses.limit.ifPresent(l -> deleteClause(l.span()));
        Route shards = finishRoute();
        List<SortKey> groupSortKeys = groupKeys.stream().map(k -> new SortKey(columns.column(k.ref()), false)).toList();
        MergeSort sorted = new MergeSort(shards, columns.sortKeys(shardOrder));
        PlanNode node = rollup ? new RollupMerge(sorted, groupSortKeys, columns.resolvedAggregates())
                : new GroupByMerge(sorted, groupSortKeys, columns.resolvedAggregates());
        if (condition.isPresent()) {
            node = new HavingFilter(node, condition.get());
        }
        if (!orderOnGroupKeys && !userOrder.isEmpty()) {
            node = new MemorySort(node, columns.sortKeys(userOrder));
        }
        return wrapLimitAndProject(node, limit);
    }

    // ---- checks

    private void refuseUnmergeable() {
        if (block.getInto() != null) {
            throw ErrorCode.UNSUPPORTED.exception("SELECT ... INTO across shards");
        }
        if (block instanceof MySqlSelectQueryBlock mysql && mysql.isCalcFoundRows()) {
            throw ErrorCode.UNSUPPORTED.exception("SQL_CALC_FOUND_ROWS across shards");
        }
        if (block.getWindows() != null && !block.getWindows().isEmpty()) {
            throw ErrorCode.UNSUPPORTED.exception("a WINDOW clause across shards");
        }
        for (SQLSelectItem item : block.getSelectList()) {
            Aggregates.window(item.getExpr()).ifPresent(w -> {
                throw ErrorCode.UNSUPPORTED.exception("window function " + Aggregates.text(w) + " across shards");
            });
        }
    }

    private void collectAggregateItems() {
        for (int i = 0; i < columns.itemCount(); i++) {
            SQLExpr expr = columns.item(i).getExpr();
            List<SQLAggregateExpr> found = Aggregates.in(expr);
            if (found.isEmpty()) {
                continue;
            }
            if (!(expr instanceof SQLAggregateExpr aggregate)) {
                throw ErrorCode.UNSUPPORTED.exception("an aggregate inside an expression across shards: "
                        + tokens.fragment(clauses.items.get(i).start(), clauses.items.get(i).end()).text());
            }
            if (!columns.reachable(i)) {
                throw ErrorCode.UNSUPPORTED.exception("an aggregate between two * columns across shards");
            }
            if (Aggregates.isConcat(aggregate)) {
                aggregateText().concat(i, aggregate);
                continue;
            }
            if (Aggregates.isDistinct(aggregate)) {
                AggregateFunction function = ScatterColumns.distinctFunction(aggregate);
                Key value = columns.distinctValue(aggregate, aggregateText().distinctArgument(i));
                columns.addItemAggregate(new SpecDraft(function, new ItemRef(i), null, value.ref()));
                continue;
            }
            AggregateFunction function = ScatterColumns.mergeable(aggregate);
            if (function == AggregateFunction.AVG) {
                aggregateText().rewriteAverage(i, aggregate);
            }
            else {
                columns.addItemAggregate(new SpecDraft(function, new ItemRef(i), null));
            }
        }
    }

    private AggregateText aggregateText() {
        return new AggregateText(tokens, rewriter, clauses, columns);
    }

    // ---- keys and columns

    /** The ORDER BY keys; {@code aggregating}: an aggregate not in the select list is added as a merged helper. */
    private List<Key> userOrder(boolean aggregating) {
        if (block.getOrderBy() == null || isOrderByNull()) {
            return List.of();
        }
        List<SQLSelectOrderByItem> items = block.getOrderBy().getItems();
        List<SelectClauses.Item> spans = clauses.orderBy.map(SelectClauses.Clause::items).orElse(List.of());
        if (spans.size() != items.size()) {
            throw ErrorCode.UNSUPPORTED.exception("this form of ORDER BY across shards");
        }
        List<Key> keys = new ArrayList<>();
        for (int i = 0; i < items.size(); i++) {
            SQLSelectOrderByItem item = items.get(i);
            Tokens.Fragment text = tokens.fragment(spans.get(i).expression().start(), spans.get(i).expression().end());
            boolean descending = item.getType() == SQLOrderingSpecification.DESC;
            keys.add(new Key(columns.ref(item.getExpr(), text, aggregating), descending, text));
        }
        return keys;
    }

    private boolean isOrderByNull() {
        List<SQLSelectOrderByItem> items = block.getOrderBy().getItems();
        return items.size() == 1 && items.get(0).getExpr() instanceof SQLNullExpr;
    }

    private boolean isTopShardKey(SQLExpr expr) {
        return resolver.resolve(expr).filter(c -> c.isShardKey() && c.use().scope() == block).isPresent();
    }

    // ---- HAVING

    /**
     * Compiled twice: the first pass adds the helper columns HAVING needs, so that the second resolves
     * every column against the final list (positions counted from the end move while helpers are added).
     */
    private RowExpression compileHaving(SQLExpr having) {
        havingCompiler().compile(having);
        return havingCompiler().compile(having);
    }

    private HavingCompiler havingCompiler() {
        return new HavingCompiler(expr -> {
            if (expr instanceof SQLAggregateExpr || expr instanceof SQLIdentifierExpr || expr instanceof SQLPropertyExpr) {
                String text = Aggregates.text(expr);
                return new RowExpression.Column(columns.column(columns.ref(expr, Tokens.Fragment.of(text), true)));
            }
            return null;
        });
    }

    // ---- LIMIT

    private PlanNode wrapLimitAndProject(PlanNode node, Optional<ScatterLimit> limit) {
        PlanNode result = limit.map(l -> l.above(node)).orElse(node);
        return columns.helpers().isEmpty() ? result : new Project(result, columns.helpers().size());
    }

    // ---- text edits

    private void writeOrderBy(List<Key> keys) {
        List<Tokens.Fragment> parts = keys.stream()
                .map(k -> new Tokens.Fragment(k.text().text() + (k.descending() ? " DESC" : ""), k.text().parameters()))
                .toList();
        Tokens.Fragment orderBy = join("ORDER BY ", parts, ", ");
        if (clauses.orderBy.isPresent()) {
            SelectClauses.Span span = clauses.orderBy.get().span();
            rewriter.replace(span.start(), span.end(), orderBy);
        }
        else {
            rewriter.insert(clauses.orderByAt, new Tokens.Fragment(" " + orderBy.text(), orderBy.parameters()));
        }
    }

    private void deleteClause(SelectClauses.Span span) {
        int start = span.start();
        while (start > 0 && Character.isWhitespace(tokens.sql().charAt(start - 1))) {
            start--;
        }
        rewriter.delete(start, span.end());
    }

    private Route finishRoute() {
        if (!columns.helpers().isEmpty()) {
            rewriter.insert(clauses.itemsEnd, join(", ", columns.helpers(), ", "));
        }
        return route.apply(rewriter.build());
    }

    private static Tokens.Fragment join(String prefix, List<Tokens.Fragment> parts, String separator) {
        StringBuilder text = new StringBuilder(prefix);
        List<ValueSource> parameters = new ArrayList<>();
        for (int i = 0; i < parts.size(); i++) {
            text.append(i == 0 ? "" : separator).append(parts.get(i).text());
            parameters.addAll(parts.get(i).parameters());
        }
        return new Tokens.Fragment(text.toString(), parameters);
    }

}
