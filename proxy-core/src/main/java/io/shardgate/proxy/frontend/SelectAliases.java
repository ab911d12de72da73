package io.shardgate.proxy.frontend;

import io.shardgate.proxy.frontend.QueryRewriter.Edit;
import io.shardgate.router.classify.SqlLexer;
import io.shardgate.router.classify.TokenType;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * A rewrite ({@link QueryRewriter}) would rename its column ({@code 2} for {@code CONNECTION_ID()}),
 * and clients read
 * columns by label: a rewritten item of a select list without an alias gets
 * {@code AS `<its original text>`}, what MariaDB would have called it (checked against MariaDB
 * 10.11: comments left out, whitespace and newlines kept; a name, given or derived, is cut at the
 * same 255 bytes, so the alias is not cut here). Every SELECT's list counts (derived tables and
 * CTEs name the outer columns; an alias elsewhere is harmless) except one after
 * UNION/EXCEPT/INTERSECT. An existing alias is {@code AS x} or a bare identifier or string after
 * the expression; the bare case is recognised by the token before it, so an unusual expression
 * ending in a non-reserved word may be taken for an aliased one and keep the rewritten name.
 */
final class SelectAliases {
    private static final Set<String> SELECT_OPTIONS = Set.of("ALL", "DISTINCT", "DISTINCTROW", "HIGH_PRIORITY",
            "STRAIGHT_JOIN", "SQL_SMALL_RESULT", "SQL_BIG_RESULT", "SQL_BUFFER_RESULT", "SQL_CACHE", "SQL_NO_CACHE",
            "SQL_CALC_FOUND_ROWS");
    /** Words that end a select list at its own depth. */
    private static final Set<String> LIST_ENDS = Set.of("FROM", "INTO", "WHERE", "GROUP", "HAVING", "ORDER", "LIMIT",
            "WINDOW", "FOR", "LOCK", "UNION", "EXCEPT", "INTERSECT", "PROCEDURE");
    /** Words after which the next word or string is an operand, not an alias. */
    private static final Set<String> OPERATOR_WORDS = Set.of("AND", "OR", "XOR", "NOT", "IS", "LIKE", "REGEXP", "RLIKE",
            "DIV", "MOD", "COLLATE", "BINARY", "INTERVAL", "BETWEEN", "IN", "CASE", "WHEN", "THEN", "ELSE", "ESCAPE",
            "SOUNDS", "OVER", "AS", "DISTINCT", "SELECT", "N", "X", "B", "DATE", "TIME", "TIMESTAMP");
    /** Words that end an expression and are never an alias. */
    private static final Set<String> NOT_ALIASES = Set.of("END", "NULL", "TRUE", "FALSE", "UNKNOWN");
    /** Interval units: not an alias in an item that has an INTERVAL (elsewhere, {@code year} may well be one). */
    private static final Set<String> UNITS = Set.of("MICROSECOND",
            "SECOND", "MINUTE", "HOUR", "DAY", "WEEK", "MONTH", "QUARTER", "YEAR", "SECOND_MICROSECOND",
            "MINUTE_MICROSECOND", "MINUTE_SECOND", "HOUR_MICROSECOND", "HOUR_SECOND", "HOUR_MINUTE", "DAY_MICROSECOND",
            "DAY_SECOND", "DAY_MINUTE", "DAY_HOUR", "YEAR_MONTH");

    private SelectAliases() {
    }

    /**
     * MariaDB names an un-aliased select item by its text as written: a rewritten item of a select
     * list whose names are returned gets that text as an explicit alias, so the column keeps the
     * name one server gives it. MariaDB leaves comments out of the name (kept: the whitespace around
     * them), and cuts a name, given or derived, at the same length, so the alias is the item's text
     * without its comments.
     */
    static void add(String sql, boolean noBackslashEscapes, List<Edit> edits) {
        List<int[]> tokens = new ArrayList<>(); // {type ordinal, start, end}
        SqlLexer lexer = new SqlLexer(sql, noBackslashEscapes);
        for (TokenType type = lexer.next(); type != TokenType.END; type = lexer.next()) {
            tokens.add(new int[] {type.ordinal(), lexer.start(), lexer.end()});
        }
        List<Edit> added = new ArrayList<>();
        for (int i = 0; i < tokens.size(); i++) {
            if (!word(sql, tokens.get(i), "SELECT") || afterSetOperator(sql, tokens, i)) {
                continue;
            }
            int at = i + 1;
            while (at < tokens.size() && isWord(tokens.get(at)) && SELECT_OPTIONS.contains(upper(sql, tokens.get(at)))) {
                at++;
            }
            int itemStart = at;
            int depth = 0;
            for (; ; at++) {
                int[] token = at < tokens.size() ? tokens.get(at) : null;
                boolean itemEnds;
                boolean listEnds = false;
                if (token == null || token[0] == TokenType.SEMICOLON.ordinal()) {
                    itemEnds = listEnds = true;
                } else if (operator(sql, token, '(')) {
                    depth++;
                    continue;
                } else if (operator(sql, token, ')')) {
                    itemEnds = listEnds = depth == 0;
                    depth--;
                } else if (depth == 0 && operator(sql, token, ',')) {
                    itemEnds = true;
                } else {
                    itemEnds = listEnds = depth == 0 && isWord(token) && LIST_ENDS.contains(upper(sql, token));
                }
                if (itemEnds) {
                    alias(sql, tokens, itemStart, at, edits, added);
                    itemStart = at + 1;
                }
                if (listEnds) {
                    break;
                }
            }
        }
        if (!added.isEmpty()) {
            edits.addAll(added);
            edits.sort(Comparator.comparingInt(Edit::start).thenComparingInt(Edit::end));
        }
    }

    /** The item of tokens {@code [from, to)}, if it holds a rewrite and has no alias, gets one. */
    private static void alias(String sql, List<int[]> tokens, int from, int to, List<Edit> edits, List<Edit> added) {
        if (from >= to) {
            return;
        }
        int start = tokens.get(from)[1];
        int end = tokens.get(to - 1)[2];
        boolean rewritten = false;
        for (Edit edit : edits) {
            rewritten |= edit.start() >= start && edit.end() <= end;
        }
        if (!rewritten || hasAlias(sql, tokens, from, to)) {
            return;
        }
        List<Integer> ranges = new ArrayList<>();
        StringBuilder replacement = new StringBuilder(" AS `");
        int open = -1;
        // The item's chars, less the comments between its tokens (the whitespace around them stays).
        boolean[] kept = new boolean[end - start];
        for (int t = from; t < to; t++) {
            int[] token = tokens.get(t);
            java.util.Arrays.fill(kept, token[1] - start, token[2] - start, true);
            int gapEnd = t + 1 < to ? tokens.get(t + 1)[1] : token[2];
            for (int c = token[2]; c < gapEnd; ) {
                if (sql.startsWith("/*!", c)) { // an executable comment's opening: its content is code
                    c += 3;
                    while (c < gapEnd && Character.isDigit(sql.charAt(c))) {
                        c++;
                    }
                } else if (sql.startsWith("/*", c)) {
                    int close = sql.indexOf("*/", c + 2);
                    c = close < 0 || close + 2 > gapEnd ? gapEnd : close + 2;
                } else if (sql.charAt(c) == '#' || sql.startsWith("--", c)) {
                    while (c < gapEnd && sql.charAt(c) != '\n') {
                        c++;
                    }
                } else {
                    kept[c - start] = Character.isWhitespace(sql.charAt(c));
                    c++;
                }
            }
        }
        for (int c = start; c < end; c++) {
            if (kept[c - start] && open < 0) {
                open = c;
            } else if (!kept[c - start] && open >= 0) {
                ranges.add(open);
                ranges.add(c);
                open = -1;
            }
        }
        if (open >= 0) {
            ranges.add(open);
            ranges.add(end);
        }
        int[] alias = new int[ranges.size()];
        for (int r = 0; r < alias.length; r += 2) {
            alias[r] = ranges.get(r);
            alias[r + 1] = ranges.get(r + 1);
            replacement.append(sql.substring(alias[r], alias[r + 1]).replace("`", "``"));
        }
        added.add(new Edit(end, end, replacement.append('`').toString(), alias));
    }

    /** Whether the item of tokens {@code [from, to)} ends with {@code AS name} or a bare alias. */
    private static boolean hasAlias(String sql, List<int[]> tokens, int from, int to) {
        if (to - from < 2) {
            return false;
        }
        int[] last = tokens.get(to - 1);
        int[] before = tokens.get(to - 2);
        TokenType lastType = TokenType.values()[last[0]];
        TokenType beforeType = TokenType.values()[before[0]];
        if (word(sql, before, "AS")) {
            return true;
        }
        if (lastType != TokenType.WORD && lastType != TokenType.QUOTED_IDENTIFIER && lastType != TokenType.STRING) {
            return false;
        }
        if (lastType == TokenType.WORD && NOT_ALIASES.contains(upper(sql, last))) {
            return false;
        }
        if (lastType == TokenType.WORD && UNITS.contains(upper(sql, last))) {
            for (int t = from; t < to; t++) {
                if (word(sql, tokens.get(t), "INTERVAL")) {
                    return false;
                }
            }
        }
        return switch (beforeType) {
            case NUMBER, VARIABLE, QUOTED_IDENTIFIER -> true;
            case STRING -> lastType != TokenType.STRING; // 'a' 'b' is one string
            case WORD -> !OPERATOR_WORDS.contains(upper(sql, before)) && sql.charAt(before[1]) != '_'; // not _latin1'x'
            case OPERATOR -> operator(sql, before, ')');
            default -> false;
        };
    }

    /** Whether the SELECT at token {@code i} follows UNION/EXCEPT/INTERSECT: its names are not the result's. */
    private static boolean afterSetOperator(String sql, List<int[]> tokens, int i) {
        int at = i - 1;
        while (at >= 0 && (operator(sql, tokens.get(at), '(') || word(sql, tokens.get(at), "ALL") || word(sql, tokens.get(at), "DISTINCT"))) {
            at--;
        }
        return at >= 0 && (word(sql, tokens.get(at), "UNION") || word(sql, tokens.get(at), "EXCEPT")
                || word(sql, tokens.get(at), "INTERSECT"));
    }

    private static boolean isWord(int[] token) {
        return token[0] == TokenType.WORD.ordinal();
    }

    private static boolean word(String sql, int[] token, String upperCase) {
        return isWord(token) && token[2] - token[1] == upperCase.length() && sql.regionMatches(true, token[1], upperCase, 0, upperCase.length());
    }

    private static boolean operator(String sql, int[] token, char c) {
        return token[0] == TokenType.OPERATOR.ordinal() && token[2] - token[1] == 1 && sql.charAt(token[1]) == c;
    }

    private static String upper(String sql, int[] token) {
        return sql.substring(token[1], token[2]).toUpperCase(Locale.ROOT);
    }
}
