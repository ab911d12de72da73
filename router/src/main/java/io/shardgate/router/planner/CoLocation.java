package io.shardgate.router.planner;

import com.alibaba.druid.sql.ast.SQLExpr;
import com.alibaba.druid.sql.ast.SQLObject;
import com.alibaba.druid.sql.ast.expr.SQLBinaryOpExpr;
import com.alibaba.druid.sql.ast.expr.SQLBinaryOperator;
import com.alibaba.druid.sql.ast.expr.SQLIdentifierExpr;
import com.alibaba.druid.sql.ast.expr.SQLInSubQueryExpr;
import com.alibaba.druid.sql.ast.statement.SQLExprTableSource;
import com.alibaba.druid.sql.ast.statement.SQLJoinTableSource;
import com.alibaba.druid.sql.ast.statement.SQLSelectQueryBlock;
import com.alibaba.druid.sql.ast.statement.SQLTableSource;
import io.shardgate.errors.ErrorCode;
import io.shardgate.router.plan.ValueSource;
import io.shardgate.router.schema.ShardedTable;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Decides whether a statement over several sharded tables can run whole on each shard: every row
 * combination it can produce must come from one shard. That holds when all sharded table
 * occurrences are linked, through equalities that must hold ({@code AND}-ed conditions of WHERE and
 * ON, {@code x IN (SELECT y ...)}, {@code USING}), between their shard keys, and their vindexes are
 * equal: equal keys map to the same shard. Equalities pass through any table
 * ({@code a.k = r.x AND r.x = b.k}) and through a shared literal or parameter ({@code a.k = 5 AND b.k = 5}).
 *
 * <p>Also refused, because each shard would return the same rows again: a statement whose top
 * level reads only reference tables while a subquery reads a sharded one, and an outer join keeping
 * every row of a side without sharded tables while the other side has them.
 */
final class CoLocation {
    private final Map<Object, Object> parent = new HashMap<>();
    private final List<TableUse> uses;
    private final ColumnResolver resolver;

    private CoLocation(List<TableUse> uses, ColumnResolver resolver) {
        this.uses = uses;
        this.resolver = resolver;
    }

    /** Throws {@link ErrorCode#UNSUPPORTED} naming the construct when the statement cannot run whole on each shard. */
    static void check(List<TableUse> uses, ColumnResolver resolver, Set<SQLObject> topScopes) {
        List<TableUse> sharded = uses.stream().filter(u -> u.table().sharded()).toList();
        if (sharded.isEmpty()) {
            return;
        }
        for (TableUse use : sharded) {
            if (use.derived()) {
                throw ErrorCode.UNSUPPORTED.exception("a derived table or WITH over sharded table " + use.table().qualified()
                        + " when the statement spans shards");
            }
        }
        for (SQLObject top : topScopes) {
            if (sharded.stream().noneMatch(u -> u.scope() == top)) {
                String inner = sharded.get(0).table().qualified();
                throw ErrorCode.UNSUPPORTED.exception("a query block over reference or no tables combined with sharded table "
                        + inner + ": each shard would return its rows again");
            }
        }
        checkOuterJoins(uses);
        CoLocation links = new CoLocation(uses, resolver);
        List<SQLObject> scopes = distinctScopes(uses);
        scopes.forEach(links::addScope);
        for (SQLObject top : topScopes) {
            links.requireLinked(sharded.stream().filter(u -> topOf(u.scope(), topScopes) == top).toList());
        }
    }

    /** The top-level scope (a UNION branch, or the statement) {@code scope} is inside: branches need no link to each other. */
    private static SQLObject topOf(SQLObject scope, Set<SQLObject> topScopes) {
        for (SQLObject s = scope; s != null; s = Scopes.scopeOf(s)) {
            if (topScopes.contains(s)) {
                return s;
            }
        }
        return null;
    }

    private void requireLinked(List<TableUse> sharded) {
        if (sharded.size() < 2) {
            return;
        }
        CoLocation links = this;
        TableUse first = sharded.get(0);
        Object root = links.find(new ColumnResolver.Column(first, shardKey(first)));
        for (TableUse other : sharded.subList(1, sharded.size())) {
            if (!links.find(new ColumnResolver.Column(other, shardKey(other))).equals(root)) {
                throw ErrorCode.UNSUPPORTED.exception("a join or subquery across shards: " + describe(first) + " and "
                        + describe(other) + " are not joined on their shard keys (" + key(first) + " = " + key(other) + ")");
            }
            ShardedTable a = first.table().shardedRule();
            ShardedTable b = other.table().shardedRule();
            if (!a.vindex().equals(b.vindex())) {
                throw ErrorCode.UNSUPPORTED.exception("a join across shards: " + key(first) + " (" + a.vindex().describe()
                        + ") and " + key(other) + " (" + b.vindex().describe() + ") have different vindexes");
            }
        }
    }

    /** The scopes of {@code uses}, each once, in order (by identity: Druid nodes compare structurally). */
    private static List<SQLObject> distinctScopes(List<TableUse> uses) {
        Set<SQLObject> seen = Nodes.identitySet();
        List<SQLObject> scopes = new ArrayList<>();
        for (TableUse use : uses) {
            if (use.scope() != null && seen.add(use.scope())) {
                scopes.add(use.scope());
            }
        }
        return scopes;
    }

    private static String describe(TableUse use) {
        boolean aliased = use.alias() != null && !use.alias().equalsIgnoreCase(use.table().name());
        return use.table().qualified() + (aliased ? " " + use.alias() : "") + (use.outermost() ? "" : " in a subquery");
    }

    private static String key(TableUse use) {
        return use.reference() + "." + use.table().shardedRule().shardKey();
    }

    private static String shardKey(TableUse use) {
        return use.table().shardedRule().shardKey().toLowerCase(java.util.Locale.ROOT);
    }

    private static void checkOuterJoins(List<TableUse> uses) {
        for (SQLObject scope : distinctScopes(uses)) {
            for (SQLJoinTableSource join : Scopes.joins(scope)) {
                if (Scopes.leftOuter(join)) {
                    requireShardedKeptSide(join.getLeft(), join.getRight(), uses);
                }
                if (Scopes.rightOuter(join)) {
                    requireShardedKeptSide(join.getRight(), join.getLeft(), uses);
                }
            }
        }
    }

    private static void requireShardedKeptSide(SQLTableSource kept, SQLTableSource nullable, List<TableUse> uses) {
        List<TableUse> keptUses = within(kept, uses);
        Optional<TableUse> shardedNullable = within(nullable, uses).stream().filter(u -> u.table().sharded()).findFirst();
        if (shardedNullable.isPresent() && keptUses.stream().noneMatch(u -> u.table().sharded())) {
            throw ErrorCode.UNSUPPORTED.exception("an outer join keeping every row of "
                    + keptUses.stream().map(u -> u.table().qualified()).findFirst().orElse("a derived table")
                    + " with sharded table " + shardedNullable.get().table().qualified() + " on its other side");
        }
    }

    private static List<TableUse> within(SQLTableSource source, List<TableUse> uses) {
        List<TableUse> found = new ArrayList<>();
        for (TableUse use : uses) {
            for (SQLObject p = use.source(); p != null; p = p.getParent()) {
                if (p == source) {
                    found.add(use);
                    break;
                }
            }
        }
        return found;
    }

    private void addScope(SQLObject scope) {
        List<SQLExpr> conditions = new ArrayList<>(Scopes.conjuncts(Scopes.where(scope)));
        for (SQLJoinTableSource join : Scopes.joins(scope)) {
            conditions.addAll(Scopes.conjuncts(join.getCondition()));
            if (!join.getUsing().isEmpty()) {
                addUsing(join);
            }
        }
        for (SQLExpr condition : conditions) {
            if (condition instanceof SQLBinaryOpExpr binary && binary.getOperator() == SQLBinaryOperator.Equality) {
                link(binary.getLeft(), binary.getRight());
            }
            else if (condition instanceof SQLInSubQueryExpr in && in.getSubQuery().getQuery() instanceof SQLSelectQueryBlock block
                    && block.getSelectList().size() == 1) {
                link(in.getExpr(), block.getSelectList().get(0).getExpr());
            }
        }
    }

    /** {@code a JOIN b USING (k)}: a.k = b.k, when each side is a single table. */
    private void addUsing(SQLJoinTableSource join) {
        if (!(join.getLeft() instanceof SQLExprTableSource left) || !(join.getRight() instanceof SQLExprTableSource right)) {
            return;
        }
        for (SQLExpr column : join.getUsing()) {
            if (column instanceof SQLIdentifierExpr identifier) {
                String name = Names.lower(identifier.getName());
                Optional<TableUse> l = useOf(left);
                Optional<TableUse> r = useOf(right);
                if (l.isPresent() && r.isPresent()) {
                    union(new ColumnResolver.Column(l.get(), name), new ColumnResolver.Column(r.get(), name));
                }
            }
        }
    }

    private Optional<TableUse> useOf(SQLExprTableSource source) {
        return uses.stream().filter(u -> u.source() == source).findFirst();
    }

    private void link(SQLExpr a, SQLExpr b) {
        Optional<Object> x = node(a);
        Optional<Object> y = node(b);
        if (x.isPresent() && y.isPresent()) {
            union(x.get(), y.get());
        }
    }

    private Optional<Object> node(SQLExpr expr) {
        Optional<ColumnResolver.Column> column = resolver.resolve(expr);
        if (column.isPresent()) {
            return Optional.of(column.get());
        }
        return Literals.of(expr).map(value -> value instanceof ValueSource.Literal literal && !literal.value().isNull()
                ? "literal " + literal.value().toJava().getClass().getSimpleName() + " " + literal.describe()
                : value instanceof ValueSource.Parameter ? value.describe() : null);
    }

    private Object find(Object node) {
        Object p = parent.getOrDefault(node, node);
        if (p.equals(node)) {
            return node;
        }
        Object root = find(p);
        parent.put(node, root);
        return root;
    }

    private void union(Object a, Object b) {
        Object ra = find(a);
        Object rb = find(b);
        if (!ra.equals(rb)) {
            parent.put(ra, rb);
        }
    }
}
