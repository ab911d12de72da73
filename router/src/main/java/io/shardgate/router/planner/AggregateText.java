package io.shardgate.router.planner;

import com.alibaba.druid.sql.ast.expr.SQLAggregateExpr;
import io.shardgate.errors.ErrorCode;
import io.shardgate.router.plan.ValueSource;
import io.shardgate.router.exec.AggregateFunction;
import io.shardgate.router.planner.ScatterColumns.HelperRef;
import io.shardgate.router.planner.ScatterColumns.ItemRef;
import io.shardgate.router.planner.ScatterColumns.Key;
import io.shardgate.router.planner.ScatterColumns.SpecDraft;

import java.util.ArrayList;
import java.util.List;

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
                int close = tokens.isOperator(t - 1, '(') ? tokens.closing(t - 1) : -1;
                if (close <= t + 1) {
                    break;
                }
                return tokens.fragment(tokens.get(t + 1).start(), tokens.get(close - 1).end());
            }
        }
        throw ErrorCode.UNSUPPORTED.exception("this form of " + Aggregates.text(columns.item(item).getExpr()) + " across shards");
    }

    /**
     * With a DISTINCT aggregate or a GROUP_CONCAT the shards group by its inner keys too ({@code GROUP BY g, x}, or
     * {@code GROUP BY x} without GROUP BY) and sort by them after the group keys, so the merge sees each group's
     * values in order.
     */
    void groupByInner(List<Key> keys) {
        StringBuilder text = new StringBuilder();
        List<ValueSource> parameters = new ArrayList<>();
        for (Key key : keys) {
            text.append(text.length() == 0 ? "" : ", ").append(key.text().text());
            parameters.addAll(key.text().parameters());
        }
        if (clauses.groupBy.isPresent()) {
            rewriter.insert(clauses.groupBy.get().span().end(), new Tokens.Fragment(", " + text, parameters));
        }
        else if (clauses.orderBy.isPresent()) {
            rewriter.insert(clauses.orderBy.get().span().start(), new Tokens.Fragment("GROUP BY " + text + " ", parameters));
        }
        else {
            rewriter.insert(clauses.orderByAt, new Tokens.Fragment(" GROUP BY " + text, parameters));
        }
    }

    /**
     * {@code GROUP_CONCAT([DISTINCT] args [ORDER BY keys] [SEPARATOR s])} in select item {@code item}: the shards group
     * by its ORDER BY keys and arguments too and send them, and {@code @@group_concat_max_len}, as helper columns;
     * each shard's value then covers one (group, keys, arguments) subgroup, and the merge joins them in order.
     */
    void concat(int item, SQLAggregateExpr aggregate) {
        if (aggregate.getLimit() != null) {
            throw ErrorCode.UNSUPPORTED.exception("GROUP_CONCAT ... LIMIT across shards");
        }
        SelectClauses.Span span = clauses.items.get(item);
        int open = -1;
        for (int t = 0; t + 1 < tokens.size() && open < 0; t++) {
            if (tokens.get(t).start() >= span.start() && tokens.get(t).end() <= span.end() && tokens.isWord(t, "GROUP_CONCAT")
                    && tokens.isOperator(t + 1, '(')) {
                open = t + 1;
            }
        }
        int close = open < 0 ? -1 : tokens.closing(open);
        if (close < 0) {
            throw ErrorCode.UNSUPPORTED.exception("this form of GROUP_CONCAT across shards");
        }
        int depth = tokens.get(open).depth() + 1;
        int at = open + 1 + (aggregate.isDistinct() ? 1 : 0);
        int end = at;
        while (end < close && !(tokens.get(end).depth() == depth && (tokens.isWord(end, "ORDER") || tokens.isWord(end, "SEPARATOR")))) {
            end++;
        }
        List<Tokens.Fragment> arguments = parts(at, end, depth);
        List<Key> keys = new ArrayList<>();
        if (tokens.isWord(end, "ORDER")) {
            int from = end + 2;
            end = from;
            while (end < close && !(tokens.get(end).depth() == depth && tokens.isWord(end, "SEPARATOR"))) {
                end++;
            }
            for (Tokens.Fragment part : parts(from, end, depth)) {
                String upper = part.text().toUpperCase(java.util.Locale.ROOT);
                boolean descending = upper.endsWith(" DESC");
                String expression = descending || upper.endsWith(" ASC") ? part.text().substring(0, part.text().lastIndexOf(' ')).strip()
                        : part.text();
                if (expression.chars().allMatch(Character::isDigit)) {
                    throw ErrorCode.UNSUPPORTED.exception("GROUP_CONCAT ... ORDER BY a position across shards");
                }
                Tokens.Fragment text = new Tokens.Fragment(expression, part.parameters());
                keys.add(new Key(columns.addHelper(text), descending, text));
            }
        }
        List<ScatterColumns.Ref> argumentRefs = new ArrayList<>();
        for (Tokens.Fragment argument : arguments) {
            HelperRef ref = columns.addHelper(argument);
            argumentRefs.add(ref);
            // A number would be a position in GROUP BY; it is a constant here, the same for every row.
            if (keys.stream().noneMatch(k -> k.ref().equals(ref)) && !argument.text().chars().allMatch(Character::isDigit)) {
                keys.add(new Key(ref, false, argument));
            }
        }
        if (aggregate.isDistinct() && keys.stream().anyMatch(k -> !argumentRefs.contains(k.ref()))) {
            throw ErrorCode.UNSUPPORTED.exception("GROUP_CONCAT(DISTINCT ...) ordered by an expression outside its arguments across shards");
        }
        Object separator = aggregate.getAttribute("SEPARATOR");
        String separatorText = separator == null ? "," : Literals.of((com.alibaba.druid.sql.ast.SQLExpr) separator)
                .filter(v -> v instanceof ValueSource.Literal l && l.value().type() == io.shardgate.router.value.SqlValue.Type.TEXT)
                .map(v -> ((ValueSource.Literal) v).value().text())
                .orElseThrow(() -> ErrorCode.UNSUPPORTED.exception("a GROUP_CONCAT SEPARATOR other than a string across shards"));
        HelperRef maxLength = columns.addHelper(Tokens.Fragment.of("@@group_concat_max_len"));
        columns.setInnerKeys(keys, "GROUP_CONCAT");
        columns.addItemAggregate(new SpecDraft(AggregateFunction.GROUP_CONCAT, new ItemRef(item), null, null,
                new ScatterColumns.ConcatDraft(argumentRefs, maxLength, separatorText, aggregate.isDistinct())));
    }

    /** The comma-separated parts of tokens {@code [from, to)} at {@code depth}, as text. */
    private List<Tokens.Fragment> parts(int from, int to, int depth) {
        List<Tokens.Fragment> parts = new ArrayList<>();
        int start = from;
        for (int i = from; i <= to; i++) {
            if (i == to || (tokens.get(i).depth() == depth && tokens.isOperator(i, ','))) {
                if (i > start) {
                    parts.add(tokens.fragment(tokens.get(start).start(), tokens.get(i - 1).end()));
                }
                start = i + 1;
            }
        }
        if (parts.isEmpty()) {
            throw ErrorCode.UNSUPPORTED.exception("this form of GROUP_CONCAT across shards");
        }
        return parts;
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
