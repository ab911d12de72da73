package io.shardgate.router.planner;

import com.alibaba.druid.sql.ast.SQLExpr;
import com.alibaba.druid.sql.ast.SQLObject;
import com.alibaba.druid.sql.ast.expr.SQLBinaryOpExpr;
import com.alibaba.druid.sql.ast.expr.SQLBinaryOperator;
import com.alibaba.druid.sql.ast.expr.SQLInListExpr;
import com.alibaba.druid.sql.ast.statement.SQLJoinTableSource;
import com.alibaba.druid.sql.ast.statement.SQLTableSource;
import io.shardgate.router.plan.ShardSelection;
import io.shardgate.router.plan.ValueSource;
import io.shardgate.router.shard.ShardRanges;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The conditions that pin a statement to the shards owning some shard key values: at the top level,
 * {@code key = value} or {@code key IN (values)} AND-ed into WHERE or into the ON of an inner join,
 * the key being a sharded table's shard key and the values literals or {@code ?}. (Conditions inside
 * a subquery or an OR, or on the ON of an outer join, do not restrict which rows the statement returns.)
 */
final class KeyConditions {
    private KeyConditions() {
    }

    /** The shard selection of {@code scope}'s key conditions, or empty when there are none (the statement scatters). */
    static Optional<ShardSelection.Keyed> of(SQLObject scope, ColumnResolver resolver, List<String> candidates, ShardRanges ranges) {
        List<SQLExpr> conditions = new ArrayList<>(Scopes.conjuncts(Scopes.where(scope)));
        addInnerJoinConditions(Scopes.from(scope), conditions);
        List<List<ValueSource>> values = new ArrayList<>();
        ColumnResolver.Column key = null;
        for (SQLExpr condition : conditions) {
            Optional<ColumnResolver.Column> column = Optional.empty();
            List<ValueSource> list = null;
            if (condition instanceof SQLBinaryOpExpr binary && binary.getOperator() == SQLBinaryOperator.Equality) {
                column = keyColumn(binary.getLeft(), scope, resolver);
                Optional<ValueSource> value = Literals.of(binary.getRight());
                if (column.isEmpty()) {
                    column = keyColumn(binary.getRight(), scope, resolver);
                    value = Literals.of(binary.getLeft());
                }
                list = value.map(List::of).orElse(null);
            }
            else if (condition instanceof SQLInListExpr in && !in.isNot()) {
                column = keyColumn(in.getExpr(), scope, resolver);
                List<ValueSource> targets = new ArrayList<>();
                for (SQLExpr target : in.getTargetList()) {
                    Optional<ValueSource> value = Literals.of(target);
                    if (value.isEmpty()) {
                        targets = null;
                        break;
                    }
                    targets.add(value.get());
                }
                list = targets;
            }
            if (column.isPresent() && list != null) {
                key = key == null ? column.get() : key;
                values.add(list);
            }
        }
        if (key == null) {
            return Optional.empty();
        }
        String name = key.use().reference() + "." + key.use().table().shardedRule().shardKey();
        return Optional.of(new ShardSelection.Keyed(name, key.use().table().shardedRule().vindex(), values, candidates, ranges, false));
    }

    private static Optional<ColumnResolver.Column> keyColumn(SQLExpr expr, SQLObject scope, ColumnResolver resolver) {
        return resolver.resolve(expr).filter(c -> c.isShardKey() && c.use().scope() == scope);
    }

    private static void addInnerJoinConditions(SQLTableSource source, List<SQLExpr> out) {
        if (source instanceof SQLJoinTableSource join && !Scopes.isOuter(join)) {
            out.addAll(Scopes.conjuncts(join.getCondition()));
            addInnerJoinConditions(join.getLeft(), out);
            addInnerJoinConditions(join.getRight(), out);
        }
    }
}
