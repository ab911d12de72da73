package io.shardgate.router.collation;

import java.util.List;
import java.util.Locale;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * The collations Shardgate can compare exactly, by the ids and names MariaDB uses. The utf8mb3
 * collations weigh characters as their utf8mb4 namesakes; {@code nopad} ones do not ignore trailing
 * spaces. {@code binary} compares code points (byte strings arrive as {@code byte[]}, not here).
 */
public final class Collations {

    public static final Collation UTF8MB4_GENERAL_CI = general(45, "utf8mb4_general_ci", true);
    public static final Collation UTF8MB4_UNICODE_CI = unicode(224, "utf8mb4_unicode_ci", true);
    public static final Collation UTF8MB4_BIN = codePoints(46, "utf8mb4_bin", true);
    public static final Collation BINARY = codePoints(63, "binary", false);

    private static final List<Collation> ALL = List.of(
            UTF8MB4_GENERAL_CI, UTF8MB4_UNICODE_CI, UTF8MB4_BIN, BINARY,
            general(33, "utf8mb3_general_ci", true),
            general(1069, "utf8mb4_general_nopad_ci", false),
            general(1057, "utf8mb3_general_nopad_ci", false),
            unicode(192, "utf8mb3_unicode_ci", true),
            unicode(1248, "utf8mb4_unicode_nopad_ci", false),
            unicode(1216, "utf8mb3_unicode_nopad_ci", false),
            codePoints(83, "utf8mb3_bin", true),
            codePoints(1070, "utf8mb4_nopad_bin", false),
            codePoints(1107, "utf8mb3_nopad_bin", false),
            new Collation(8, "latin1_swedish_ci", true, ' ', 2, () -> Latin1SwedishCi.TABLE),
            new Collation(1032, "latin1_swedish_nopad_ci", false, ' ', 2, () -> Latin1SwedishCi.TABLE),
            new Collation(47, "latin1_bin", true, ' ', 2, () -> Latin1Bin.TABLE),
            new Collation(1071, "latin1_nopad_bin", false, ' ', 2, () -> Latin1Bin.TABLE));

    private Collations() {
    }

    /** The collation with this id (as in a column definition), if Shardgate knows it. */
    public static Optional<Collation> byId(int id) {
        return ALL.stream().filter(c -> c.id() == id).findFirst();
    }

    /** The collation with this name, ignoring case, if Shardgate knows it; {@code utf8_} means {@code utf8mb3_}. */
    public static Optional<Collation> byName(String name) {
        requireNonNull(name, "name is null");
        String lower = name.toLowerCase(Locale.ROOT);
        String normalized = lower.startsWith("utf8_") ? "utf8mb3_" + lower.substring(5) : lower;
        return ALL.stream().filter(c -> c.name().equals(normalized)).findFirst();
    }

    /** Every known collation's name, for error messages. */
    public static List<String> names() {
        return ALL.stream().map(Collation::name).toList();
    }

    private static Collation general(int id, String name, boolean padSpace) {
        return new Collation(id, name, padSpace, ' ', 2, () -> GeneralCi.TABLE);
    }

    private static Collation unicode(int id, String name, boolean padSpace) {
        return new Collation(id, name, padSpace, 0x0209, 2, () -> UnicodeCi.TABLE);
    }

    private static Collation codePoints(int id, String name, boolean padSpace) {
        return new Collation(id, name, padSpace, ' ', 3, () -> Weights.CODE_POINTS);
    }

    // Each table loads on first use (holder classes), and is immutable after.

    private static final class GeneralCi {
        static final Weights TABLE = WeightTable.load("utf8mb4_general_ci.weights", WeightTable.DefaultRule.CODE_POINT, 0xFFFD);
    }

    private static final class UnicodeCi {
        static final Weights TABLE = WeightTable.load("utf8mb4_unicode_ci.weights", WeightTable.DefaultRule.UCA_IMPLICIT, 0xFFFD);
    }

    private static final class Latin1SwedishCi {
        static final Weights TABLE = WeightTable.load("latin1_swedish_ci.weights", WeightTable.DefaultRule.QUESTION_MARK, '?');
    }

    private static final class Latin1Bin {
        static final Weights TABLE = WeightTable.load("latin1_bin.weights", WeightTable.DefaultRule.QUESTION_MARK, '?');
    }
}
