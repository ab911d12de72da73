package io.shardgate.router.planner;

import com.alibaba.druid.sql.ast.SQLExpr;
import com.alibaba.druid.sql.ast.expr.SQLBooleanExpr;
import com.alibaba.druid.sql.ast.expr.SQLCharExpr;
import com.alibaba.druid.sql.ast.expr.SQLHexExpr;
import com.alibaba.druid.sql.ast.expr.SQLIntegerExpr;
import com.alibaba.druid.sql.ast.expr.SQLNCharExpr;
import com.alibaba.druid.sql.ast.expr.SQLNullExpr;
import com.alibaba.druid.sql.ast.expr.SQLNumberExpr;
import com.alibaba.druid.sql.ast.expr.SQLVariantRefExpr;
import io.shardgate.router.plan.ValueSource;
import io.shardgate.router.value.SqlValue;

import java.math.BigInteger;
import java.util.Optional;

/**
 * The value of an expression that is a plain literal or a {@code ?} placeholder: what routing can
 * use. Anything else (an expression, a function, a string with COLLATE or an introducer) is empty.
 */
final class Literals {
    private Literals() {
    }

    static Optional<ValueSource> of(SQLExpr expr) {
        if (expr instanceof SQLVariantRefExpr variable && variable.getName().equals("?")) {
            return Optional.of(new ValueSource.Parameter(variable.getIndex()));
        }
        if (expr instanceof SQLIntegerExpr integer) {
            Number n = integer.getNumber();
            SqlValue value = n instanceof BigInteger big ? SqlValue.of(big) : SqlValue.ofLong(n.longValue());
            return Optional.of(new ValueSource.Literal(value));
        }
        if (expr instanceof SQLNumberExpr number) {
            return Optional.of(new ValueSource.Literal(number.getNumber() instanceof java.math.BigDecimal d
                    ? SqlValue.ofDecimal(d) : SqlValue.ofDouble(number.getNumber().doubleValue())));
        }
        if (expr instanceof SQLCharExpr text && expr.getClass() == SQLCharExpr.class && text.getCollate() == null) {
            return Optional.of(new ValueSource.Literal(SqlValue.ofText(text.getText())));
        }
        if (expr instanceof SQLNCharExpr text) {
            return Optional.of(new ValueSource.Literal(SqlValue.ofText(text.getText())));
        }
        if (expr instanceof SQLNullExpr) {
            return Optional.of(new ValueSource.Literal(SqlValue.NULL));
        }
        if (expr instanceof SQLHexExpr hex) {
            return Optional.of(new ValueSource.Literal(SqlValue.ofBytes(hex.toBytes())));
        }
        if (expr instanceof SQLBooleanExpr bool) {
            return Optional.of(new ValueSource.Literal(SqlValue.ofLong(bool.getBooleanValue() ? 1 : 0)));
        }
        return Optional.empty();
    }
}
