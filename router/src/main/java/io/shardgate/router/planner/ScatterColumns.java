package io.shardgate.router.planner;

import com.alibaba.druid.sql.ast.SQLExpr;
import com.alibaba.druid.sql.ast.expr.SQLAggregateExpr;
import com.alibaba.druid.sql.ast.expr.SQLAllColumnExpr;
import com.alibaba.druid.sql.ast.expr.SQLIdentifierExpr;
import com.alibaba.druid.sql.ast.expr.SQLIntegerExpr;
import com.alibaba.druid.sql.ast.expr.SQLPropertyExpr;
import com.alibaba.druid.sql.ast.statement.SQLSelectItem;
import com.alibaba.druid.sql.ast.statement.SQLSelectQueryBlock;
import io.shardgate.errors.ErrorCode;
import io.shardgate.router.exec.Aggregate;
import io.shardgate.router.exec.AggregateFunction;
import io.shardgate.router.exec.ColumnRef;
import io.shardgate.router.exec.SortKey;

import java.util.ArrayList;
import java.util.List;

/**
 * The result columns of a SELECT block planned by {@link ScatterSelect}: which column an ORDER BY /
 * GROUP BY / HAVING expression is (a select item, a position, or a helper column appended for the
 * merge), the helper columns, and the aggregates the merge combines. A column's final position is
 * known only once every helper is added (with a {@code *} in the list, positions count from the end),
 * so references stay symbolic ({@link Ref}) until {@link #column} resolves them.
 */
final class ScatterColumns {

    /** A result column during planning: a select item, a position, or a helper column. */
    sealed interface Ref {
    }

    record ItemRef(int item) implements Ref {
    }

    record PositionRef(int index) implements Ref {
    }

    record HelperRef(int helper) implements Ref {
    }

    /** An ORDER BY or GROUP BY key: its column, its direction, and its text for the shards' ORDER BY. */
    record Key(Ref ref, boolean descending, Tokens.Fragment text) {
    }

    /** An aggregate spec whose columns are resolved once the helper count is known; {@code distinct}: the DISTINCT argument's column. */
    record SpecDraft(AggregateFunction function, Ref column, Ref count, Ref distinct, ConcatDraft concat) {
        SpecDraft(AggregateFunction function, Ref column, Ref count) {
            this(function, column, count, null, null);
        }

        SpecDraft(AggregateFunction function, Ref column, Ref count, Ref distinct) {
            this(function, column, count, distinct, null);
        }
    }

    /** A GROUP_CONCAT's merge columns, resolved with the rest. */
    record ConcatDraft(List<Ref> arguments, Ref maxLength, String separator, boolean distinct) {
    }

    private final SQLSelectQueryBlock block;
    private final int itemCount;
    private final boolean[] starBefore;
    private final boolean[] starAfter;
    private final boolean anyStar;
    private final List<Tokens.Fragment> helpers = new ArrayList<>();
    private final List<SpecDraft> specs = new ArrayList<>();
    private String distinctArgument;
    private Key distinctKey;
    private List<Key> innerKeys = List.of();
    private String innerOwner;

    ScatterColumns(SQLSelectQueryBlock block) {
        this.block = block;
        itemCount = block.getSelectList().size();
        starBefore = new boolean[itemCount];
        starAfter = new boolean[itemCount];
        boolean star = false;
        for (int i = 0; i < itemCount; i++) {
            boolean isStar = isStar(item(i));
            star |= isStar;
            for (int j = i + 1; j < itemCount && isStar; j++) {
                starBefore[j] = true;
            }
            for (int j = 0; j < i && isStar; j++) {
                starAfter[j] = true;
            }
        }
        anyStar = star;
    }

    int itemCount() {
        return itemCount;
    }

    boolean anyStar() {
        return anyStar;
    }

    /** The helper columns added so far, in order. */
    List<Tokens.Fragment> helpers() {
        return helpers;
    }

    SQLSelectItem item(int i) {
        return block.getSelectList().get(i);
    }

    /** Whether item {@code i}'s position can be known: no {@code *} on both sides of it. */
    boolean reachable(int i) {
        return !(starBefore[i] && starAfter[i]);
    }

    /** The result column of an ORDER BY / GROUP BY / HAVING expression; a helper column when the select list lacks it. */
    Ref ref(SQLExpr expr, Tokens.Fragment text, boolean aggregating) {
        if (expr instanceof SQLIntegerExpr position) {
            int p = position.getNumber().intValue();
            if (p < 1) {
                throw ErrorCode.UNSUPPORTED.exception("ORDER BY or GROUP BY position " + p);
            }
            return new PositionRef(p - 1);
        }
        if (expr instanceof SQLIdentifierExpr identifier) {
            for (int i = 0; i < itemCount; i++) {
                if (Names.same(item(i).getAlias(), identifier.getName()) && reachable(i)) {
                    return new ItemRef(i);
                }
            }
        }
        String normalized = Aggregates.normalized(expr);
        for (int i = 0; i < itemCount; i++) {
            if (!isStar(item(i)) && Aggregates.normalized(item(i).getExpr()).equals(normalized) && reachable(i)) {
                return new ItemRef(i);
            }
        }
        if (aggregating && expr instanceof SQLAggregateExpr aggregate) {
            return helperAggregate(aggregate, text);
        }
        if (aggregating && !Aggregates.in(expr).isEmpty()) {
            throw ErrorCode.UNSUPPORTED.exception("an aggregate inside an expression across shards: " + text.text());
        }
        return addHelper(text);
    }

    /** An aggregate only ORDER BY or HAVING uses: a helper column merged like the select list's. */
    private Ref helperAggregate(SQLAggregateExpr aggregate, Tokens.Fragment text) {
        if (Aggregates.isDistinct(aggregate)) {
            AggregateFunction function = distinctFunction(aggregate);
            HelperRef helper = addHelper(text);
            Key value = distinctValue(aggregate, Tokens.Fragment.of(Aggregates.text(aggregate.getArguments().get(0))));
            addSpec(new SpecDraft(function, helper, null, value.ref()));
            return helper;
        }
        AggregateFunction function = mergeable(aggregate);
        if (function != AggregateFunction.AVG) {
            HelperRef helper = addHelper(text);
            addSpec(new SpecDraft(function, helper, null));
            return helper;
        }
        if (aggregate.getArguments().size() != 1) {
            throw ErrorCode.UNSUPPORTED.exception(Aggregates.text(aggregate) + " across shards");
        }
        String argument = Aggregates.text(aggregate.getArguments().get(0));
        HelperRef sum = addHelper(Tokens.Fragment.of("SUM(" + argument + ")"));
        HelperRef count = addHelper(Tokens.Fragment.of("COUNT(" + argument + ")"));
        addSpec(new SpecDraft(AggregateFunction.AVG, sum, count));
        return sum;
    }

    /**
     * The merge of {@code COUNT/SUM/AVG(DISTINCT x)}: the shards group by x too and the merge counts each x
     * once. One x per statement (Vitess's rule too): a second DISTINCT argument is refused.
     */
    static AggregateFunction distinctFunction(SQLAggregateExpr aggregate) {
        SQLAggregateExpr plain = aggregate.clone();
        plain.setOption(null);
        java.util.Optional<AggregateFunction> function = Aggregates.mergeable(plain);
        if (aggregate.getArguments().size() != 1 || aggregate.getOrderBy() != null || function.isEmpty()) {
            throw ErrorCode.UNSUPPORTED.exception(Aggregates.text(aggregate) + " across shards");
        }
        return function.get();
    }

    /**
     * The column of the DISTINCT argument {@code x} (a helper column, added once), as a key the shards group
     * and sort by after the group keys.
     */
    Key distinctValue(SQLAggregateExpr aggregate, Tokens.Fragment text) {
        String normalized = Aggregates.normalized(aggregate.getArguments().get(0));
        if (distinctArgument != null && !distinctArgument.equals(normalized)) {
            throw ErrorCode.UNSUPPORTED.exception("aggregates over two different DISTINCT arguments across shards ("
                    + distinctKey.text().text() + " and " + text.text() + ")");
        }
        if (distinctKey == null) {
            distinctArgument = normalized;
            distinctKey = new Key(addHelper(text), false, text);
            setInnerKeys(List.of(distinctKey), "COUNT/SUM/AVG(DISTINCT " + text.text() + ")");
        }
        return distinctKey;
    }

    /**
     * The keys the shards group and sort by after the group keys (a DISTINCT aggregate's argument, or a
     * GROUP_CONCAT's ORDER BY keys and arguments); one such aggregate per statement.
     */
    void setInnerKeys(List<Key> keys, String owner) {
        if (innerOwner != null) {
            throw ErrorCode.UNSUPPORTED.exception(owner + " with " + innerOwner + " across shards");
        }
        innerKeys = List.copyOf(keys);
        innerOwner = owner;
    }

    List<Key> innerKeys() {
        return innerKeys;
    }

    static AggregateFunction mergeable(SQLAggregateExpr aggregate) {
        return Aggregates.mergeable(aggregate).orElseThrow(() -> ErrorCode.UNSUPPORTED.exception(
                Aggregates.text(aggregate) + " across shards"));
    }

    /** A helper column with this text; the same text twice is one helper. */
    HelperRef addHelper(Tokens.Fragment text) {
        if (text.text().contains("?") && text.parameters().isEmpty()) {
            throw ErrorCode.UNSUPPORTED.exception("a parameter in " + text.text() + " across shards");
        }
        int existing = helpers.indexOf(text);
        if (existing >= 0) {
            return new HelperRef(existing);
        }
        helpers.add(text);
        return new HelperRef(helpers.size() - 1);
    }

    /** A select item's aggregate (always added: each item is its own column). */
    void addItemAggregate(SpecDraft spec) {
        specs.add(spec);
    }

    private void addSpec(SpecDraft spec) {
        if (specs.stream().noneMatch(s -> s.column().equals(spec.column()))) {
            specs.add(spec);
        }
    }

    ColumnRef column(Ref ref) {
        if (ref instanceof PositionRef position) {
            return ColumnRef.at(position.index());
        }
        if (ref instanceof ItemRef item) {
            int i = item.item();
            return !starBefore[i] ? ColumnRef.at(i) : ColumnRef.fromEnd(itemCount - i + helpers.size());
        }
        int h = ((HelperRef) ref).helper();
        return anyStar ? ColumnRef.fromEnd(helpers.size() - h) : ColumnRef.at(itemCount + h);
    }

    List<SortKey> sortKeys(List<Key> keys) {
        return keys.stream().map(k -> new SortKey(column(k.ref()), k.descending())).toList();
    }

    List<Aggregate> resolvedAggregates() {
        return specs.stream().map(s -> s.concat() != null ? Aggregate.concat(column(s.column()), new Aggregate.Concat(
                        s.concat().arguments().stream().map(this::column).toList(), column(s.concat().maxLength()), s.concat().separator(),
                        s.concat().distinct()))
                : s.distinct() != null ? Aggregate.distinct(s.function(), column(s.column()), column(s.distinct()))
                : s.count() == null ? Aggregate.of(s.function(), column(s.column()))
                : Aggregate.avg(column(s.column()), column(s.count()))).toList();
    }

    static boolean isStar(SQLSelectItem item) {
        return item.getExpr() instanceof SQLAllColumnExpr
                || (item.getExpr() instanceof SQLPropertyExpr p && p.getName().equals("*"));
    }
}
