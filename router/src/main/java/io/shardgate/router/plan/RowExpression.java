package io.shardgate.router.plan;

import io.shardgate.router.collation.Collation;
import io.shardgate.router.collation.Collations;
import io.shardgate.router.exec.ColumnMeta;
import io.shardgate.router.exec.ColumnRef;
import io.shardgate.router.exec.Row;
import io.shardgate.router.exec.ValueKind;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.List;

import static java.util.Objects.requireNonNull;

/**
 * A HAVING condition over merged rows, evaluated as MySQL does: three-valued logic with NULL
 * (Java null) as unknown, numbers compared as numbers, strings under the column's collation
 * (utf8mb4_general_ci between two literals), a number and a string compared as doubles.
 */
public sealed interface RowExpression {

    /** What evaluation needs besides the row: the result columns (for collations) and the parameters. */
    record Context(List<ColumnMeta> columns, List<Object> parameters) {
    }

    Object evaluate(Row row, Context context);

    /** Whether a condition's value lets a row through: true, or a non-zero number. */
    static boolean isTrue(Object value) {
        if (value == null) {
            return false;
        }
        if (value instanceof Boolean b) {
            return b;
        }
        if (value instanceof Number || value instanceof String) {
            return Values.number(value).signum() != 0;
        }
        return true;
    }

    /** A result column. */
    record Column(ColumnRef column) implements RowExpression {
        @Override
        public Object evaluate(Row row, Context context) {
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
        public Object evaluate(Row row, Context context) {
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
        public Object evaluate(Row row, Context context) {
            Object a = left.evaluate(row, context);
            Object b = right.evaluate(row, context);
            if (a == null || b == null) {
                return operator == ComparisonOperator.NULL_SAFE_EQ ? (Object) (a == b ? 1L : 0L) : null;
            }
            int order = Values.compare(a, b, collation(context));
            boolean result = switch (operator) {
                case EQ, NULL_SAFE_EQ -> order == 0;
                case NE -> order != 0;
                case LT -> order < 0;
                case LE -> order <= 0;
                case GT -> order > 0;
                case GE -> order >= 0;
            };
            return result ? 1L : 0L;
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
        public Object evaluate(Row row, Context context) {
            Object a = left.evaluate(row, context);
            if (operator == LogicalOperator.AND && a != null && !isTrue(a)) {
                return 0L;
            }
            if (operator == LogicalOperator.OR && a != null && isTrue(a)) {
                return 1L;
            }
            Object b = right.evaluate(row, context);
            return switch (operator) {
                case AND -> b != null && !isTrue(b) ? (Object) 0L : a == null || b == null ? null : (Object) 1L;
                case OR -> b != null && isTrue(b) ? (Object) 1L : a == null || b == null ? null : (Object) 0L;
                case XOR -> a == null || b == null ? null : (Object) (isTrue(a) != isTrue(b) ? 1L : 0L);
            };
        }

        @Override
        public String toString() {
            return "(" + left + " " + operator + " " + right + ")";
        }
    }

    record Not(RowExpression operand) implements RowExpression {
        @Override
        public Object evaluate(Row row, Context context) {
            Object value = operand.evaluate(row, context);
            return value == null ? null : (Object) (isTrue(value) ? 0L : 1L);
        }

        @Override
        public String toString() {
            return "NOT " + operand;
        }
    }

    record IsNull(RowExpression operand, boolean negated) implements RowExpression {
        @Override
        public Object evaluate(Row row, Context context) {
            return (operand.evaluate(row, context) == null) != negated ? 1L : 0L;
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
        public Object evaluate(Row row, Context context) {
            Object x = operand.evaluate(row, context);
            if (x == null) {
                return null;
            }
            boolean sawNull = false;
            for (RowExpression value : values) {
                Object equal = new Comparison(ComparisonOperator.EQ, operand, value).evaluate(row, context);
                if (equal == null) {
                    sawNull = true;
                }
                else if (isTrue(equal)) {
                    return negated ? 0L : 1L;
                }
            }
            return sawNull ? null : (Object) (negated ? 1L : 0L);
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
        public Object evaluate(Row row, Context context) {
            Object a = left.evaluate(row, context);
            Object b = right.evaluate(row, context);
            if (a == null || b == null) {
                return null;
            }
            if (a instanceof Double || b instanceof Double || a instanceof Float || b instanceof Float) {
                double x = Values.number(a).doubleValue();
                double y = Values.number(b).doubleValue();
                return switch (operator) {
                    case ADD -> x + y;
                    case SUBTRACT -> x - y;
                    case MULTIPLY -> x * y;
                    case DIVIDE -> y == 0 ? null : (Object) (x / y);
                };
            }
            BigDecimal x = Values.number(a);
            BigDecimal y = Values.number(b);
            return switch (operator) {
                case ADD -> x.add(y);
                case SUBTRACT -> x.subtract(y);
                case MULTIPLY -> x.multiply(y);
                case DIVIDE -> y.signum() == 0 ? null : x.divide(y, Math.max(x.scale(), 0) + 4, RoundingMode.HALF_UP);
            };
        }

        @Override
        public String toString() {
            return "(" + left + " " + operator + " " + right + ")";
        }
    }

    /** Conversions MySQL applies when comparing and computing. */
    final class Values {
        private Values() {
        }

        static BigDecimal number(Object value) {
            if (value instanceof BigDecimal d) {
                return d;
            }
            if (value instanceof Double || value instanceof Float) {
                double d = ((Number) value).doubleValue();
                return Double.isFinite(d) ? new BigDecimal(d) : BigDecimal.ZERO;
            }
            if (value instanceof Number n) {
                return new BigDecimal(n.toString());
            }
            if (value instanceof Boolean b) {
                return b ? BigDecimal.ONE : BigDecimal.ZERO;
            }
            return doublePrefix(value.toString());
        }

        /** A string in numeric context: its longest numeric prefix, 0 without one. */
        private static BigDecimal doublePrefix(String s) {
            java.util.regex.Matcher m = java.util.regex.Pattern.compile("^\\s*([+-]?(\\d+\\.?\\d*|\\.\\d+)([eE][+-]?\\d+)?)").matcher(s);
            return m.find() ? new BigDecimal(m.group(1)) : BigDecimal.ZERO;
        }

        static int compare(Object a, Object b, Collation collation) {
            boolean aText = a instanceof String;
            boolean bText = b instanceof String;
            if (aText && bText) {
                return collation.compare((String) a, (String) b);
            }
            if (a instanceof byte[] || b instanceof byte[]) {
                return java.util.Arrays.compareUnsigned(bytes(a), bytes(b));
            }
            if (a instanceof Number || b instanceof Number || a instanceof Boolean || b instanceof Boolean) {
                return number(a).compareTo(number(b));
            }
            return a.toString().compareTo(b.toString());
        }

        private static byte[] bytes(Object value) {
            return value instanceof byte[] b ? b : value.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8);
        }
    }
}
