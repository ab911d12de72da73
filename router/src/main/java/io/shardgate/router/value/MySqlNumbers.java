package io.shardgate.router.value;

import java.math.BigDecimal;
import java.util.Optional;

/** How MySQL reads numbers out of strings. */
public final class MySqlNumbers {
    private MySqlNumbers() {
    }

    /**
     * A string in numeric comparison context, as MySQL's {@code strtod}: leading whitespace is
     * skipped, the longest prefix that is a number is read, and a string without one is 0. So
     * {@code '5abc'} is 5, {@code ' 5'} is 5, {@code 'abc'} and {@code '0x10'} are 0.
     */
    public static double parseDoublePrefix(String s) {
        int i = 0;
        int n = s.length();
        while (i < n && isSpace(s.charAt(i))) {
            i++;
        }
        int begin = i;
        if (i < n && (s.charAt(i) == '+' || s.charAt(i) == '-')) {
            i++;
        }
        int digits = 0;
        while (i < n && isDigit(s.charAt(i))) {
            i++;
            digits++;
        }
        if (i < n && s.charAt(i) == '.') {
            i++;
            while (i < n && isDigit(s.charAt(i))) {
                i++;
                digits++;
            }
        }
        if (digits == 0) {
            return 0;
        }
        int mantissaEnd = i;
        if (i < n && (s.charAt(i) == 'e' || s.charAt(i) == 'E')) {
            int j = i + 1;
            if (j < n && (s.charAt(j) == '+' || s.charAt(j) == '-')) {
                j++;
            }
            int exponentDigits = 0;
            while (j < n && isDigit(s.charAt(j))) {
                j++;
                exponentDigits++;
            }
            if (exponentDigits > 0) {
                mantissaEnd = j;
            }
        }
        return Double.parseDouble(s.substring(begin, mantissaEnd));
    }

    /**
     * A string an INSERT stores into an integer column: surrounding whitespace is allowed, the rest
     * must be a decimal number (with optional fraction and exponent); anything else is refused in
     * strict mode (MariaDB errors 1265 and 1366).
     */
    public static Optional<BigDecimal> parseDecimal(String s) {
        String trimmed = s.strip();
        if (trimmed.isEmpty() || !trimmed.matches("[+-]?(\\d+\\.?\\d*|\\.\\d+)([eE][+-]?\\d+)?")) {
            return Optional.empty();
        }
        return Optional.of(new BigDecimal(trimmed));
    }

    /**
     * A string in numeric expression context, read exactly: its longest prefix that is a decimal
     * number (after leading whitespace), 0 without one. {@code '2.5x'} is 2.5.
     */
    public static BigDecimal decimalPrefix(String s) {
        java.util.regex.Matcher m = DECIMAL_PREFIX.matcher(s);
        return m.find() ? new BigDecimal(m.group(1)) : BigDecimal.ZERO;
    }

    private static final java.util.regex.Pattern DECIMAL_PREFIX =
            java.util.regex.Pattern.compile("^\\s*([+-]?(\\d+\\.?\\d*|\\.\\d+)([eE][+-]?\\d+)?)");

    private static boolean isSpace(char c) {
        return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == 0x0B;
    }

    private static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }
}
