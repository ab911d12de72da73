package io.shardgate.router.collation;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

import static java.util.Objects.requireNonNull;

/**
 * The weights of every code point under one collation, read from a {@code .weights} resource that
 * {@code router/tools/generate-collation-weights.sh} wrote from a MariaDB server's
 * {@code WEIGHT_STRING()}. Immutable once loaded.
 *
 * <p>BMP code points hold 0 to 8 sixteen-bit weights; code points above the BMP all have one weight,
 * {@code supplementaryWeight} (MariaDB treats them as equal to each other under these collations).
 */
final class WeightTable implements Weights {

    /** What the weights of a code point the file does not list are. */
    enum DefaultRule {
        /** The code point itself ({@code utf8mb4_general_ci}). */
        CODE_POINT,
        /** UCA 4.0.0 implicit weights ({@code utf8mb4_unicode_ci}). */
        UCA_IMPLICIT,
        /** Not in the character set: weighed as {@code ?}, which is what the server stores instead. */
        QUESTION_MARK
    }

    private static final int BMP = 0x10000;

    /** Weights of code point {@code c} are {@code data[start[c] .. start[c + 1])}. */
    private final int[] start;
    private final char[] data;
    private final int supplementaryWeight;

    private WeightTable(int[] start, char[] data, int supplementaryWeight) {
        this.start = start;
        this.data = data;
        this.supplementaryWeight = supplementaryWeight;
    }

    static WeightTable load(String resource, DefaultRule rule, int supplementaryWeight) {
        requireNonNull(resource, "resource is null");
        requireNonNull(rule, "rule is null");
        char[][] weights = new char[BMP][];
        try (InputStream in = WeightTable.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("collation weights " + resource + " are not on the class path");
            }
            BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.US_ASCII));
            String line;
            while ((line = reader.readLine()) != null) {
                if (!line.isEmpty() && line.charAt(0) != '#') {
                    readLine(line, weights);
                }
            }
        }
        catch (IOException e) {
            throw new UncheckedIOException("cannot read collation weights " + resource, e);
        }
        int[] start = new int[BMP + 1];
        int total = 0;
        for (int c = 0; c < BMP; c++) {
            if (weights[c] == null) {
                weights[c] = defaultWeights(rule, c);
            }
            total += weights[c].length;
        }
        char[] data = new char[total];
        int at = 0;
        for (int c = 0; c < BMP; c++) {
            start[c] = at;
            System.arraycopy(weights[c], 0, data, at, weights[c].length);
            at += weights[c].length;
        }
        start[BMP] = at;
        return new WeightTable(start, data, supplementaryWeight);
    }

    /** {@code FIRST[-LAST] [W ...]}: a range has at most one weight, growing by one per code point. */
    private static void readLine(String line, char[][] weights) {
        String[] fields = line.trim().split(" +");
        String[] range = fields[0].split("-");
        int first = Integer.parseInt(range[0], 16);
        int last = range.length > 1 ? Integer.parseInt(range[1], 16) : first;
        for (int c = first; c <= last; c++) {
            char[] w = new char[fields.length - 1];
            for (int i = 0; i < w.length; i++) {
                w[i] = (char) (Integer.parseInt(fields[i + 1], 16) + (i == 0 ? c - first : 0));
            }
            weights[c] = w;
        }
    }

    private static char[] defaultWeights(DefaultRule rule, int c) {
        return switch (rule) {
            case CODE_POINT -> new char[] {(char) c};
            case QUESTION_MARK -> new char[] {'?'};
            case UCA_IMPLICIT -> {
                int base = isCoreHan(c) ? 0xFB40 : (c >= 0x3400 && c <= 0x4DB5) ? 0xFB80 : 0xFBC0;
                yield new char[] {(char) (base + (c >> 15)), (char) ((c & 0x7FFF) | 0x8000)};
            }
        };
    }

    /** CJK Unified Ideographs and the twelve unified ideographs among the compatibility ones (UCA 4.0.0). */
    private static boolean isCoreHan(int c) {
        if (c >= 0x4E00 && c <= 0x9FA5) {
            return true;
        }
        return switch (c) {
            case 0xFA0E, 0xFA0F, 0xFA11, 0xFA13, 0xFA14, 0xFA1F, 0xFA21, 0xFA23, 0xFA24, 0xFA27, 0xFA28, 0xFA29 -> true;
            default -> false;
        };
    }

    /** Number of weights of {@code codePoint}. */
    @Override
    public int count(int codePoint) {
        return codePoint >= BMP ? 1 : start[codePoint + 1] - start[codePoint];
    }

    /** Weight {@code i} of {@code codePoint}, {@code i < count(codePoint)}. */
    @Override
    public int weight(int codePoint, int i) {
        return codePoint >= BMP ? supplementaryWeight : data[start[codePoint] + i];
    }
}
