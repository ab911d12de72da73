package io.shardgate.router.classify;

/**
 * {@link SqlLexer}'s skipping of a quoted string, identifier or variable name over a String input:
 * it jumps from quote to quote (and backslash to backslash) with {@link String#indexOf(int, int)},
 * so the long strings of a multi-row INSERT cost a vectorised scan instead of a loop over their
 * chars. Same end as the lexer's char-by-char loop (SqlLexerFastPathTest). One per lexer: it
 * remembers the next backslash, so that all its searches for one scan the input once.
 */
final class QuotedStrings {
    private final String text;
    private final int length;
    private final boolean noBackslashEscapes;
    /** The first backslash at or after some earlier position, {@code length} when none; -1 before the first search. */
    private int backslash = -1;

    QuotedStrings(String text, boolean noBackslashEscapes) {
        this.text = text;
        this.length = text.length();
        this.noBackslashEscapes = noBackslashEscapes;
    }

    /** The index just past the quoted text that opens with {@code quote} at {@code at}; the input's length when unterminated. */
    int skip(int at, char quote) {
        boolean escapes = quote != '`' && !noBackslashEscapes;
        int p = at + 1;
        while (true) {
            int close = p >= length ? -1 : text.indexOf(quote, p);
            if (close < 0) {
                return length;
            }
            if (escapes) {
                int escape = backslashFrom(p);
                if (escape < close) {
                    p = escape + 2; // the backslash and the char it escapes
                    continue;
                }
            }
            if (close + 1 < length && text.charAt(close + 1) == quote) {
                p = close + 2; // a doubled quote
                continue;
            }
            return close + 1;
        }
    }

    /** The first backslash at or after {@code p}, or {@code length}. Positions only grow, so a found one stays valid until passed. */
    private int backslashFrom(int p) {
        if (backslash < p) {
            int found = text.indexOf('\\', p);
            backslash = found < 0 ? length : found;
        }
        return backslash;
    }
}
