package io.shardgate.router.planner;

import com.alibaba.druid.sql.ast.SQLExpr;
import com.alibaba.druid.sql.ast.SQLObject;
import com.alibaba.druid.sql.ast.expr.SQLBinaryOpExpr;
import com.alibaba.druid.sql.ast.expr.SQLBinaryOperator;
import com.alibaba.druid.sql.ast.expr.SQLInListExpr;
import com.alibaba.druid.sql.ast.expr.SQLInSubQueryExpr;
import com.alibaba.druid.sql.ast.statement.SQLJoinTableSource;
import com.alibaba.druid.sql.ast.statement.SQLSelectQueryBlock;
import com.alibaba.druid.sql.ast.statement.SQLTableSource;
import io.shardgate.router.plan.ShardSelection;
import io.shardgate.router.plan.ValueSource;
import io.shardgate.router.shard.ShardRanges;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;

/**
 * The values that conditions which must hold restrict the columns of a statement's tables to, and
 * from them whether every sharded table it reads is pinned to one and the same shard: then the
 * statement runs there whole and unchanged, whatever its shape (derived tables, WITH, subqueries,
 * joins not on the shard keys), since that shard holds every row it can use.
 *
 * <p>A column is pinned to values by an AND-ed condition of its own query block that every row of its
 * table the statement uses must meet: of WHERE, of the ON of an inner join, or of the ON of an outer
 * join when the table is on its NULL-extended side. Such a condition is {@code col = literal} (or
 * {@code ?}), {@code col IN (literals)}, or {@code col = other} where {@code other} is pinned and its
 * table is in the same block or an enclosing one (a correlated subquery:
 * {@code c.id = 7 AND EXISTS (SELECT 1 FROM orders o WHERE o.customer_id = c.id)} pins o too). An
 * AND-ed {@code x IN (SELECT col ...)} with {@code x} pinned pins the subquery's {@code col}: rows with
 * other values cannot decide the IN. A condition never pins a column of an enclosing block: the
 * subquery it sits in may be under an OR there. Computed to a fixed point.
 */
final class KeyPins {
    /** A condition and which table occurrences' rows it restricts. */
    private record Restriction(SQLExpr condition, Predicate<TableUse> restricts) {
    }

    private final Map<ColumnResolver.Column, List<ValueSource>> pinned = new HashMap<>();
    private final ColumnResolver resolver;

    private KeyPins(ColumnResolver resolver) {
        this.resolver = resolver;
    }

    /** The pins of the conditions over {@code uses}. */
    static KeyPins of(List<TableUse> uses, ColumnResolver resolver) {
        KeyPins pins = new KeyPins(resolver);
        List<Restriction> restrictions = new ArrayList<>();
        Set<SQLObject> seen = Nodes.identitySet();
        for (TableUse use : uses) {
            SQLObject scope = use.scope();
            if (scope != null && seen.add(scope)) {
                for (SQLExpr condition : Scopes.conjuncts(Scopes.where(scope))) {
                    restrictions.add(new Restriction(condition, u -> u.scope() == scope));
                }
                for (SQLJoinTableSource join : Scopes.joins(scope)) {
                    SQLTableSource side = Scopes.leftOuter(join) && Scopes.rightOuter(join) ? null
                            : Scopes.leftOuter(join) ? join.getRight() : Scopes.rightOuter(join) ? join.getLeft() : join;
                    if (side != null) {
                        for (SQLExpr condition : Scopes.conjuncts(join.getCondition())) {
                            restrictions.add(new Restriction(condition, u -> u.scope() == scope && within(u, side)));
                        }
                    }
                }
            }
        }
        boolean changed = true;
        while (changed) {
            changed = false;
            for (Restriction restriction : restrictions) {
                changed |= pins.apply(restriction);
            }
        }
        return pins;
    }

    /** The values {@code expr} is known to have: a literal or {@code ?}, or a pinned column. */
    Optional<List<ValueSource>> valuesOf(SQLExpr expr) {
        Optional<ValueSource> literal = Literals.of(expr);
        if (literal.isPresent()) {
            return Optional.of(List.of(literal.get()));
        }
        return resolver.resolve(expr).map(pinned::get);
    }

    /** The shard selection {@code use}'s shard key is pinned to, if it is. */
    Optional<ShardSelection.Keyed> key(TableUse use, List<String> candidates, ShardRanges ranges) {
        String key = use.table().shardedRule().shardKey();
        List<ValueSource> values = pinned.get(new ColumnResolver.Column(use, Names.lower(key)));
        if (values == null) {
            return Optional.empty();
        }
        return Optional.of(new ShardSelection.Keyed(use.reference() + "." + key, use.table().shardedRule().vindex(), List.of(values),
                candidates, ranges, true));
    }

    /**
     * The one shard every sharded table of {@code uses} and every selection of {@code extra} is pinned to, as
     * the selection of the first of them; empty when some table is not pinned or they may name different
     * shards. With {@code ?} values the shard is known per execution, so then all must be pinned to the very
     * same values through the same vindex. Unsharded tables must live on that shard.
     */
    Optional<ShardSelection.Keyed> oneShard(List<TableUse> uses, List<ShardSelection.Keyed> extra, List<String> candidates,
                                            ShardRanges ranges) {
        if (candidates.isEmpty()) {
            return Optional.empty();
        }
        List<ShardSelection.Keyed> keys = new ArrayList<>();
        List<TableUse> outermostFirst = new ArrayList<>(uses.stream().filter(TableUse::outermost).toList());
        uses.stream().filter(u -> !u.outermost()).forEach(outermostFirst::add);
        for (TableUse use : outermostFirst) {
            if (use.table().sharded()) {
                Optional<ShardSelection.Keyed> key = key(use, candidates, ranges);
                if (key.isEmpty()) {
                    return Optional.empty();
                }
                keys.add(key.get());
            }
        }
        keys.addAll(extra);
        if (keys.isEmpty()) {
            return Optional.empty();
        }
        ShardSelection.Keyed first = keys.get(0);
        Optional<List<String>> shards = first.fixed();
        if (shards.isPresent()) {
            String shard = shards.get().get(0);
            boolean same = shards.get().size() == 1 && keys.stream().allMatch(k -> k.fixed().equals(shards))
                    && uses.stream().filter(u -> u.table().unsharded()).allMatch(u -> u.table().home().equals(shard));
            return same ? Optional.of(first) : Optional.empty();
        }
        boolean same = first.singleShard() && keys.stream().allMatch(k -> k.conditions().equals(first.conditions())
                && k.vindex().equals(first.vindex())) && uses.stream().noneMatch(u -> u.table().unsharded());
        return same ? Optional.of(first) : Optional.empty();
    }

    private boolean apply(Restriction restriction) {
        SQLExpr condition = restriction.condition();
        if (condition instanceof SQLBinaryOpExpr binary && binary.getOperator() == SQLBinaryOperator.Equality) {
            return pin(binary.getLeft(), valuesOf(binary.getRight()), restriction.restricts())
                    | pin(binary.getRight(), valuesOf(binary.getLeft()), restriction.restricts());
        }
        if (condition instanceof SQLInListExpr in && !in.isNot()) {
            List<ValueSource> values = new ArrayList<>();
            for (SQLExpr target : in.getTargetList()) {
                Optional<ValueSource> value = Literals.of(target);
                if (value.isEmpty()) {
                    return false;
                }
                values.add(value.get());
            }
            return pin(in.getExpr(), Optional.of(values), restriction.restricts());
        }
        if (condition instanceof SQLInSubQueryExpr in && !in.isNot() && in.getSubQuery().getQuery() instanceof SQLSelectQueryBlock block
                && block.getSelectList().size() == 1) {
            return pin(block.getSelectList().get(0).getExpr(), valuesOf(in.getExpr()), u -> u.scope() == block);
        }
        return false;
    }

    private boolean pin(SQLExpr expr, Optional<List<ValueSource>> values, Predicate<TableUse> restricts) {
        if (values.isEmpty() || values.get().isEmpty()) {
            return false;
        }
        Optional<ColumnResolver.Column> column = resolver.resolve(expr);
        if (column.isEmpty() || pinned.containsKey(column.get()) || !restricts.test(column.get().use())) {
            return false;
        }
        pinned.put(column.get(), values.get());
        return true;
    }

    private static boolean within(TableUse use, SQLTableSource source) {
        for (SQLObject p = use.source(); p != null; p = p.getParent()) {
            if (p == source) {
                return true;
            }
        }
        return false;
    }
}
