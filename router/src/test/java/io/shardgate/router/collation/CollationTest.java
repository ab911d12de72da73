package io.shardgate.router.collation;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class CollationTest {

    /** Every pair of {@code collation/pairs.tsv} compares as the server compared it, and sort keys agree. */
    @Test
    void comparesAsMariaDbDoes() {
        String[] lines = read("/collation/pairs.tsv").split("\n");
        String[] header = null;
        List<String> failures = new ArrayList<>();
        int checked = 0;
        for (String line : lines) {
            if (line.startsWith("##") || line.isEmpty()) {
                continue;
            }
            String[] columns = line.split("\t", -1);
            if (header == null) {
                header = columns;
                continue;
            }
            String a = utf8(columns[0]);
            String b = utf8(columns[1]);
            for (int i = 2; i < columns.length; i++) {
                if (columns[i].equals("-")) {
                    continue;
                }
                Collation collation = Collations.byName(header[i]).orElseThrow();
                int expected = Integer.parseInt(columns[i]);
                int actual = Integer.signum(collation.compare(a, b));
                boolean sameKey = Arrays.equals(collation.sortKey(a), collation.sortKey(b));
                checked++;
                if (actual != expected || sameKey != (expected == 0)) {
                    failures.add(header[i] + ": '" + a + "' vs '" + b + "' expected " + expected + ", got " + actual
                            + (sameKey ? " (same sort key)" : ""));
                }
            }
        }
        assertThat(checked).isGreaterThan(15_000);
        assertThat(failures).isEmpty();
    }

    @Test
    void knownEqualities() {
        Collation general = Collations.UTF8MB4_GENERAL_CI;
        Collation unicode = Collations.UTF8MB4_UNICODE_CI;
        Collation bin = Collations.UTF8MB4_BIN;
        assertThat(general.equal("Straße", "STRASSE")).isFalse();
        assertThat(general.equal("Straße", "strase")).as("ß = s under general_ci").isTrue();
        assertThat(unicode.equal("Straße", "STRASSE")).as("ß = ss under unicode_ci").isTrue();
        assertThat(general.equal("café", "CAFE  ")).isTrue();
        assertThat(unicode.equal("a\u00a0", "a")).as("a no-break space weighs as a space").isTrue();
        assertThat(general.equal("\uD83D\uDE00", "\uD83D\uDE01")).as("all supplementary characters are equal").isTrue();
        assertThat(bin.equal("a ", "a")).isTrue();
        assertThat(bin.equal("a", "A")).isFalse();
        assertThat(Collations.byName("utf8mb4_nopad_bin").orElseThrow().equal("a ", "a")).isFalse();
        assertThat(general.compare("a", "_")).as("general_ci sorts by upper case: A < _").isNegative();
        assertThat(unicode.compare("_", "0")).as("UCA: punctuation < digits").isNegative();
    }

    @Test
    void sortKeysAreWeightsWithoutTrailingSpaces() {
        HexFormat hex = HexFormat.of();
        assertThat(hex.formatHex(Collations.UTF8MB4_GENERAL_CI.sortKey("aB  "))).isEqualTo("00410042");
        assertThat(hex.formatHex(Collations.UTF8MB4_UNICODE_CI.sortKey("ß"))).isEqualTo("0fea0fea");
        assertThat(hex.formatHex(Collations.UTF8MB4_BIN.sortKey("a b "))).isEqualTo("000061000020000062");
    }

    @Test
    void lookupByIdAndName() {
        assertThat(Collations.byId(45)).contains(Collations.UTF8MB4_GENERAL_CI);
        assertThat(Collations.byName("UTF8_GENERAL_CI").orElseThrow().id()).isEqualTo(33);
        assertThat(Collations.byName("utf8mb4_0900_ai_ci")).isEmpty();
    }

    private static String utf8(String hex) {
        return new String(HexFormat.of().parseHex(hex), StandardCharsets.UTF_8);
    }

    private static String read(String resource) {
        try (InputStream in = CollationTest.class.getResourceAsStream(resource)) {
            assertThat(in).as(resource).isNotNull();
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
