package io.shardgate.router.planner;

import com.alibaba.druid.sql.ast.SQLExpr;
import com.alibaba.druid.sql.ast.SQLObject;
import com.alibaba.druid.sql.ast.expr.SQLBinaryOpExpr;
import com.alibaba.druid.sql.ast.expr.SQLBinaryOperator;
import com.alibaba.druid.sql.ast.statement.SQLDeleteStatement;
import com.alibaba.druid.sql.ast.statement.SQLInsertStatement;
import com.alibaba.druid.sql.ast.statement.SQLJoinTableSource;
import com.alibaba.druid.sql.ast.statement.SQLReplaceStatement;
import com.alibaba.druid.sql.ast.statement.SQLSelectQueryBlock;
import com.alibaba.druid.sql.ast.statement.SQLTableSource;
import com.alibaba.druid.sql.ast.statement.SQLUpdateStatement;

import java.util.ArrayList;
import java.util.List;

/**
 * Scopes are the places columns are resolved in: a SELECT block, an UPDATE, a DELETE, an INSERT.
 * Every table and column of a statement belongs to the nearest enclosing one.
 */
final class Scopes {
    private Scopes() {
    }

    static boolean isScope(SQLObject node) {
        return node instanceof SQLSelectQueryBlock || node instanceof SQLUpdateStatement || node instanceof SQLDeleteStatement
                || node instanceof SQLInsertStatement || node instanceof SQLReplaceStatement;
    }

    /** The scope {@code node} belongs to (itself excluded), or null at the top. */
    static SQLObject scopeOf(SQLObject node) {
        for (SQLObject p = node.getParent(); p != null; p = p.getParent()) {
            if (isScope(p)) {
                return p;
            }
        }
        return null;
    }

    /** The scope's FROM (or table list). */
    static SQLTableSource from(SQLObject scope) {
        if (scope instanceof SQLSelectQueryBlock block) {
            return block.getFrom();
        }
        if (scope instanceof SQLUpdateStatement update) {
            return update.getTableSource();
        }
        if (scope instanceof SQLDeleteStatement delete) {
            return delete.getFrom() != null ? delete.getFrom() : delete.getUsing() != null ? delete.getUsing() : delete.getTableSource();
        }
        return null;
    }

    static SQLExpr where(SQLObject scope) {
        if (scope instanceof SQLSelectQueryBlock block) {
            return block.getWhere();
        }
        if (scope instanceof SQLUpdateStatement update) {
            return update.getWhere();
        }
        if (scope instanceof SQLDeleteStatement delete) {
            return delete.getWhere();
        }
        return null;
    }

    /** The joins of the scope's FROM, outermost first (derived tables are other scopes). */
    static List<SQLJoinTableSource> joins(SQLObject scope) {
        List<SQLJoinTableSource> joins = new ArrayList<>();
        collectJoins(from(scope), joins);
        return joins;
    }

    private static void collectJoins(SQLTableSource source, List<SQLJoinTableSource> joins) {
        if (source instanceof SQLJoinTableSource join) {
            joins.add(join);
            collectJoins(join.getLeft(), joins);
            collectJoins(join.getRight(), joins);
        }
    }

    /** The AND-ed parts of a condition: {@code a AND (b AND c)} is a, b, c. */
    static List<SQLExpr> conjuncts(SQLExpr condition) {
        List<SQLExpr> parts = new ArrayList<>();
        addConjuncts(condition, parts);
        return parts;
    }

    private static void addConjuncts(SQLExpr condition, List<SQLExpr> parts) {
        if (condition == null) {
            return;
        }
        if (condition instanceof SQLBinaryOpExpr binary && binary.getOperator() == SQLBinaryOperator.BooleanAnd) {
            addConjuncts(binary.getLeft(), parts);
            addConjuncts(binary.getRight(), parts);
        }
        else {
            parts.add(condition);
        }
    }

    static boolean isOuter(SQLJoinTableSource join) {
        return leftOuter(join) || rightOuter(join);
    }

    /** Whether the join keeps every row of its left side (LEFT or FULL). */
    static boolean leftOuter(SQLJoinTableSource join) {
        return switch (join.getJoinType()) {
            case LEFT_OUTER_JOIN, NATURAL_LEFT_JOIN, FULL_OUTER_JOIN -> true;
            default -> false;
        };
    }

    /** Whether the join keeps every row of its right side (RIGHT or FULL). */
    static boolean rightOuter(SQLJoinTableSource join) {
        return switch (join.getJoinType()) {
            case RIGHT_OUTER_JOIN, NATURAL_RIGHT_JOIN, FULL_OUTER_JOIN -> true;
            default -> false;
        };
    }
}
