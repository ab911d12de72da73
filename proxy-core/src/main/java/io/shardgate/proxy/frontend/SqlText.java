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
        if (text instanceof String string && onlyTwoCases(first)) {
            return containsIgnoreCase(string, needle, last, first);
        }
        for (int i = 0; i <= last; i++) {
            if (Character.toLowerCase(text.charAt(i)) == first && regionMatches(text, i, needle)) {
                return true;
            }
        }
        return false;
    }

    /**
     * The same search over a String, its candidates found by {@link String#indexOf(int, int)} (a vectorised scan) of
     * {@code first} and its upper case: a 200 KB multi-row INSERT costs two fast scans, not 200k calls of
     * {@link Character#toLowerCase(char)}.
     */
    private static boolean containsIgnoreCase(String text, String needle, int last, char first) {
        char upper = Character.toUpperCase(first);
        int lower = text.indexOf(first);
        int other = upper == first ? -1 : text.indexOf(upper);
        while (lower >= 0 || other >= 0) {
            int i = lower < 0 ? other : other < 0 ? lower : Math.min(lower, other);
            if (i > last) {
                return false;
            }
            if (regionMatches(text, i, needle)) {
                return true;
            }
            if (i == lower) {
                lower = text.indexOf(first, i + 1);
            } else {
                other = text.indexOf(upper, i + 1);
            }
        }
        return false;
    }

    /**
     * Whether {@code lowerCase} and its upper case are the only chars {@link Character#toLowerCase(char)} maps to
     * {@code lowerCase} (not so for 'i' and 'k': U+0130 and the Kelvin sign U+212A map to them), so that
     * searching for those two finds every candidate the char-by-char search would.
     */
    private static boolean onlyTwoCases(char lowerCase) {
        return lowerCase >= 'a' && lowerCase <= 'z' && lowerCase != 'i' && lowerCase != 'k';
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
