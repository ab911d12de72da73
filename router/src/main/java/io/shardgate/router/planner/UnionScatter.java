package io.shardgate.router.planner;

import com.alibaba.druid.sql.ast.SQLExpr;
import com.alibaba.druid.sql.ast.SQLLimit;
import com.alibaba.druid.sql.ast.SQLOrderingSpecification;
import com.alibaba.druid.sql.ast.SQLSetQuantifier;
import com.alibaba.druid.sql.ast.expr.SQLIdentifierExpr;
import com.alibaba.druid.sql.ast.expr.SQLIntegerExpr;
import com.alibaba.druid.sql.ast.expr.SQLPropertyExpr;
import com.alibaba.druid.sql.ast.statement.SQLSelectItem;
import com.alibaba.druid.sql.ast.statement.SQLSelectOrderByItem;
import com.alibaba.druid.sql.ast.statement.SQLSelectQuery;
import com.alibaba.druid.sql.ast.statement.SQLSelectQueryBlock;
import com.alibaba.druid.sql.ast.statement.SQLUnionOperator;
import com.alibaba.druid.sql.ast.statement.SQLUnionQuery;
import io.shardgate.errors.ErrorCode;
import io.shardgate.router.exec.ColumnRef;
import io.shardgate.router.exec.SortKey;
import io.shardgate.router.plan.LimitOffset;
import io.shardgate.router.plan.MergeSort;
import io.shardgate.router.plan.PlanNode;
import io.shardgate.router.plan.Route;
import io.shardgate.router.plan.ShardSql;
import io.shardgate.router.plan.ValueSource;
import io.shardgate.router.value.SqlValue;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * A UNION ALL whose branches each read a sharded table, run on every shard: the union of the shards'
 * unions is the union. The union's ORDER BY (by position or by a name of the first branch) becomes a
 * {@link MergeSort} and its LIMIT is sent as offset+count. UNION DISTINCT, and branches that
 * aggregate, group, sort or limit on their own, are refused.
 */
final class UnionScatter {
    private final Tokens tokens;
    private final SqlRewriter rewriter;
    private final Function<ShardSql, Route> route;

    UnionScatter(PlanContext context, SqlRewriter rewriter, Function<ShardSql, Route> route) {
        this.tokens = context.tokens();
        this.rewriter = rewriter;
        this.route = route;
    }

    PlanNode plan(SQLUnionQuery union) {
        List<SQLSelectQueryBlock> branches = new ArrayList<>();
        collect(union, branches);
        for (SQLSelectQueryBlock branch : branches) {
            boolean aggregates = branch.getSelectList().stream().anyMatch(i -> !Aggregates.in(i.getExpr()).isEmpty());
            if (aggregates || branch.getGroupBy() != null || branch.getLimit() != null || branch.getOrderBy() != null
                    || branch.getDistionOption() == SQLSetQuantifier.DISTINCT) {
                throw ErrorCode.UNSUPPORTED.exception("a UNION branch that aggregates, groups, sorts or limits across shards");
            }
        }
        SelectClauses last = lastBranchClauses();
        List<SortKey> keys = new ArrayList<>();
        if (union.getOrderBy() != null) {
            for (SQLSelectOrderByItem item : union.getOrderBy().getItems()) {
                keys.add(new SortKey(ColumnRef.at(position(item.getExpr(), branches.get(0))),
                        item.getType() == SQLOrderingSpecification.DESC));
            }
        }
        SQLLimit limit = union.getLimit();
        ValueSource offset = null;
        ValueSource count = null;
        if (limit != null) {
            if (last.limit.isEmpty()) {
                throw ErrorCode.UNSUPPORTED.exception("this form of UNION ... LIMIT across shards");
            }
            count = Literals.of(limit.getRowCount()).orElseThrow(() -> ErrorCode.UNSUPPORTED.exception("LIMIT "
                    + Aggregates.text(limit.getRowCount())));
            offset = limit.getOffset() == null ? new ValueSource.Literal(SqlValue.ofLong(0)) : Literals.of(limit.getOffset())
                    .orElseThrow(() -> ErrorCode.UNSUPPORTED.exception("OFFSET " + Aggregates.text(limit.getOffset())));
            SelectClauses.Span span = last.limit.get().span();
            Tokens.Fragment sent = offset instanceof ValueSource.Literal o && count instanceof ValueSource.Literal c
                    ? Tokens.Fragment.of("LIMIT " + ValueSource.integer(o.value()).add(ValueSource.integer(c.value())))
                    : new Tokens.Fragment("LIMIT ?", List.of(new ValueSource.Sum(offset, count)));
            rewriter.replace(span.start(), span.end(), sent);
        }
        Route shards = route.apply(rewriter.build());
        PlanNode node = keys.isEmpty() ? shards : new MergeSort(shards, keys);
        return limit == null ? node : new LimitOffset(node, offset, count);
    }

    private static void collect(SQLSelectQuery query, List<SQLSelectQueryBlock> branches) {
        if (query instanceof SQLUnionQuery union) {
            if (union.getOperator() != SQLUnionOperator.UNION_ALL) {
                throw ErrorCode.UNSUPPORTED.exception(union.getOperator() + " (without ALL) across shards");
            }
            for (SQLSelectQuery part : union.getRelations()) {
                collect(part, branches);
            }
        }
        else if (query instanceof SQLSelectQueryBlock block) {
            branches.add(block);
        }
        else {
            throw ErrorCode.UNSUPPORTED.exception("this form of UNION across shards");
        }
    }

    /** The clauses after the last branch's SELECT: the union's ORDER BY and LIMIT are found among them. */
    private SelectClauses lastBranchClauses() {
        int last = -1;
        for (int i = 0; i < tokens.size(); i++) {
            if (tokens.get(i).depth() == 0 && tokens.isWord(i, "SELECT")) {
                last = i;
            }
        }
        return SelectClauses.locate(tokens, last).orElseThrow(() -> ErrorCode.UNSUPPORTED.exception(
                "this form of UNION across shards"));
    }

    private static int position(SQLExpr expr, SQLSelectQueryBlock first) {
        if (expr instanceof SQLIntegerExpr integer && integer.getNumber().intValue() >= 1) {
            return integer.getNumber().intValue() - 1;
        }
        if (expr instanceof SQLIdentifierExpr identifier) {
            List<SQLSelectItem> items = first.getSelectList();
            for (int i = 0; i < items.size(); i++) {
                SQLSelectItem item = items.get(i);
                String name = item.getAlias() != null ? item.getAlias()
                        : item.getExpr() instanceof SQLIdentifierExpr id ? id.getName()
                        : item.getExpr() instanceof SQLPropertyExpr p ? p.getName() : null;
                if (Names.same(name, identifier.getName()) && items.stream().limit(i).noneMatch(UnionScatter::isStar)) {
                    return i;
                }
            }
        }
        throw ErrorCode.UNSUPPORTED.exception("UNION ... ORDER BY " + Aggregates.text(expr) + " across shards");
    }

    private static boolean isStar(SQLSelectItem item) {
        return Aggregates.text(item.getExpr()).endsWith("*");
    }

}
