package io.shardgate.proxy.frontend;

/**
 * Allocation-free checks on statement text, run on every query before anything more expensive,
 * so the regular expressions behind them only see the rare statements that can match.
 */
final class SqlText {
    private SqlText() {
    }

    /** ASCII case-insensitive search; {@code needle} is given in lower case. */
    static boolean containsIgnoreCase(CharSequence text, String needle) {
        int last = text.length() - needle.length();
        char first = needle.charAt(0);
        for (int i = 0; i <= last; i++) {
            if (Character.toLowerCase(text.charAt(i)) == first && regionMatches(text, i, needle)) {
                return true;
            }
        }
        return false;
    }

    /** True when the first non-blank character is {@code letter} (either case). */
    static boolean startsWithLetter(CharSequence text, char letter) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (!Character.isWhitespace(c)) {
                return Character.toLowerCase(c) == letter;
            }
        }
        return false;
    }

    /** True when the text, after leading blanks, starts with {@code word} (given in lower case), ignoring case. */
    static boolean startsWithIgnoreCase(CharSequence text, String word) {
        int i = 0;
        while (i < text.length() && Character.isWhitespace(text.charAt(i))) {
            i++;
        }
        return text.length() - i >= word.length() && Character.toLowerCase(text.charAt(i)) == word.charAt(0)
                && regionMatches(text, i, word);
    }

    private static boolean regionMatches(CharSequence text, int from, String needle) {
        for (int j = 1; j < needle.length(); j++) {
            if (Character.toLowerCase(text.charAt(from + j)) != needle.charAt(j)) {
                return false;
            }
        }
        return true;
    }
}
