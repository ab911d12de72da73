package io.shardgate.router.planner;

import com.alibaba.druid.sql.ast.SQLExpr;
import com.alibaba.druid.sql.ast.expr.SQLBetweenExpr;
import com.alibaba.druid.sql.ast.expr.SQLBinaryOpExpr;
import com.alibaba.druid.sql.ast.expr.SQLInListExpr;
import com.alibaba.druid.sql.ast.expr.SQLNotExpr;
import com.alibaba.druid.sql.ast.expr.SQLNullExpr;
import io.shardgate.errors.ErrorCode;
import io.shardgate.router.plan.RowExpression;
import io.shardgate.router.plan.RowExpression.ArithmeticOperator;
import io.shardgate.router.plan.RowExpression.ComparisonOperator;
import io.shardgate.router.plan.RowExpression.LogicalOperator;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * Turns a HAVING condition into a {@link RowExpression} over merged rows: comparisons, AND/OR/XOR/NOT,
 * IS [NOT] NULL, [NOT] IN, [NOT] BETWEEN, + - * /, literals and parameters; aggregates and columns
 * become result columns through {@code columns}. Anything else is refused, named.
 */
final class HavingCompiler {
    private final Function<SQLExpr, RowExpression> columns;

    /** {@code columns} maps an aggregate or column reference to its result column, or returns null. */
    HavingCompiler(Function<SQLExpr, RowExpression> columns) {
        this.columns = columns;
    }

    RowExpression compile(SQLExpr expr) {
        RowExpression column = columns.apply(expr);
        if (column != null) {
            return column;
        }
        Optional<io.shardgate.router.plan.ValueSource> literal = Literals.of(expr);
        if (literal.isPresent()) {
            return new RowExpression.Value(literal.get());
        }
        if (expr instanceof SQLNotExpr not) {
            return new RowExpression.Not(compile(not.getExpr()));
        }
        if (expr instanceof SQLInListExpr in) {
            List<RowExpression> values = new ArrayList<>();
            in.getTargetList().forEach(t -> values.add(compile(t)));
            return new RowExpression.In(compile(in.getExpr()), values, in.isNot());
        }
        if (expr instanceof SQLBetweenExpr between) {
            RowExpression test = compile(between.getTestExpr());
            RowExpression range = new RowExpression.Logical(LogicalOperator.AND,
                    new RowExpression.Comparison(ComparisonOperator.GE, test, compile(between.getBeginExpr())),
                    new RowExpression.Comparison(ComparisonOperator.LE, test, compile(between.getEndExpr())));
            return between.isNot() ? new RowExpression.Not(range) : range;
        }
        if (expr instanceof SQLBinaryOpExpr binary) {
            return binary(binary);
        }
        throw unsupported(expr);
    }

    private RowExpression binary(SQLBinaryOpExpr binary) {
        switch (binary.getOperator()) {
            case Is, IsNot -> {
                if (binary.getRight() instanceof SQLNullExpr) {
                    return new RowExpression.IsNull(compile(binary.getLeft()), binary.getOperator() == com.alibaba.druid.sql.ast.expr.SQLBinaryOperator.IsNot);
                }
                throw unsupported(binary);
            }
            default -> {
            }
        }
        RowExpression left = compile(binary.getLeft());
        RowExpression right = compile(binary.getRight());
        return switch (binary.getOperator()) {
            case Equality -> new RowExpression.Comparison(ComparisonOperator.EQ, left, right);
            case NotEqual, LessThanOrGreater -> new RowExpression.Comparison(ComparisonOperator.NE, left, right);
            case LessThan -> new RowExpression.Comparison(ComparisonOperator.LT, left, right);
            case LessThanOrEqual -> new RowExpression.Comparison(ComparisonOperator.LE, left, right);
            case GreaterThan -> new RowExpression.Comparison(ComparisonOperator.GT, left, right);
            case GreaterThanOrEqual -> new RowExpression.Comparison(ComparisonOperator.GE, left, right);
            case LessThanOrEqualOrGreaterThan -> new RowExpression.Comparison(ComparisonOperator.NULL_SAFE_EQ, left, right);
            case BooleanAnd -> new RowExpression.Logical(LogicalOperator.AND, left, right);
            case BooleanOr -> new RowExpression.Logical(LogicalOperator.OR, left, right);
            case BooleanXor -> new RowExpression.Logical(LogicalOperator.XOR, left, right);
            case Add -> new RowExpression.Arithmetic(ArithmeticOperator.ADD, left, right);
            case Subtract -> new RowExpression.Arithmetic(ArithmeticOperator.SUBTRACT, left, right);
            case Multiply -> new RowExpression.Arithmetic(ArithmeticOperator.MULTIPLY, left, right);
            case Divide -> new RowExpression.Arithmetic(ArithmeticOperator.DIVIDE, left, right);
            default -> throw unsupported(binary);
        };
    }

    private static RuntimeException unsupported(SQLExpr expr) {
        return ErrorCode.UNSUPPORTED.exception("HAVING with " + Aggregates.text(expr) + " across shards");
    }
}
