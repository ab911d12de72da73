package io.shardgate.router.planner;

import com.alibaba.druid.sql.ast.expr.SQLAggregateExpr;
import io.shardgate.errors.ErrorCode;
import io.shardgate.router.exec.AggregateFunction;
import io.shardgate.router.planner.ScatterColumns.HelperRef;
import io.shardgate.router.planner.ScatterColumns.ItemRef;
import io.shardgate.router.planner.ScatterColumns.Key;
import io.shardgate.router.planner.ScatterColumns.SpecDraft;

/**
 * The edits of a scattered SELECT's text that its aggregates need ({@link ScatterSelect}): AVG sent as SUM
 * with a COUNT helper, and the GROUP BY of a DISTINCT aggregate's argument.
 */
final class AggregateText {
    private final Tokens tokens;
    private final SqlRewriter rewriter;
    private final SelectClauses clauses;
    private final ScatterColumns columns;

    AggregateText(Tokens tokens, SqlRewriter rewriter, SelectClauses clauses, ScatterColumns columns) {
        this.tokens = tokens;
        this.rewriter = rewriter;
        this.clauses = clauses;
        this.columns = columns;
    }

    /** The text of x in select item {@code item}, {@code COUNT(DISTINCT x)}. */
    Tokens.Fragment distinctArgument(int item) {
        SelectClauses.Span span = clauses.items.get(item);
        for (int t = 0; t < tokens.size(); t++) {
            if (tokens.get(t).start() >= span.start() && tokens.get(t).end() <= span.end() && tokens.isWord(t, "DISTINCT")) {
                int close = tokens.closing(t - 1);
                if (!tokens.isOperator(t - 1, '(') || close <= t + 1) {
                    break;
                }
                return tokens.fragment(tokens.get(t + 1).start(), tokens.get(close - 1).end());
            }
        }
        throw ErrorCode.UNSUPPORTED.exception("this form of " + Aggregates.text(columns.item(item).getExpr()) + " across shards");
    }

    /**
     * With a DISTINCT aggregate the shards group by its argument x too ({@code GROUP BY g, x}, or {@code GROUP BY x}
     * without GROUP BY) and sort by it after the group keys, so the merge sees each group's x in order.
     */
    void groupByDistinctArgument(Key value) {
        if (clauses.groupBy.isPresent()) {
            rewriter.insert(clauses.groupBy.get().span().end(), new Tokens.Fragment(", " + value.text().text(), value.text().parameters()));
        }
        else if (clauses.orderBy.isPresent()) {
            rewriter.insert(clauses.orderBy.get().span().start(), new Tokens.Fragment("GROUP BY " + value.text().text() + " ",
                    value.text().parameters()));
        }
        else {
            rewriter.insert(clauses.orderByAt, new Tokens.Fragment(" GROUP BY " + value.text().text(), value.text().parameters()));
        }
    }

    /** {@code AVG(x)} is sent as {@code SUM(x) AS `AVG(x)`} with a {@code COUNT(x)} helper column. */
    void rewriteAverage(int item, SQLAggregateExpr aggregate) {
        SelectClauses.Span span = clauses.items.get(item);
        int open = -1;
        for (int t = 0; t < tokens.size(); t++) {
            if (tokens.get(t).start() >= span.start() && tokens.get(t).end() <= span.end()
                    && tokens.isWord(t, "AVG") && tokens.isOperator(t + 1, '(')) {
                open = t + 1;
                break;
            }
        }
        int close = open < 0 ? -1 : tokens.closing(open);
        if (close < 0 || close == open + 1) {
            throw ErrorCode.UNSUPPORTED.exception("this form of AVG across shards");
        }
        Tokens.Fragment argument = tokens.fragment(tokens.get(open + 1).start(), tokens.get(close - 1).end());
        String alias = columns.item(item).getAlias() == null ? " AS " + Names.quote(tokens.sql().substring(span.start(), span.end())) : "";
        rewriter.replace(tokens.get(open - 1).start(), tokens.get(close).end(),
                new Tokens.Fragment("SUM(" + argument.text() + ")" + alias, argument.parameters()));
        HelperRef count = columns.addHelper(new Tokens.Fragment("COUNT(" + argument.text() + ")", argument.parameters()));
        columns.addItemAggregate(new SpecDraft(AggregateFunction.AVG, new ItemRef(item), count));
    }

    /** The shards group without ROLLUP ({@code WITH ROLLUP} ends the GROUP BY clause); RollupMerge adds the super-aggregate rows. */
    void removeRollup() {
        SelectClauses.Span span = clauses.groupBy.orElseThrow().span();
        for (int t = 1; t + 1 < tokens.size(); t++) {
            if (tokens.get(t).start() >= span.start() && tokens.get(t + 1).end() == span.end()
                    && tokens.isWord(t, "WITH") && tokens.isWord(t + 1, "ROLLUP")) {
                rewriter.delete(tokens.get(t - 1).end(), span.end());
                return;
            }
        }
        throw ErrorCode.UNSUPPORTED.exception("this form of GROUP BY ... WITH ROLLUP across shards");
    }
}
