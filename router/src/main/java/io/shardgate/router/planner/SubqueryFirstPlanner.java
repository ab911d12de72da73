package io.shardgate.router.planner;

import com.alibaba.druid.sql.ast.SQLStatement;
import com.alibaba.druid.sql.ast.statement.SQLSelectQueryBlock;
import com.alibaba.druid.sql.ast.statement.SQLSelectStatement;
import com.alibaba.druid.sql.dialect.mysql.parser.MySqlStatementParser;
import io.shardgate.errors.ErrorCode;
import io.shardgate.errors.ShardgateException;
import io.shardgate.router.plan.PlanNode;
import io.shardgate.router.plan.SubqueryFirst;

import java.util.List;
import java.util.Optional;

/**
 * Plans a SELECT that is not co-located because of an {@code x [NOT] IN (SELECT ...)} of its top-level block
 * (anywhere in it: replacing an uncorrelated subquery by its values is exact wherever it stands): the subquery
 * runs first and its values take its place ({@link SubqueryFirst}). The statement must plan with the subquery
 * replaced by a list (another such subquery in it is planned the same way at execution), and the subquery on
 * its own. The first IN subquery for which both plan is taken.
 */
final class SubqueryFirstPlanner {
    private SubqueryFirstPlanner() {
    }

    static Optional<PlanNode> plan(PlanContext context, SQLSelectStatement statement) {
        if (!(statement.getSelect().getQuery() instanceof SQLSelectQueryBlock)) {
            return Optional.empty();
        }
        Tokens tokens = context.tokens();
        for (int i = 1; i + 2 < tokens.size(); i++) {
            // Not the stand-in of an empty result: each plan at execution has one subquery fewer, so planning ends.
            if (tokens.get(i).depth() == 0 && tokens.isWord(i, "IN") && tokens.isOperator(i + 1, '(') && tokens.isWord(i + 2, "SELECT")
                    && !tokens.sql().startsWith(SubqueryFirst.NO_ROWS, tokens.get(i + 1).start())) {
                Optional<PlanNode> planned = plan(context, i + 1);
                if (planned.isPresent()) {
                    return planned;
                }
            }
        }
        return Optional.empty();
    }

    /** The plan running the subquery in the parentheses at token {@code open} first, if both parts plan. */
    private static Optional<PlanNode> plan(PlanContext context, int open) {
        Tokens tokens = context.tokens();
        int close = tokens.closing(open);
        if (close < 0) {
            return Optional.empty();
        }
        String sql = tokens.sql();
        int start = tokens.get(open).start();
        int end = tokens.get(close).end();
        String before = sql.substring(0, start);
        String after = sql.substring(end);
        String inner = sql.substring(tokens.get(open + 1).start(), tokens.get(close - 1).end());
        int parametersBefore = tokens.fragment(0, start).parameters().size();
        int parametersInside = tokens.fragment(start, end).parameters().size();
        try {
            PlanNode subquery = select(context, inner);
            // The statement must plan with a list in place of the subquery, as each execution plans it.
            select(context, before + "(NULL)" + after);
            return Optional.of(new SubqueryFirst(subquery, before, after, parametersBefore, parametersInside,
                    text -> select(context, text)));
        }
        catch (ShardgateException e) {
            return Optional.empty();
        }
    }

    private static PlanNode select(PlanContext context, String sql) {
        Tokens tokens = Tokens.of(sql);
        SQLStatement parsed;
        try {
            List<SQLStatement> statements = new MySqlStatementParser(ExecutableComments.reveal(sql)).parseStatementList();
            parsed = statements.size() == 1 ? statements.get(0) : null;
        }
        catch (RuntimeException e) {
            parsed = null;
        }
        if (!(parsed instanceof SQLSelectStatement select)) {
            throw ErrorCode.UNSUPPORTED.exception("this form of IN (SELECT ...) across shards");
        }
        return new SelectPlanner(new PlanContext(context.schema(), context.resolver(), tokens, context.role())).plan(select);
    }
}
