package io.shardgate.router.classify;

import java.util.OptionalLong;

import static java.util.Objects.requireNonNull;

/**
 * A hand-written MySQL lexer for classification: a cursor over the text that allocates nothing
 * per token. Call {@link #next()} until it returns {@link TokenType#END}; the current token is
 * {@code [start(), end())} of the input.
 *
 * <ul>
 *   <li>Whitespace and comments ({@code -- }, {@code #}, {@code /* *}{@code /}) are skipped.</li>
 *   <li>The content of executable comments {@code /*! ... *}{@code /} and {@code /*!50000 ... *}{@code /}
 *       is lexed as SQL, whatever the version number (the backend is assumed recent).</li>
 *   <li>{@code /*+ shardgate primary *}{@code /} and {@code /*+ shardgate max_lag_ms=N *}{@code /} are
 *       collected into {@link #hints()}; other optimizer hints are comments.</li>
 *   <li>Strings accept backslash escapes and doubled quotes; with {@code noBackslashEscapes} (the
 *       session's sql_mode has NO_BACKSLASH_ESCAPES) a backslash is an ordinary character. Without
 *       it, a string ending in a backslash swallows more text, which only makes the statement look
 *       less like what it is, never throws.</li>
 * </ul>
 *
 * It never throws: unterminated strings, identifiers and comments run to the end of the input.
 * One instance lexes one input on one thread.
 */
public final class SqlLexer {

    private static final String HINT_PREFIX = "shardgate";

    private final CharSequence sql;
    /** Skips the quoted strings of a String input (nearly always) with indexOf; null for another CharSequence. */
    private final QuotedStrings strings;
    private final int length;
    private int position;
    private int start;
    private int end;
    private TokenType type = TokenType.END;
    private boolean inExecutableComment;
    private boolean forcePrimary;
    private long maxLagMs = -1;
    private final boolean noBackslashEscapes;

    public SqlLexer(CharSequence sql) {
        this(sql, false);
    }

    /** A lexer for a session whose sql_mode has (or lacks) NO_BACKSLASH_ESCAPES. */
    public SqlLexer(CharSequence sql, boolean noBackslashEscapes) {
        this.sql = requireNonNull(sql, "sql is null");
        this.length = sql.length();
        this.noBackslashEscapes = noBackslashEscapes;
        this.strings = sql instanceof String string ? new QuotedStrings(string, noBackslashEscapes) : null;
    }

    /** Advances to the next token and returns its type; {@link TokenType#END} at the end, repeatedly. */
    public TokenType next() {
        skipSpaceAndComments();
        start = position;
        if (position >= length) {
            end = position;
            return type = TokenType.END;
        }
        char c = sql.charAt(position);
        if (c == '\'' || c == '"') {
            position = skipQuoted(position, c);
            type = TokenType.STRING;
        }
        else if (c == '`') {
            position = skipQuoted(position, '`');
            type = TokenType.QUOTED_IDENTIFIER;
        }
        else if (isDigit(c) || (c == '.' && position + 1 < length && isDigit(sql.charAt(position + 1)))) {
            position = skipNumber(position);
            type = TokenType.NUMBER;
        }
        else if (isWordChar(c)) {
            position = skipWord(position);
            type = TokenType.WORD;
        }
        else if (c == '@') {
            position = skipVariable(position);
            type = TokenType.VARIABLE;
        }
        else if (c == ';') {
            position++;
            type = TokenType.SEMICOLON;
        }
        else if (c == ':' && position + 1 < length && sql.charAt(position + 1) == '=') {
            position += 2;
            type = TokenType.OPERATOR;
        }
        else {
            position++;
            type = TokenType.OPERATOR;
        }
        end = position;
        return type;
    }

    /** The type of the current token. */
    public TokenType type() {
        return type;
    }

    /** Index of the first character of the current token. */
    public int start() {
        return start;
    }

    /** Index just past the current token. */
    public int end() {
        return end;
    }

    /** Whether the current token is the word {@code upperCaseKeyword}, ignoring case. Allocates nothing. */
    public boolean isWord(String upperCaseKeyword) {
        return type == TokenType.WORD && regionEqualsIgnoreCase(start, end, upperCaseKeyword);
    }

    /** Whether the current token is the single character operator {@code c}. */
    public boolean isOperator(char c) {
        return type == TokenType.OPERATOR && end - start == 1 && sql.charAt(start) == c;
    }

    /** Whether the current token is {@code :=}. */
    public boolean isAssign() {
        return type == TokenType.OPERATOR && end - start == 2;
    }

    /** The current token's text. Allocates: for tests and error messages, not for the hot path. */
    public String text() {
        return sql.subSequence(start, end).toString();
    }

    /** Whether the input's characters {@code [from, to)} equal {@code upperCase}, ignoring case. */
    boolean regionEqualsIgnoreCase(int from, int to, String upperCase) {
        if (to - from != upperCase.length()) {
            return false;
        }
        for (int i = 0; i < upperCase.length(); i++) {
            if (Character.toUpperCase(sql.charAt(from + i)) != upperCase.charAt(i)) {
                return false;
            }
        }
        return true;
    }

    /** The input's character at {@code index}. */
    char charAt(int index) {
        return sql.charAt(index);
    }

    /** The hints seen so far (all of them once {@link #next()} has returned {@link TokenType#END}). */
    public Hints hints() {
        if (!forcePrimary && maxLagMs < 0) {
            return Hints.NONE;
        }
        return new Hints(maxLagMs < 0 ? OptionalLong.empty() : OptionalLong.of(maxLagMs), forcePrimary);
    }

    private void skipSpaceAndComments() {
        while (position < length) {
            char c = sql.charAt(position);
            if (c <= ' ' || Character.isWhitespace(c)) {
                position++;
            }
            else if (c == '#') {
                position = skipLine(position);
            }
            else if (c == '-' && startsLineComment(position)) {
                position = skipLine(position);
            }
            else if (c == '/' && position + 1 < length && sql.charAt(position + 1) == '*') {
                position = skipBlockComment(position);
            }
            else if (c == '*' && inExecutableComment && position + 1 < length && sql.charAt(position + 1) == '/') {
                inExecutableComment = false;
                position += 2;
            }
            else {
                return;
            }
        }
    }

    /** {@code --} starts a comment only when followed by whitespace, a control character or the end. */
    private boolean startsLineComment(int at) {
        if (at + 1 >= length || sql.charAt(at + 1) != '-') {
            return false;
        }
        return at + 2 >= length || sql.charAt(at + 2) <= ' ';
    }

    private int skipLine(int at) {
        while (at < length && sql.charAt(at) != '\n') {
            at++;
        }
        return at;
    }

    /** {@code at} is on the {@code /} of {@code /*}. Returns where lexing continues. */
    private int skipBlockComment(int at) {
        int content = at + 2;
        if (content < length && sql.charAt(content) == '!' && !inExecutableComment) {
            // Executable comment: its content is SQL. Skip the optional version number.
            int p = content + 1;
            int digits = 0;
            while (p < length && digits < 6 && isDigit(sql.charAt(p))) {
                p++;
                digits++;
            }
            inExecutableComment = true;
            return p;
        }
        int close = indexOfCommentEnd(content);
        if (content < length && sql.charAt(content) == '+') {
            readHint(content + 1, close);
        }
        return close >= length ? length : close + 2;
    }

    private int indexOfCommentEnd(int from) {
        for (int i = from; i + 1 < length; i++) {
            if (sql.charAt(i) == '*' && sql.charAt(i + 1) == '/') {
                return i;
            }
        }
        return length;
    }

    /** Reads {@code shardgate primary max_lag_ms=N} from {@code [from, to)}; anything else is ignored. */
    private void readHint(int from, int to) {
        int p = skipBlanks(from, to);
        int wordEnd = skipWord(p, to);
        if (!regionEqualsIgnoreCase(p, wordEnd, "SHARDGATE") || wordEnd == p) {
            return;
        }
        p = wordEnd;
        while (true) {
            p = skipBlanks(p, to);
            if (p >= to) {
                return;
            }
            wordEnd = skipWord(p, to);
            if (wordEnd == p) {
                p++; // stray punctuation
                continue;
            }
            if (regionEqualsIgnoreCase(p, wordEnd, "PRIMARY")) {
                forcePrimary = true;
                p = wordEnd;
            }
            else if (regionEqualsIgnoreCase(p, wordEnd, "MAX_LAG_MS")) {
                p = skipBlanks(wordEnd, to);
                if (p < to && sql.charAt(p) == '=') {
                    p = skipBlanks(p + 1, to);
                }
                p = readLag(p, to);
            }
            else {
                p = wordEnd;
            }
        }
    }

    /** Reads decimal digits; keeps the smallest lag seen in any hint. Overflowing values are ignored. */
    private int readLag(int p, int to) {
        long value = 0;
        int digits = 0;
        boolean overflow = false;
        while (p < to && isDigit(sql.charAt(p))) {
            if (value > (Long.MAX_VALUE - 9) / 10) {
                overflow = true;
            }
            value = value * 10 + (sql.charAt(p) - '0');
            digits++;
            p++;
        }
        if (digits > 0 && !overflow && (p >= to || !isWordChar(sql.charAt(p)))) {
            maxLagMs = maxLagMs < 0 ? value : Math.min(maxLagMs, value);
        }
        return p;
    }

    private int skipBlanks(int p, int to) {
        while (p < to && sql.charAt(p) <= ' ') {
            p++;
        }
        return p;
    }

    private int skipQuoted(int at, char quote) {
        if (strings != null) {
            return strings.skip(at, quote);
        }
        int p = at + 1;
        while (p < length) {
            char c = sql.charAt(p);
            if (c == '\\' && quote != '`' && !noBackslashEscapes) {
                p += 2;
            }
            else if (c == quote) {
                if (p + 1 < length && sql.charAt(p + 1) == quote) {
                    p += 2;
                }
                else {
                    return p + 1;
                }
            }
            else {
                p++;
            }
        }
        return length;
    }

    private int skipNumber(int at) {
        int p = at;
        while (p < length) {
            char c = sql.charAt(p);
            if (isDigit(c) || c == '.' || isWordChar(c)) {
                p++;
            }
            else if ((c == '+' || c == '-') && (sql.charAt(p - 1) == 'e' || sql.charAt(p - 1) == 'E')
                    && p + 1 < length && isDigit(sql.charAt(p + 1))) {
                p++;
            }
            else {
                break;
            }
        }
        return p;
    }

    private int skipWord(int at) {
        return skipWord(at, length);
    }

    private int skipWord(int at, int to) {
        int p = at;
        while (p < to && isWordChar(sql.charAt(p))) {
            p++;
        }
        return p;
    }

    private int skipVariable(int at) {
        int p = at + 1;
        if (p < length && sql.charAt(p) == '@') {
            p++;
        }
        if (p < length && (sql.charAt(p) == '\'' || sql.charAt(p) == '"' || sql.charAt(p) == '`')) {
            return skipQuoted(p, sql.charAt(p));
        }
        while (p < length && (isWordChar(sql.charAt(p)) || sql.charAt(p) == '.')) {
            p++;
        }
        return p;
    }

    private static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }

    private static boolean isWordChar(char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || isDigit(c) || c == '_' || c == '$' || c >= 0x80;
    }
}
