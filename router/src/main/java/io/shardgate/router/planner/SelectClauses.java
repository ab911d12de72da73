package io.shardgate.router.planner;

import io.shardgate.router.classify.TokenType;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Where the clauses of one SELECT block are in the text: its select items, GROUP BY, HAVING,
 * ORDER BY and LIMIT, as character ranges, found from the tokens at the block's depth. Used to edit
 * a scatter query (append helper columns, move HAVING above the merge, send LIMIT offset+count).
 */
final class SelectClauses {

    /** A character range {@code [start, end)} of the statement. */
    record Span(int start, int end) {
    }

    /** An ORDER BY or GROUP BY item: the expression's range and whether DESC follows it. */
    record Item(Span expression, boolean descending) {
    }

    /** A clause: from its first keyword to its last token, and its items (for ORDER BY and GROUP BY). */
    record Clause(Span span, List<Item> items) {
    }

    private static final Set<String> MODIFIERS = Set.of("ALL", "DISTINCT", "DISTINCTROW", "HIGH_PRIORITY", "STRAIGHT_JOIN",
            "SQL_SMALL_RESULT", "SQL_BIG_RESULT", "SQL_BUFFER_RESULT", "SQL_CACHE", "SQL_NO_CACHE", "SQL_CALC_FOUND_ROWS");
    private static final Set<String> CLAUSES = Set.of("FROM", "INTO", "WHERE", "GROUP", "HAVING", "WINDOW", "ORDER", "LIMIT",
            "PROCEDURE", "FOR", "LOCK", "UNION", "EXCEPT", "INTERSECT");

    final List<Span> items;
    /** Where the select list ends: helper columns are inserted here. */
    final int itemsEnd;
    final Optional<Clause> groupBy;
    final boolean withRollup;
    final Optional<Clause> having;
    final Optional<Clause> orderBy;
    final Optional<Clause> limit;
    /** Where an ORDER BY goes when there is none: before LIMIT and the locking clauses. */
    final int orderByAt;

    private SelectClauses(List<Span> items, int itemsEnd, Optional<Clause> groupBy, boolean withRollup, Optional<Clause> having,
                          Optional<Clause> orderBy, Optional<Clause> limit, int orderByAt) {
        this.items = items;
        this.itemsEnd = itemsEnd;
        this.groupBy = groupBy;
        this.withRollup = withRollup;
        this.having = having;
        this.orderBy = orderBy;
        this.limit = limit;
        this.orderByAt = orderByAt;
    }

    /** The token of the statement's top-level SELECT. */
    static int topSelect(Tokens tokens) {
        for (int i = 0; i < tokens.size(); i++) {
            if (tokens.get(i).depth() == 0 && tokens.isWord(i, "SELECT")) {
                return i;
            }
        }
        throw io.shardgate.errors.ErrorCode.UNSUPPORTED.exception("a parenthesized SELECT across shards");
    }

    /** The clauses of the SELECT whose keyword is token {@code select}; empty when the text is not as expected. */
    static Optional<SelectClauses> locate(Tokens tokens, int select) {
        if (!tokens.isWord(select, "SELECT")) {
            return Optional.empty();
        }
        int depth = tokens.get(select).depth();
        int i = select + 1;
        while (i < tokens.size() && MODIFIERS.contains(upper(tokens, i))) {
            i++;
        }
        List<Span> items = new ArrayList<>();
        int itemStart = i;
        int end = i;
        for (; i < tokens.size(); i++) {
            if (atBlockEnd(tokens, i, depth) || (tokens.get(i).depth() == depth && CLAUSES.contains(upper(tokens, i)))) {
                break;
            }
            if (tokens.get(i).depth() == depth && tokens.isOperator(i, ',')) {
                items.add(span(tokens, itemStart, i));
                itemStart = i + 1;
            }
        }
        if (itemStart >= i) {
            return Optional.empty();
        }
        items.add(span(tokens, itemStart, i));
        int itemsEnd = tokens.get(i - 1).end();
        // The clauses after the select list, each from its keyword to the token before the next one.
        List<Integer> starts = new ArrayList<>();
        for (int j = i; j < tokens.size() && !atBlockEnd(tokens, j, depth); j++) {
            if (tokens.get(j).depth() == depth && CLAUSES.contains(upper(tokens, j))) {
                starts.add(j);
            }
            end = j;
        }
        Optional<Clause> groupBy = Optional.empty();
        Optional<Clause> having = Optional.empty();
        Optional<Clause> orderBy = Optional.empty();
        Optional<Clause> limit = Optional.empty();
        boolean withRollup = false;
        int orderByAt = end < tokens.size() && end >= i ? tokens.get(end).end() : itemsEnd;
        for (int k = 0; k < starts.size(); k++) {
            int first = starts.get(k);
            int last = k + 1 < starts.size() ? starts.get(k + 1) - 1 : end;
            String keyword = upper(tokens, first);
            Span span = span(tokens, first, last + 1);
            switch (keyword) {
                case "GROUP" -> {
                    withRollup = tokens.isWord(last, "ROLLUP");
                    groupBy = Optional.of(new Clause(span, items(tokens, first + 2, withRollup ? last - 1 : last + 1, depth)));
                }
                case "HAVING" -> having = Optional.of(new Clause(span, List.of()));
                case "ORDER" -> orderBy = Optional.of(new Clause(span, items(tokens, first + 2, last + 1, depth)));
                case "LIMIT" -> limit = Optional.of(new Clause(span, List.of()));
                default -> {
                }
            }
            if (keyword.equals("LIMIT") || keyword.equals("FOR") || keyword.equals("LOCK") || keyword.equals("PROCEDURE")
                    || (keyword.equals("INTO") && k > 0)) {
                orderByAt = Math.min(orderByAt, tokens.get(first - 1).end());
            }
        }
        orderByAt = Math.max(orderByAt, itemsEnd);
        return Optional.of(new SelectClauses(List.copyOf(items), itemsEnd, groupBy, withRollup, having, orderBy, limit, orderByAt));
    }

    private static boolean atBlockEnd(Tokens tokens, int i, int depth) {
        Tokens.Token t = tokens.get(i);
        return t.type() == TokenType.SEMICOLON || t.depth() < depth || (tokens.isOperator(i, ')') && t.depth() <= depth - 1);
    }

    /** ORDER BY / GROUP BY items in tokens {@code [from, to)}: expressions split at commas, ASC/DESC noted. */
    private static List<Item> items(Tokens tokens, int from, int to, int depth) {
        List<Item> items = new ArrayList<>();
        int start = from;
        for (int i = from; i <= to; i++) {
            if (i == to || (tokens.get(i).depth() == depth && tokens.isOperator(i, ','))) {
                int last = i - 1;
                boolean descending = false;
                if (tokens.isWord(last, "DESC") || tokens.isWord(last, "ASC")) {
                    descending = tokens.isWord(last, "DESC");
                    last--;
                }
                if (last >= start) {
                    items.add(new Item(span(tokens, start, last + 1), descending));
                }
                start = i + 1;
            }
        }
        return List.copyOf(items);
    }

    /** The characters of tokens {@code [from, to)}. */
    private static Span span(Tokens tokens, int from, int to) {
        return new Span(tokens.get(from).start(), tokens.get(to - 1).end());
    }

    private static String upper(Tokens tokens, int i) {
        return tokens.get(i).type() == TokenType.WORD ? tokens.text(i).toUpperCase(java.util.Locale.ROOT) : "";
    }
}
