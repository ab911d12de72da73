package io.shardgate.proxy.protocol;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.MathContext;
import java.math.RoundingMode;

/**
 * FLOAT and DOUBLE values as MariaDB prints them in text results: {@code my_gcvt} and
 * {@code my_fcvt} of its strings/dtoa.c, as observed on MariaDB 10.11.
 *
 * <p>Without fixed decimals (31), a DOUBLE prints the fewest digits that read back to the same
 * double, a FLOAT at most 6 significant digits (FLT_DIG) of its value, rounded half to even. The
 * digits are laid out plainly when the decimal exponent {@code decpt} (value = 0.DIGITS &times;
 * 10^decpt) is at least -14 and either at most 15 or below the digit count; otherwise as
 * {@code D.DDDe[-]X} without a plus sign or leading zeros in the exponent:
 * <pre>
 * 0.1 → 0.1        100.0 → 100             1e15 → 1e15    123456789012345 → 123456789012345
 * 1.5e-7 → 0.00000015   1e-15 → 0.000000000000001   1e-16 → 1e-16
 * 1.2345678901234568e20 → 1.2345678901234568e20      1234567890123456.2 → 1234567890123456.2
 * FLOAT 123456789012345 → 123457000000000    FLOAT 1234565 → 1234560    FLOAT 3.4028235e38 → 3.40282e38
 * </pre>
 * With fixed decimals (a DOUBLE(M,D) column, or an expression such as {@code x * 0.5}) the value
 * prints with exactly that many decimals: its fewest digits when they fit, padded with zeros, else
 * its exact value rounded half to even (0.125 → 0.12, and -0.001 → -0.00 keeps its sign). MariaDB never sends a negative zero (its values are +0.0 by then), so -0.0 prints 0;
 * infinities and NaN, which it cannot hold, print 0 as {@code my_gcvt} does.
 */
final class FloatingPointText {
    private static final int MAX_DECPT_FOR_F_FORMAT = 15;
    private static final int FLT_DIG = 6;
    private static final int MAX_DIGITS = 17;
    private static final long EXACT_LONG_LIMIT = 1L << 53;
    private static final MathContext[] NEAREST = contexts(RoundingMode.HALF_EVEN);
    private static final MathContext[] DOWN = contexts(RoundingMode.DOWN);
    private static final MathContext[] UP = contexts(RoundingMode.UP);

    private FloatingPointText() {
    }

    /** A DOUBLE value with the decimals of its column definition. */
    static String ofDouble(double value, int decimals) {
        if (!Double.isFinite(value) || value == 0) {
            return decimals < ColumnDefinition.NOT_FIXED_DECIMALS ? fixed(BigDecimal.ZERO, decimals) : "0";
        }
        if (decimals < ColumnDefinition.NOT_FIXED_DECIMALS) {
            return fixed(value, decimals);
        }
        Digits digits = shortest(Math.abs(value));
        return layout(value < 0, digits);
    }

    /** A FLOAT value with the decimals of its column definition. */
    static String ofFloat(float value, int decimals) {
        if (!Float.isFinite(value) || value == 0) {
            return decimals < ColumnDefinition.NOT_FIXED_DECIMALS ? fixed(BigDecimal.ZERO, decimals) : "0";
        }
        if (decimals < ColumnDefinition.NOT_FIXED_DECIMALS) {
            return fixed(value, decimals);
        }
        BigDecimal rounded = new BigDecimal(Math.abs((double) value)).round(NEAREST[FLT_DIG]);
        return layout(value < 0, Digits.of(rounded));
    }

    /**
     * {@code my_fcvt}: the shortest digits when they need no more than {@code decimals} places,
     * else the exact value rounded half to even, padded with zeros to {@code decimals} places.
     */
    private static String fixed(double value, int decimals) {
        Digits digits = shortest(Math.abs(value));
        BigDecimal abs = digits.length() - digits.decpt() <= decimals
                ? digits.toBigDecimal()
                : new BigDecimal(Math.abs(value)).setScale(decimals, RoundingMode.HALF_EVEN);
        // The sign stays when the digits round to zero: -0.001 with 2 decimals prints -0.00.
        return value < 0 ? "-" + fixed(abs, decimals) : fixed(abs, decimals);
    }

    private static String fixed(BigDecimal value, int decimals) {
        return value.setScale(decimals, RoundingMode.UNNECESSARY).toPlainString();
    }

    private static String layout(boolean negative, Digits digits) {
        String d = digits.text();
        int len = d.length();
        int decpt = digits.decpt();
        StringBuilder out = new StringBuilder(len + 8);
        if (negative) {
            out.append('-');
        }
        if (decpt >= 1 - MAX_DECPT_FOR_F_FORMAT && (decpt <= MAX_DECPT_FOR_F_FORMAT || len > decpt)) {
            if (decpt <= 0) {
                out.append("0.");
                out.append("0".repeat(-decpt));
                out.append(d);
            } else if (decpt < len) {
                out.append(d, 0, decpt).append('.').append(d, decpt, len);
            } else {
                out.append(d).append("0".repeat(decpt - len));
            }
        } else {
            out.append(d.charAt(0));
            if (len > 1) {
                out.append('.').append(d, 1, len);
            }
            out.append('e').append(decpt - 1);
        }
        return out.toString();
    }

    /** The fewest significant digits that read back as {@code value} (positive, finite), nearest to it. */
    private static Digits shortest(double value) {
        if (value < EXACT_LONG_LIMIT && value == Math.rint(value)) {
            return Digits.of((long) value);
        }
        // If some p-digit decimal reads back, so does a (p+1)-digit one: search for the least p.
        BigDecimal exact = new BigDecimal(value);
        BigDecimal best = exact.round(NEAREST[MAX_DIGITS]);
        int low = 1;
        int high = MAX_DIGITS;
        while (low < high) {
            int middle = (low + high) >>> 1;
            BigDecimal candidate = readsBack(exact, value, middle);
            if (candidate == null) {
                low = middle + 1;
            } else {
                best = candidate;
                high = middle;
            }
        }
        return Digits.of(best);
    }

    /** The {@code precision}-digit decimal nearest to {@code exact} that reads back as {@code value}, if any. */
    private static BigDecimal readsBack(BigDecimal exact, double value, int precision) {
        BigDecimal nearest = exact.round(NEAREST[precision]);
        if (nearest.doubleValue() == value) {
            return nearest;
        }
        // Just above a power of two the doubles below are closer together than those above, so
        // the decimal on the far side can read back while the nearest does not.
        BigDecimal other = exact.round(nearest.compareTo(exact) > 0 ? DOWN[precision] : UP[precision]);
        return other.doubleValue() == value ? other : null;
    }

    private static MathContext[] contexts(RoundingMode mode) {
        MathContext[] contexts = new MathContext[MAX_DIGITS + 1];
        for (int i = 1; i <= MAX_DIGITS; i++) {
            contexts[i] = new MathContext(i, mode);
        }
        return contexts;
    }

    /** Significant digits without trailing zeros, and where the decimal point goes: 0.TEXT &times; 10^decpt. */
    private record Digits(String text, int decpt) {
        static Digits of(long value) {
            String text = Long.toString(value);
            int end = text.length();
            while (end > 1 && text.charAt(end - 1) == '0') {
                end--;
            }
            return new Digits(text.substring(0, end), text.length());
        }

        static Digits of(BigDecimal positive) {
            BigDecimal stripped = positive.stripTrailingZeros();
            String text = stripped.unscaledValue().toString();
            return new Digits(text, text.length() - stripped.scale());
        }

        int length() {
            return text.length();
        }

        BigDecimal toBigDecimal() {
            return new BigDecimal(new BigInteger(text), text.length() - decpt);
        }
    }
}
