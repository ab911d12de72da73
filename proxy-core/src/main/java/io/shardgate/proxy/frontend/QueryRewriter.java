package io.shardgate.proxy.frontend;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.shardgate.proxy.protocol.ClientCharset;
import io.shardgate.proxy.protocol.MySqlPacket;
import io.shardgate.router.classify.SqlLexer;
import io.shardgate.router.classify.TokenType;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Rewrites that keep the proxy transparent. {@code CONNECTION_ID()} answers Shardgate's own
 * connection id, the one the handshake announced and KILL takes; the backend's id would name
 * another client's session, or nothing. And MySQL Connector/J 8+ reads
 * {@code @@transaction_isolation} and {@code @@transaction_read_only}, which MariaDB 10.11 does
 * not know (ERR 1193); MariaDB's names are {@code tx_isolation} and {@code tx_read_only}.
 *
 * <p>Only what {@link SqlLexer} proves is code is rewritten: the word {@code CONNECTION_ID}
 * (not qualified) followed by {@code (} and {@code )}, and a {@code @@} system variable token. A
 * string, a quoted identifier or a comment that spells the same is left alone. A statement that
 * needs no rewrite keeps its packet; one that does is spliced: every byte outside the rewritten
 * tokens is the client's own.
 *
 * <p>A rewrite would rename its column ({@code 2} for {@code CONNECTION_ID()}), and clients read
 * columns by label: a rewritten item of a select list without an alias gets
 * {@code AS `<its original text>`}, what MariaDB would have called it (checked against MariaDB
 * 10.11: comments left out, whitespace and newlines kept; a name, given or derived, is cut at the
 * same 255 bytes, so the alias is not cut here). Every SELECT's list counts (derived tables and
 * CTEs name the outer columns; an alias elsewhere is harmless) except one after
 * UNION/EXCEPT/INTERSECT. An existing alias is {@code AS x} or a bare identifier or string after
 * the expression; the bare case is recognised by the token before it, so an unusual expression
 * ending in a non-reserved word may be taken for an aliased one and keep the rewritten name.
 */
final class QueryRewriter {
    private static final String TRANSACTION_PREFIX = "TRANSACTION_";

    /**
     * One rewrite: the chars {@code [start, end)} of the statement become {@code replacement}. A
     * rewrite is ASCII ({@code alias} null); an alias is inserted ({@code start == end}) and spells
     * {@code AS `...`} around the statement's own chars {@code alias} (pairs of [from, to) ranges),
     * whose bytes the packet splice copies from the client's packet, backticks doubled.
     */
    record Edit(int start, int end, String replacement, int[] alias) {
        Edit(int start, int end, String replacement) {
            this(start, end, replacement, null);
        }
    }

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

    private QueryRewriter() {
    }

    /** The rewrites {@code sql} needs, in order; empty (and cheap) for nearly every statement. */
    static List<Edit> edits(String sql, long connectionId, boolean noBackslashEscapes) {
        boolean variables = sql.indexOf("@@") >= 0 && SqlText.containsIgnoreCase(sql, "transaction_");
        boolean connectionIds = SqlText.containsIgnoreCase(sql, "connection_id");
        if (!variables && !connectionIds) {
            return List.of();
        }
        List<Edit> edits = new ArrayList<>(2);
        SqlLexer lexer = new SqlLexer(sql, noBackslashEscapes);
        boolean afterDot = false;
        TokenType type = lexer.next();
        while (type != TokenType.END) {
            if (type == TokenType.VARIABLE && variables) {
                variable(sql, lexer.start(), lexer.end(), edits);
            } else if (type == TokenType.WORD && connectionIds && !afterDot && lexer.isWord("CONNECTION_ID")) {
                int start = lexer.start();
                afterDot = false;
                type = lexer.next();
                if (!lexer.isOperator('(')) {
                    continue; // look at this token again
                }
                type = lexer.next();
                if (!lexer.isOperator(')')) {
                    continue;
                }
                edits.add(new Edit(start, lexer.end(), Long.toString(connectionId)));
            }
            afterDot = lexer.isOperator('.');
            type = lexer.next();
        }
        if (!edits.isEmpty()) {
            aliases(sql, noBackslashEscapes, edits);
        }
        return edits;
    }

    /**
     * MariaDB names an un-aliased select item by its text as written: a rewritten item of a select
     * list whose names are returned gets that text as an explicit alias, so the column keeps the
     * name one server gives it. MariaDB leaves comments out of the name (kept: the whitespace around
     * them), and cuts a name, given or derived, at the same length, so the alias is the item's text
     * without its comments.
     */
    private static void aliases(String sql, boolean noBackslashEscapes, List<Edit> edits) {
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

    /** {@code @@[session.|global.|local.]transaction_isolation | transaction_read_only}: its {@code transaction_} becomes {@code tx_}. */
    private static void variable(String sql, int start, int end, List<Edit> edits) {
        if (end - start < 2 || sql.charAt(start + 1) != '@') {
            return; // a user variable
        }
        int name = start + 2;
        int dot = sql.indexOf('.', name);
        if (dot >= 0 && dot < end) {
            String scope = sql.substring(name, dot);
            if (!(scope.equalsIgnoreCase("session") || scope.equalsIgnoreCase("global") || scope.equalsIgnoreCase("local"))) {
                return;
            }
            name = dot + 1;
        }
        String variable = sql.substring(name, end);
        if (variable.equalsIgnoreCase("transaction_isolation") || variable.equalsIgnoreCase("transaction_read_only")) {
            edits.add(new Edit(name, name + TRANSACTION_PREFIX.length(), "tx_"));
        }
    }

    /** {@code sql} with {@code edits} applied (for statements that are planned, not forwarded). */
    static String apply(String sql, List<Edit> edits) {
        if (edits.isEmpty()) {
            return sql;
        }
        StringBuilder out = new StringBuilder(sql.length());
        int at = 0;
        for (Edit edit : edits) {
            out.append(sql, at, edit.start()).append(edit.replacement());
            at = edit.end();
        }
        return out.append(sql, at, sql.length()).toString();
    }

    /** {@code sql} with its rewrites applied ({@code sql} itself when nothing changes). */
    static String rewrite(String sql, long connectionId, boolean noBackslashEscapes) {
        return apply(sql, edits(sql, connectionId, noBackslashEscapes));
    }

    /**
     * The COM_QUERY {@code packet} whose statement {@code sql} was read from in {@code charset}, with
     * its rewrites: {@code packet} itself when there are none, else a new packet (the old one is
     * released) of the original bytes with only the rewritten tokens replaced. Throws
     * {@link ClientCharset.UnmappableTextException} (the packet untouched) when a rewrite is needed in
     * a statement that is not valid text in {@code charset}, where char and byte positions cannot be
     * matched up.
     */
    static MySqlPacket rewrite(MySqlPacket packet, String sql, ClientCharset charset, long connectionId,
                               boolean noBackslashEscapes) {
        List<Edit> edits = edits(sql, connectionId, noBackslashEscapes);
        if (edits.isEmpty()) {
            return packet;
        }
        ByteBuf payload = packet.payload();
        int base = payload.readerIndex() + 1; // after the command byte
        if (!charset.lossless()) {
            byte[] original = new byte[payload.writerIndex() - base];
            payload.getBytes(base, original);
            if (!charset.exact(original, sql)) {
                throw ClientCharset.UnmappableTextException.invalid(charset);
            }
        }
        ByteBuf spliced = Unpooled.buffer(payload.readableBytes() + 16 * edits.size());
        spliced.writeBytes(payload, payload.readerIndex(), 1);
        int charAt = 0;
        int byteAt = base;
        for (Edit edit : edits) {
            int kept = charset.encode(sql, charAt, edit.start()).length;
            spliced.writeBytes(payload, byteAt, kept);
            byteAt += kept + charset.encode(sql, edit.start(), edit.end()).length;
            if (edit.alias() == null) {
                spliced.writeBytes(edit.replacement().getBytes(StandardCharsets.US_ASCII));
            } else {
                writeAlias(spliced, payload, byteAt, sql, charset, edit);
            }
            charAt = edit.end();
        }
        spliced.writeBytes(payload, byteAt, payload.writerIndex() - byteAt);
        int sequence = packet.sequenceId();
        packet.release();
        return new MySqlPacket(sequence, spliced);
    }

    /**
     * Writes {@code AS `...`} for the alias {@code edit} (inserted at the char whose byte in
     * {@code payload} is {@code byteAt}): the item's own bytes, its backticks doubled.
     */
    private static void writeAlias(ByteBuf out, ByteBuf payload, int byteAt, String sql, ClientCharset charset, Edit edit) {
        out.writeBytes(" AS `".getBytes(StandardCharsets.US_ASCII));
        int[] alias = edit.alias();
        int at = byteAt - charset.encode(sql, alias[0], edit.start()).length; // the byte of char alias[0]
        int charAt = alias[0];
        for (int r = 0; r < alias.length; r += 2) {
            at += charset.encode(sql, charAt, alias[r]).length; // skip a comment
            charAt = alias[r];
            while (charAt < alias[r + 1]) {
                int tick = sql.indexOf('`', charAt);
                int stop = tick < 0 || tick >= alias[r + 1] ? alias[r + 1] : tick;
                int length = charset.encode(sql, charAt, stop).length;
                out.writeBytes(payload, at, length);
                at += length;
                charAt = stop;
                if (stop == tick) {
                    out.writeBytes("``".getBytes(StandardCharsets.US_ASCII));
                    at += charset.encode(sql, tick, tick + 1).length;
                    charAt = tick + 1;
                }
            }
        }
        out.writeByte('`');
    }
}
