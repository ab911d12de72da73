package io.shardgate.router.planner;

import com.alibaba.druid.sql.ast.SQLLimit;
import com.alibaba.druid.sql.ast.statement.SQLSelectQueryBlock;
import io.shardgate.errors.ErrorCode;
import io.shardgate.router.plan.LimitOffset;
import io.shardgate.router.plan.PlanNode;
import io.shardgate.router.plan.ValueSource;
import io.shardgate.router.value.SqlValue;

import java.math.BigInteger;
import java.util.List;
import java.util.Optional;

/**
 * The LIMIT of a SELECT block across shards: a literal or parameter offset (0 when absent) and count.
 * The merge applies it again above the merged rows ({@link LimitOffset}).
 */
record ScatterLimit(ValueSource offset, ValueSource count) {

    /** The block's LIMIT, if it has one; refused when its form or values cannot be planned. */
    static Optional<ScatterLimit> of(SQLSelectQueryBlock block, SelectClauses clauses) {
        SQLLimit limit = block.getLimit();
        if (limit == null) {
            return Optional.empty();
        }
        if (clauses.limit.isEmpty()) {
            throw ErrorCode.UNSUPPORTED.exception("this form of LIMIT across shards");
        }
        ValueSource count = Literals.of(limit.getRowCount()).orElseThrow(() -> ErrorCode.UNSUPPORTED.exception(
                "LIMIT " + Aggregates.text(limit.getRowCount())));
        ValueSource offset = limit.getOffset() == null ? new ValueSource.Literal(SqlValue.ofLong(0))
                : Literals.of(limit.getOffset()).orElseThrow(() -> ErrorCode.UNSUPPORTED.exception(
                        "OFFSET " + Aggregates.text(limit.getOffset())));
        return Optional.of(new ScatterLimit(offset, count));
    }

    /** Each shard gets LIMIT offset+count: the rows the merged result keeps are among each shard's first offset+count. */
    void push(SelectClauses clauses, SqlRewriter rewriter) {
        SelectClauses.Span span = clauses.limit.orElseThrow().span();
        Tokens.Fragment sent;
        if (offset instanceof ValueSource.Literal o && count instanceof ValueSource.Literal c) {
            BigInteger total = ValueSource.integer(o.value()).add(ValueSource.integer(c.value()));
            sent = Tokens.Fragment.of("LIMIT " + total);
        }
        else if (offset instanceof ValueSource.Literal o && ValueSource.integer(o.value()).signum() == 0) {
            sent = new Tokens.Fragment("LIMIT ?", List.of(count));
        }
        else {
            sent = new Tokens.Fragment("LIMIT ?", List.of(new ValueSource.Sum(offset, count)));
        }
        rewriter.replace(span.start(), span.end(), sent);
    }

    /** {@code node} with this LIMIT applied above it. */
    PlanNode above(PlanNode node) {
        return new LimitOffset(node, offset, count);
    }
}
