package io.shardgate.router.plan;

import io.shardgate.router.collation.Collation;
import io.shardgate.router.collation.Collations;
import io.shardgate.router.exec.ColumnMeta;
import io.shardgate.router.exec.ColumnRef;
import io.shardgate.router.exec.Row;
import io.shardgate.router.exec.ValueKind;

import io.shardgate.router.value.SqlValue;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.List;

import static java.util.Objects.requireNonNull;

/**
 * A HAVING condition over merged rows, evaluated as MySQL does: three-valued logic with NULL
 * ({@link SqlValue#NULL}) as unknown, numbers compared as numbers, strings under the column's collation
 * (utf8mb4_general_ci between two literals), a number and a string compared as doubles.
 */
public sealed interface RowExpression {

    /** What evaluation needs besides the row: the result columns (for collations) and the parameters. */
    record Context(List<ColumnMeta> columns, List<SqlValue> parameters) {
    }

    SqlValue evaluate(Row row, Context context);

    /** Whether a condition's value lets a row through: true, or a non-zero number. */
    static boolean isTrue(SqlValue value) {
        return value != null && value.isTrue();
    }

    SqlValue TRUE = SqlValue.ofLong(1);
    SqlValue FALSE = SqlValue.ofLong(0);

    private static SqlValue truth(boolean value) {
        return value ? TRUE : FALSE;
    }

    /** A result column. */
    record Column(ColumnRef column) implements RowExpression {
        @Override
        public SqlValue evaluate(Row row, Context context) {
            return row.get(column.resolve(row.size()));
        }

        Collation collation(Context context) {
            ColumnMeta meta = context.columns().get(column.resolve(context.columns().size()));
            return meta.kind() == ValueKind.STRING ? meta.collation().orElse(null) : null;
        }

        @Override
        public String toString() {
            return column.toString();
        }
    }

    /** A literal or a parameter. */
    record Value(ValueSource source) implements RowExpression {
        @Override
        public SqlValue evaluate(Row row, Context context) {
            return source.value(context.parameters());
        }

        @Override
        public String toString() {
            return source.describe();
        }
    }

    enum ComparisonOperator {
        EQ("="), NE("<>"), LT("<"), LE("<="), GT(">"), GE(">="), NULL_SAFE_EQ("<=>");

        private final String symbol;

        ComparisonOperator(String symbol) {
            this.symbol = symbol;
        }

        @Override
        public String toString() {
            return symbol;
        }
    }

    record Comparison(ComparisonOperator operator, RowExpression left, RowExpression right) implements RowExpression {
        public Comparison {
            requireNonNull(operator, "operator is null");
            requireNonNull(left, "left is null");
            requireNonNull(right, "right is null");
        }

        @Override
        public SqlValue evaluate(Row row, Context context) {
            SqlValue a = left.evaluate(row, context);
            SqlValue b = right.evaluate(row, context);
            if (a.isNull() || b.isNull()) {
                return operator == ComparisonOperator.NULL_SAFE_EQ ? truth(a.isNull() && b.isNull()) : SqlValue.NULL;
            }
            int order = SqlValue.compare(a, b, collation(context));
            boolean result = switch (operator) {
                case EQ, NULL_SAFE_EQ -> order == 0;
                case NE -> order != 0;
                case LT -> order < 0;
                case LE -> order <= 0;
                case GT -> order > 0;
                case GE -> order >= 0;
            };
            return truth(result);
        }

        private Collation collation(Context context) {
            Collation collation = left instanceof Column c ? c.collation(context) : null;
            if (collation == null && right instanceof Column c) {
                collation = c.collation(context);
            }
            return collation != null ? collation : Collations.UTF8MB4_GENERAL_CI;
        }

        @Override
        public String toString() {
            return "(" + left + " " + operator + " " + right + ")";
        }
    }

    enum LogicalOperator { AND, OR, XOR }

    record Logical(LogicalOperator operator, RowExpression left, RowExpression right) implements RowExpression {
        @Override
        public SqlValue evaluate(Row row, Context context) {
            SqlValue a = left.evaluate(row, context);
            if (operator == LogicalOperator.AND && !a.isNull() && !isTrue(a)) {
                return FALSE;
            }
            if (operator == LogicalOperator.OR && !a.isNull() && isTrue(a)) {
                return TRUE;
            }
            SqlValue b = right.evaluate(row, context);
            boolean unknown = a.isNull() || b.isNull();
            return switch (operator) {
                case AND -> !b.isNull() && !isTrue(b) ? FALSE : unknown ? SqlValue.NULL : TRUE;
                case OR -> !b.isNull() && isTrue(b) ? TRUE : unknown ? SqlValue.NULL : FALSE;
                case XOR -> unknown ? SqlValue.NULL : truth(isTrue(a) != isTrue(b));
            };
        }

        @Override
        public String toString() {
            return "(" + left + " " + operator + " " + right + ")";
        }
    }

    record Not(RowExpression operand) implements RowExpression {
        @Override
        public SqlValue evaluate(Row row, Context context) {
            SqlValue value = operand.evaluate(row, context);
            return value.isNull() ? SqlValue.NULL : truth(!isTrue(value));
        }

        @Override
        public String toString() {
            return "NOT " + operand;
        }
    }

    record IsNull(RowExpression operand, boolean negated) implements RowExpression {
        @Override
        public SqlValue evaluate(Row row, Context context) {
            return truth(operand.evaluate(row, context).isNull() != negated);
        }

        @Override
        public String toString() {
            return operand + (negated ? " IS NOT NULL" : " IS NULL");
        }
    }

    /** {@code x IN (a, b, ...)}: true on a match, else NULL if any operand is NULL, else false. */
    record In(RowExpression operand, List<RowExpression> values, boolean negated) implements RowExpression {
        public In {
            values = List.copyOf(values);
        }

        @Override
        public SqlValue evaluate(Row row, Context context) {
            SqlValue x = operand.evaluate(row, context);
            if (x.isNull()) {
                return SqlValue.NULL;
            }
            boolean sawNull = false;
            for (RowExpression value : values) {
                SqlValue equal = new Comparison(ComparisonOperator.EQ, operand, value).evaluate(row, context);
                if (equal.isNull()) {
                    sawNull = true;
                }
                else if (isTrue(equal)) {
                    return truth(!negated);
                }
            }
            return sawNull ? SqlValue.NULL : truth(negated);
        }

        @Override
        public String toString() {
            return operand + (negated ? " NOT IN " : " IN ") + values;
        }
    }

    enum ArithmeticOperator {
        ADD("+"), SUBTRACT("-"), MULTIPLY("*"), DIVIDE("/");

        private final String symbol;

        ArithmeticOperator(String symbol) {
            this.symbol = symbol;
        }

        @Override
        public String toString() {
            return symbol;
        }
    }

    /** Arithmetic on numbers; doubles stay doubles, everything else is exact; division by zero is NULL. */
    record Arithmetic(ArithmeticOperator operator, RowExpression left, RowExpression right) implements RowExpression {
        @Override
        public SqlValue evaluate(Row row, Context context) {
            SqlValue a = left.evaluate(row, context);
            SqlValue b = right.evaluate(row, context);
            if (a.isNull() || b.isNull()) {
                return SqlValue.NULL;
            }
            if (a.type() == SqlValue.Type.FLOAT || b.type() == SqlValue.Type.FLOAT) {
                double x = a.numericPrefix().doubleValue();
                double y = b.numericPrefix().doubleValue();
                return switch (operator) {
                    case ADD -> SqlValue.ofDouble(x + y);
                    case SUBTRACT -> SqlValue.ofDouble(x - y);
                    case MULTIPLY -> SqlValue.ofDouble(x * y);
                    case DIVIDE -> y == 0 ? SqlValue.NULL : SqlValue.ofDouble(x / y);
                };
            }
            BigDecimal x = a.numericPrefix();
            BigDecimal y = b.numericPrefix();
            return switch (operator) {
                case ADD -> SqlValue.ofDecimal(x.add(y));
                case SUBTRACT -> SqlValue.ofDecimal(x.subtract(y));
                case MULTIPLY -> SqlValue.ofDecimal(x.multiply(y));
                case DIVIDE -> y.signum() == 0 ? SqlValue.NULL : SqlValue.ofDecimal(x.divide(y, Math.max(x.scale(), 0) + 4, RoundingMode.HALF_UP));
            };
        }

        @Override
        public String toString() {
            return "(" + left + " " + operator + " " + right + ")";
        }
    }
}
