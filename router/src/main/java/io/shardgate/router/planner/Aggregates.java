package io.shardgate.router.planner;

import com.alibaba.druid.sql.SQLUtils;
import com.alibaba.druid.sql.ast.SQLExpr;
import com.alibaba.druid.sql.ast.SQLObject;
import com.alibaba.druid.sql.ast.expr.SQLAggregateExpr;
import com.alibaba.druid.sql.ast.expr.SQLQueryExpr;
import com.alibaba.druid.sql.ast.statement.SQLSelectQueryBlock;
import com.alibaba.druid.sql.dialect.mysql.visitor.MySqlASTVisitorAdapter;
import io.shardgate.router.exec.AggregateFunction;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/** Finding aggregates and window functions in the expressions of one query block (not of its subqueries). */
final class Aggregates {
    private Aggregates() {
    }

    /** The aggregate calls (without OVER) in {@code expr}, outside subqueries. */
    static List<SQLAggregateExpr> in(SQLExpr expr) {
        List<SQLAggregateExpr> found = new ArrayList<>();
        if (expr == null) {
            return found;
        }
        expr.accept(new MySqlASTVisitorAdapter() {
            @Override
            public boolean visit(SQLAggregateExpr x) {
                if (x.getOver() == null && x.getOverRef() == null) {
                    found.add(x);
                }
                return true;
            }

            @Override
            public boolean visit(SQLQueryExpr x) {
                return false;
            }

            @Override
            public boolean visit(SQLSelectQueryBlock x) {
                return false;
            }
        });
        return found;
    }

    /** The first window function (an aggregate with OVER) in {@code expr}, outside subqueries. */
    static Optional<SQLAggregateExpr> window(SQLObject expr) {
        List<SQLAggregateExpr> found = new ArrayList<>();
        if (expr != null) {
            expr.accept(new MySqlASTVisitorAdapter() {
                @Override
                public boolean visit(SQLAggregateExpr x) {
                    if (x.getOver() != null || x.getOverRef() != null) {
                        found.add(x);
                    }
                    return true;
                }

                @Override
                public boolean visit(SQLQueryExpr x) {
                    return false;
                }
            });
        }
        return found.stream().findFirst();
    }

    /** How Shardgate merges this aggregate across shards, or empty when it cannot (COUNT(DISTINCT), GROUP_CONCAT, STD, ...). */
    static Optional<AggregateFunction> mergeable(SQLAggregateExpr aggregate) {
        if (isDistinct(aggregate) || aggregate.getOrderBy() != null || isConcat(aggregate)) {
            return Optional.empty();
        }
        try {
            return Optional.of(AggregateFunction.valueOf(aggregate.getMethodName().toUpperCase(Locale.ROOT)));
        }
        catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    /** Whether it is {@code COUNT/SUM/AVG/...(DISTINCT ...)}; {@code MIN/MAX(DISTINCT x)} are MIN/MAX(x) and do not count. */
    static boolean isDistinct(SQLAggregateExpr aggregate) {
        String name = aggregate.getMethodName().toUpperCase(Locale.ROOT);
        return aggregate.isDistinct() && !name.equals("MIN") && !name.equals("MAX");
    }

    static boolean isConcat(SQLAggregateExpr aggregate) {
        return aggregate.getMethodName().equalsIgnoreCase("GROUP_CONCAT");
    }

    /** Expression text normalized for comparing two expressions: Druid's rendering, lower case, without backquotes. */
    static String normalized(SQLExpr expr) {
        return SQLUtils.toMySqlString(expr).replace("`", "").replaceAll("\\s+", " ").toLowerCase(Locale.ROOT);
    }

    /** Druid's rendering of {@code expr}, for error messages and helper columns. */
    static String text(SQLExpr expr) {
        return SQLUtils.toMySqlString(expr);
    }
}
