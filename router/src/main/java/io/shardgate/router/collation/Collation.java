package io.shardgate.router.collation;

import java.io.ByteArrayOutputStream;
import java.util.function.Supplier;

import static java.util.Objects.requireNonNull;

/**
 * How MySQL and MariaDB compare and sort strings under one collation, for merging rows of several
 * shards and for canonical shard key values. Exact for the collations of {@link Collations}: their
 * weights come from the server's own {@code WEIGHT_STRING()} (see {@code WeightTable}).
 *
 * <p>A string's weights are the concatenation of its code points' weights (none of these
 * collations has contractions). Two strings compare as their weight sequences do; under a
 * {@code PAD SPACE} collation the shorter sequence is first padded with the space weight, so
 * {@code 'a' = 'a  '}, and {@code 'a' > 'a\t'} because a tab weighs less than a space.
 */
public final class Collation {

    private final int id;
    private final String name;
    private final boolean padSpace;
    private final int spaceWeight;
    private final int bytesPerWeight;
    private final Supplier<Weights> weights;

    Collation(int id, String name, boolean padSpace, int spaceWeight, int bytesPerWeight, Supplier<Weights> weights) {
        this.id = id;
        this.name = requireNonNull(name, "name is null");
        this.padSpace = padSpace;
        this.spaceWeight = spaceWeight;
        this.bytesPerWeight = bytesPerWeight;
        this.weights = requireNonNull(weights, "weights is null");
    }

    /** The collation id the server sends in column definitions. */
    public int id() {
        return id;
    }

    public String name() {
        return name;
    }

    /** Whether trailing spaces are ignored when comparing. */
    public boolean padSpace() {
        return padSpace;
    }

    /** Negative, zero or positive as {@code a} sorts before, equal to or after {@code b}. */
    public int compare(CharSequence a, CharSequence b) {
        Weights table = weights.get();
        Cursor x = new Cursor(table, a);
        Cursor y = new Cursor(table, b);
        while (true) {
            int wa = x.next();
            int wb = y.next();
            if (wa < 0 && wb < 0) {
                return 0;
            }
            if (wa < 0 || wb < 0) {
                if (!padSpace) {
                    return wa < 0 ? -1 : 1;
                }
                wa = wa < 0 ? spaceWeight : wa;
                wb = wb < 0 ? spaceWeight : wb;
            }
            if (wa != wb) {
                return Integer.compare(wa, wb);
            }
        }
    }

    /** Whether {@code a} and {@code b} are equal under this collation. */
    public boolean equal(CharSequence a, CharSequence b) {
        return compare(a, b) == 0;
    }

    /**
     * The string's weights, big-endian, two bytes each (three for the {@code _bin} collations, whose
     * weights are code points), with trailing space weights removed under {@code PAD SPACE}. Two
     * strings are equal under this collation exactly when their sort keys are equal byte for byte.
     */
    public byte[] sortKey(CharSequence s) {
        Weights table = weights.get();
        Cursor cursor = new Cursor(table, s);
        ByteArrayOutputStream out = new ByteArrayOutputStream(s.length() * bytesPerWeight);
        int pendingSpaces = 0;
        for (int w = cursor.next(); w >= 0; w = cursor.next()) {
            if (padSpace && w == spaceWeight) {
                pendingSpaces++;
                continue;
            }
            for (; pendingSpaces > 0; pendingSpaces--) {
                write(out, spaceWeight);
            }
            write(out, w);
        }
        if (!padSpace) {
            for (; pendingSpaces > 0; pendingSpaces--) {
                write(out, spaceWeight);
            }
        }
        return out.toByteArray();
    }

    private void write(ByteArrayOutputStream out, int weight) {
        for (int shift = 8 * (bytesPerWeight - 1); shift >= 0; shift -= 8) {
            out.write(weight >>> shift);
        }
    }

    @Override
    public String toString() {
        return name;
    }

    /** Walks a string's weights, code point by code point. */
    private static final class Cursor {
        private final Weights table;
        private final CharSequence s;
        private int index;
        private int codePoint;
        private int count;
        private int next;

        Cursor(Weights table, CharSequence s) {
            this.table = table;
            this.s = s;
        }

        /** The next weight, or -1 at the end. */
        int next() {
            while (next == count) {
                if (index >= s.length()) {
                    return -1;
                }
                codePoint = Character.codePointAt(s, index);
                index += Character.charCount(codePoint);
                count = table.count(codePoint);
                next = 0;
            }
            return table.weight(codePoint, next++);
        }
    }
}
