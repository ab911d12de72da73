package io.shardgate.router.plan;

import io.shardgate.router.exec.ColumnMeta;
import io.shardgate.router.exec.ColumnRef;
import io.shardgate.router.exec.Row;
import io.shardgate.router.exec.ValueKind;
import io.shardgate.router.plan.RowExpression.ArithmeticOperator;
import io.shardgate.router.plan.RowExpression.ComparisonOperator;
import io.shardgate.router.plan.RowExpression.LogicalOperator;
import io.shardgate.router.value.SqlValue;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class RowExpressionTest {

    private final RowExpression.Context context = new RowExpression.Context(
            List.of(ColumnMeta.of("s", ValueKind.STRING), ColumnMeta.of("n", ValueKind.INTEGER)), List.of(SqlValue.ofLong(5L)));
    private final Row row = Row.of("Open", null);

    private static RowExpression column(int i) {
        return new RowExpression.Column(ColumnRef.at(i));
    }

    private static RowExpression value(Object v) {
        return new RowExpression.Value(ValueSource.Literal.of(v));
    }

    private Object eval(RowExpression e) {
        return e.evaluate(row, context).toJava();
    }

    @Test
    void comparisonsWithNullAreUnknownExceptNullSafeEquality() {
        assertThat(eval(new RowExpression.Comparison(ComparisonOperator.GT, column(1), value(1L)))).isNull();
        assertThat(eval(new RowExpression.Comparison(ComparisonOperator.NULL_SAFE_EQ, column(1), value(null)))).isEqualTo(1L);
        assertThat(eval(new RowExpression.IsNull(column(1), false))).isEqualTo(1L);
    }

    @Test
    void threeValuedLogic() {
        RowExpression unknown = new RowExpression.Comparison(ComparisonOperator.EQ, column(1), value(1L));
        assertThat(eval(new RowExpression.Logical(LogicalOperator.AND, unknown, value(0L)))).isEqualTo(0L);
        assertThat(eval(new RowExpression.Logical(LogicalOperator.AND, unknown, value(1L)))).isNull();
        assertThat(eval(new RowExpression.Logical(LogicalOperator.OR, unknown, value(1L)))).isEqualTo(1L);
        assertThat(eval(new RowExpression.Not(unknown))).isNull();
        assertThat(RowExpression.isTrue(null)).isFalse();
    }

    @Test
    void stringsCompareUnderTheColumnsCollationAndNumbersAsNumbers() {
        assertThat(eval(new RowExpression.Comparison(ComparisonOperator.EQ, column(0), value("OPEN  ")))).isEqualTo(1L);
        assertThat(eval(new RowExpression.Comparison(ComparisonOperator.GT, value("10"), value(9L)))).isEqualTo(1L);
        assertThat(eval(new RowExpression.Comparison(ComparisonOperator.LT, value("10"), value("9")))).isEqualTo(1L);
        assertThat(eval(new RowExpression.Comparison(ComparisonOperator.EQ, new RowExpression.Value(new ValueSource.Parameter(0)),
                value(new BigDecimal("5.0"))))).isEqualTo(1L);
    }

    @Test
    void inIsUnknownWhenNothingMatchesAndANullIsListed() {
        assertThat(eval(new RowExpression.In(column(0), List.of(value("x"), value(null)), false))).isNull();
        assertThat(eval(new RowExpression.In(column(0), List.of(value("open"), value(null)), false))).isEqualTo(1L);
        assertThat(eval(new RowExpression.In(column(0), List.of(value("x")), true))).isEqualTo(1L);
    }

    @Test
    void arithmeticIsExactAndDivisionByZeroIsNull() {
        assertThat(eval(new RowExpression.Arithmetic(ArithmeticOperator.DIVIDE, value(1L), value(3L)))).isEqualTo(new BigDecimal("0.3333"));
        assertThat(eval(new RowExpression.Arithmetic(ArithmeticOperator.DIVIDE, value(1L), value(0L)))).isNull();
        assertThat(eval(new RowExpression.Arithmetic(ArithmeticOperator.ADD, value(1.5d), value(1L)))).isEqualTo(2.5d);
        assertThat(eval(new RowExpression.Arithmetic(ArithmeticOperator.MULTIPLY, column(1), value(2L)))).isNull();
    }
}
