package io.shardgate.router.classify;

import static java.util.Objects.requireNonNull;

/**
 * A statement's digest: its normalized text and a 64-bit hash of it, from {@link SqlLexer}'s
 * tokens in one pass, without regexes. Statements that differ only in their values share a digest:
 * <ul>
 *   <li>literals (numbers, hex {@code 0x..}, strings, {@code X'..'}, {@code B'..'}, {@code N'..'},
 *       {@code _charset'..'}, a signed number) and prepared statements' {@code ?} become {@code ?};
 *       a temporal literal becomes {@code DATE ?};</li>
 *   <li>a parenthesized list of nothing but literals becomes {@code (...)}, whatever its length
 *       ({@code IN (1, 2, 3)} = {@code IN (4)}), and repeated rows collapse into one
 *       ({@code VALUES (1, 'a'), (2, 'b')} = {@code VALUES (3, 'c')} = {@code VALUES (...)}; rows that
 *       are not all literals collapse when they normalize alike);</li>
 *   <li>comments vanish, whitespace is one space where a reader needs one, keywords
 *       ({@link DigestKeywords}) are upper case; identifiers keep their case and quotes; a trailing
 *       {@code ;} goes.</li>
 * </ul>
 * The hash depends only on the normalized text (each parenthesized group is hashed on its own and
 * folded into the outer hash, so that a collapse or a dropped row costs no second pass). Distinct
 * texts may share a hash with probability about n²/2⁶⁵ for n digests; they then count as one.
 *
 * <p>{@link #hash} computes the hash only and allocates nothing but the lexer; {@link #of} also
 * builds the text (bounded: a longer text is cut and ends in {@code ...}). An instance is reused by
 * one thread, statement after statement; {@link #accept} lets a caller that already lexes the
 * statement feed its tokens instead.
 */
public final class StatementDigest {
    /** The default bound of a digest's text, in characters. */
    public static final int MAX_TEXT = 1024;

    /**
     * How much of a statement's text the digest reads, in characters: statements alike in their first
     * 16 KiB share a digest (as with MySQL's {@code max_digest_length} and ProxySQL's
     * {@code query_digests_max_query_length}); a bulk load's 200 KB INSERT is not lexed a second time
     * whole just to be counted.
     */
    public static final int MAX_SCANNED = 16 * 1024;

    /** A digest: its hash and its normalized text. */
    public record Digest(long hash, String text) {
        public Digest {
            requireNonNull(text, "text is null");
        }
    }

    private static final long FNV_OFFSET = 0xcbf29ce484222325L;
    private static final long FNV_PRIME = 0x100000001b3L;
    private static final int MAX_DEPTH = 32;
    private static final long COLLAPSED = fnv(FNV_OFFSET, "(...)");

    private enum Kind { NONE, KEYWORD, VALUE_WORD, IDENTIFIER, LITERAL, OPEN, CLOSE, COMMA, DOT, OPERATOR, SEMICOLON }

    private enum Pending { NONE, SIGN, INTRODUCER, SEMICOLON }

    private long hash;
    private int length;
    private StringBuilder text;
    private int maxText;
    private Kind last;
    private int lastEnd;
    private Pending pending;
    private int pendingStart;
    private int pendingEnd;
    private boolean inValues;
    private int depth;
    private int overflowDepth;
    // Per open group (index = depth - 1): the outer state it folds into, and whether it holds only literals.
    private final long[] outerHash = new long[MAX_DEPTH];
    private final int[] outerLength = new int[MAX_DEPTH];
    private final int[] groupTextStart = new int[MAX_DEPTH];
    private final boolean[] literalsOnly = new boolean[MAX_DEPTH];
    private final int[] items = new int[MAX_DEPTH];
    private final boolean[] afterSibling = new boolean[MAX_DEPTH];
    // Per level (index = depth): the last group closed there, and the state before a comma that followed it.
    private final long[] siblingHash = new long[MAX_DEPTH + 1];
    private final boolean[] commaAfterGroup = new boolean[MAX_DEPTH + 1];
    private final long[] beforeCommaHash = new long[MAX_DEPTH + 1];
    private final int[] beforeCommaLength = new int[MAX_DEPTH + 1];
    private final int[] beforeCommaText = new int[MAX_DEPTH + 1];

    /** The digest of {@code sql}, with its text bounded to {@code maxText} characters. */
    public static Digest of(CharSequence sql, boolean noBackslashEscapes, int maxText) {
        StatementDigest digest = new StatementDigest();
        StringBuilder text = new StringBuilder(Math.min(maxText, sql.length() + 16));
        long hash = digest.run(sql, noBackslashEscapes, text, maxText);
        return new Digest(hash, text.toString());
    }

    /** The hash of {@code sql}'s digest, building no text; equal to {@link #of}'s hash. */
    public long hash(CharSequence sql, boolean noBackslashEscapes) {
        return run(sql, noBackslashEscapes, null, 0);
    }

    private long run(CharSequence sql, boolean noBackslashEscapes, StringBuilder out, int bound) {
        begin(out, bound);
        SqlLexer lexer = new SqlLexer(sql, noBackslashEscapes);
        for (TokenType type = lexer.next(); type != TokenType.END && lexer.start() < MAX_SCANNED; type = lexer.next()) {
            accept(sql, type, lexer.start(), lexer.end());
        }
        return finish();
    }

    /** Starts a statement; {@code out} (null: hash only) receives at most {@code bound} characters of its text. */
    public void begin(StringBuilder out, int bound) {
        hash = FNV_OFFSET;
        length = 0;
        text = out;
        maxText = Math.max(bound, 8);
        last = Kind.NONE;
        lastEnd = -1;
        pending = Pending.NONE;
        inValues = false;
        depth = 0;
        overflowDepth = 0;
        commaAfterGroup[0] = false;
        siblingHash[0] = 0;
    }

    /** The next token of the statement: {@code sql[start, end)} of {@code type} (never {@link TokenType#END}). */
    public void accept(CharSequence sql, TokenType type, int start, int end) {
        Pending held = pending;
        pending = Pending.NONE;
        if (held == Pending.SIGN && type == TokenType.NUMBER
                || held == Pending.INTRODUCER && type == TokenType.STRING && (start == pendingEnd || sql.charAt(pendingStart) == '_')) {
            // A signed number, or a prefixed string: the sign or prefix emitted is taken back, one literal stands for both.
            restoreMark();
            emitChars(Kind.LITERAL, "?");
        } else {
            if (held == Pending.SEMICOLON) {
                emitChars(Kind.SEMICOLON, ";");
            }
            switch (type) {
                case NUMBER, STRING -> emitChars(Kind.LITERAL, "?");
                case WORD -> word(sql, start, end);
                case QUOTED_IDENTIFIER, VARIABLE -> emit(Kind.IDENTIFIER, sql, start, end, false, true);
                case SEMICOLON -> hold(Pending.SEMICOLON, start, end);
                case OPERATOR -> operator(sql, start, end);
                default -> {
                }
            }
        }
        lastEnd = end;
    }

    /** Ends the statement and returns its hash; the text, when asked for, is complete. */
    public long finish() {
        pending = Pending.NONE; // a trailing semicolon is dropped
        while (depth > 0) {
            closeGroup(false);
        }
        if (text != null && length > text.length()) {
            text.setLength(Math.min(text.length(), maxText - 3));
            text.append("...");
        }
        return hash == 0 ? 1 : hash;
    }

    private void hold(Pending kind, int start, int end) {
        pending = kind;
        pendingStart = start;
        pendingEnd = end;
    }

    private void word(CharSequence sql, int start, int end) {
        char first = sql.charAt(start);
        if (first == '_' || end - start == 1 && "xXbBnN".indexOf(first) >= 0) {
            // Maybe a charset introducer or a hex, bit or national string's prefix: emitted now, taken back if a string follows.
            mark();
            hold(Pending.INTRODUCER, start, end);
        }
        boolean keyword = last != Kind.DOT && DigestKeywords.contains(sql, start, end);
        Kind kind = !keyword ? Kind.IDENTIFIER : DigestKeywords.isValueWord(sql, start, end) ? Kind.VALUE_WORD : Kind.KEYWORD;
        if (depth == 0 && overflowDepth == 0) {
            inValues = kind == Kind.KEYWORD && (DigestKeywords.equalsIgnoreCase("VALUES", sql, start, end)
                    || DigestKeywords.equalsIgnoreCase("VALUE", sql, start, end));
        }
        emit(kind, sql, start, end, keyword, true);
    }

    private void operator(CharSequence sql, int start, int end) {
        if (end - start == 1) {
            char c = sql.charAt(start);
            switch (c) {
                case '?' -> {
                    emitChars(Kind.LITERAL, "?");
                    return;
                }
                case '(' -> {
                    openGroup();
                    return;
                }
                case ')' -> {
                    if (overflowDepth == 0 && depth > 0) {
                        closeGroup(true);
                    } else {
                        overflowDepth = Math.max(0, overflowDepth - 1);
                        emitChars(Kind.CLOSE, ")");
                    }
                    return;
                }
                case ',' -> {
                    comma();
                    return;
                }
                case '.' -> {
                    emitChars(Kind.DOT, ".");
                    return;
                }
                case '-', '+' -> {
                    if (last == Kind.NONE || last == Kind.OPERATOR || last == Kind.OPEN || last == Kind.COMMA
                            || last == Kind.KEYWORD) {
                        // Maybe a signed number: emitted now, taken back if a number follows.
                        mark();
                        hold(Pending.SIGN, start, end);
                    }
                }
                default -> {
                }
            }
        }
        // Adjacent operator characters stay together: >=, <=>, !=, ||.
        boolean joined = last == Kind.OPERATOR && start == lastEnd;
        emit(Kind.OPERATOR, sql, start, end, false, !joined);
    }

    private void comma() {
        boolean afterGroup = last == Kind.CLOSE;
        if (afterGroup) {
            beforeCommaHash[depth] = hash;
            beforeCommaLength[depth] = length;
            beforeCommaText[depth] = text == null ? 0 : text.length();
        }
        emitChars(Kind.COMMA, ",");
        commaAfterGroup[depth] = afterGroup;
    }

    private void openGroup() {
        if (depth == MAX_DEPTH || overflowDepth > 0) {
            noteItem(false);
            overflowDepth++;
            emitChars(Kind.OPEN, "(");
            return;
        }
        // The group counts as an item of the one around it when it closes: a collapsed group is a literal.
        space(Kind.OPEN);
        afterSibling[depth] = last == Kind.COMMA && commaAfterGroup[depth];
        outerHash[depth] = hash;
        outerLength[depth] = length;
        groupTextStart[depth] = text == null ? 0 : text.length();
        literalsOnly[depth] = true;
        items[depth] = 0;
        depth++;
        commaAfterGroup[depth] = false;
        siblingHash[depth] = 0;
        hash = FNV_OFFSET;
        put('(');
        last = Kind.OPEN;
    }

    /** Closes the innermost group; {@code closed}: by its {@code )} (false: the statement ended first). */
    private void closeGroup(boolean closed) {
        int level = depth - 1;
        boolean collapse = closed && literalsOnly[level] && items[level] > 0;
        long group;
        if (collapse) {
            length = outerLength[level];
            if (text != null) {
                text.setLength(groupTextStart[level]);
            }
            append("(...)");
            group = COLLAPSED;
        } else {
            if (closed) {
                put(')');
            }
            group = hash;
        }
        depth = level;
        if (closed && afterSibling[level] && siblingHash[depth] == group && (collapse || depth == 0 && inValues)) {
            // The same row or list again, right after a comma: the digest keeps one.
            hash = beforeCommaHash[depth];
            length = beforeCommaLength[depth];
            if (text != null) {
                text.setLength(beforeCommaText[depth]);
            }
        } else {
            hash = fold(outerHash[level], group);
            siblingHash[depth] = group;
        }
        last = Kind.CLOSE;
        commaAfterGroup[depth] = false;
        noteItem(collapse);
    }

    private void emit(Kind kind, CharSequence sql, int start, int end, boolean upperCase, boolean spaced) {
        noteItem(kind == Kind.VALUE_WORD);
        if (spaced) {
            space(kind);
        }
        for (int i = start; i < end; i++) {
            char c = sql.charAt(i);
            put(upperCase ? DigestKeywords.upper(c) : c);
        }
        last = kind;
        commaAfterGroup[depth] = false;
    }

    private void emitChars(Kind kind, String chars) {
        if (kind != Kind.COMMA) {
            noteItem(kind == Kind.LITERAL);
        }
        space(kind);
        append(chars);
        last = kind;
        commaAfterGroup[depth] = false;
    }

    // The state before a sign or prefix that may be taken back.
    private long markHash;
    private int markLength;
    private int markText;
    private Kind markLast;
    private int markItems;
    private boolean markLiteralsOnly;
    private boolean markCommaAfterGroup;

    private void mark() {
        markHash = hash;
        markLength = length;
        markText = text == null ? 0 : text.length();
        markLast = last;
        markCommaAfterGroup = commaAfterGroup[depth];
        if (depth > 0) {
            markItems = items[depth - 1];
            markLiteralsOnly = literalsOnly[depth - 1];
        }
    }

    private void restoreMark() {
        hash = markHash;
        length = markLength;
        if (text != null) {
            text.setLength(markText);
        }
        last = markLast;
        commaAfterGroup[depth] = markCommaAfterGroup;
        if (depth > 0) {
            items[depth - 1] = markItems;
            literalsOnly[depth - 1] = markLiteralsOnly;
        }
    }

    /** Records one item of the innermost group: a literal one, or anything else (which stops its collapse). */
    private void noteItem(boolean isLiteral) {
        if (depth == 0 || overflowDepth > 0) {
            return;
        }
        items[depth - 1]++;
        if (!isLiteral) {
            literalsOnly[depth - 1] = false;
        }
    }

    private void space(Kind kind) {
        if (last == Kind.NONE || last == Kind.OPEN || last == Kind.DOT
                || kind == Kind.COMMA || kind == Kind.CLOSE || kind == Kind.DOT || kind == Kind.SEMICOLON) {
            return;
        }
        put(' ');
    }

    private void append(String chars) {
        for (int i = 0; i < chars.length(); i++) {
            put(chars.charAt(i));
        }
    }

    private void put(char c) {
        hash = (hash ^ c) * FNV_PRIME;
        length++;
        if (text != null && text.length() < maxText) {
            text.append(c);
        }
    }

    private static long fold(long outer, long group) {
        long h = (outer ^ 0x28) * FNV_PRIME;
        h = (h ^ group) * FNV_PRIME;
        return h ^ (h >>> 29);
    }

    private static long fnv(long hash, String chars) {
        for (int i = 0; i < chars.length(); i++) {
            hash = (hash ^ chars.charAt(i)) * FNV_PRIME;
        }
        return hash;
    }
}
