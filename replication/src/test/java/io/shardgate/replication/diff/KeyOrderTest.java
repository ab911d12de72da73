package io.shardgate.replication.diff;

import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class KeyOrderTest {
    static final KeyOrder INTEGER = KeyOrder.of(List.of(new KeyOrder.Column("id", "bigint", null)));
    static final KeyOrder GENERAL_CI = KeyOrder.of(List.of(new KeyOrder.Column("name", "varchar", "utf8mb4_general_ci")));

    @Test
    void stringsCompareUnderTheirCollation() {
        assertThat(GENERAL_CI.compare(List.of("a"), List.of("A"))).isZero();
        assertThat(GENERAL_CI.compare(List.of("a"), List.of("a  "))).as("PAD SPACE").isZero();
        assertThat(GENERAL_CI.compare(List.of("a"), List.of("B"))).isNegative();
        assertThat(GENERAL_CI.compare(List.of("Ä"), List.of("a"))).as("general_ci folds the umlaut").isZero();
        KeyOrder bin = KeyOrder.of(List.of(new KeyOrder.Column("name", "char", "utf8mb4_bin")));
        assertThat(bin.compare(List.of("a"), List.of("B"))).as("code points: B < a").isPositive();
        KeyOrder nopad = KeyOrder.of(List.of(new KeyOrder.Column("name", "varchar", "utf8mb4_general_nopad_ci")));
        assertThat(nopad.compare(List.of("a"), List.of("a "))).isNegative();
    }

    @Test
    void numbersBytesAndCompositeKeys() {
        assertThat(INTEGER.compare(List.of(2L), List.of(10L))).isNegative();
        assertThat(INTEGER.compare(List.of(5), List.of(5L))).isZero();
        assertThat(INTEGER.compare(List.of(new BigInteger("18446744073709551615")), List.of(Long.MAX_VALUE))).isPositive();
        KeyOrder decimal = KeyOrder.of(List.of(new KeyOrder.Column("d", "decimal", null)));
        assertThat(decimal.compare(List.of(new BigDecimal("1.50")), List.of(new BigDecimal("1.5")))).isZero();
        KeyOrder bytes = KeyOrder.of(List.of(new KeyOrder.Column("b", "varbinary", null)));
        assertThat(bytes.compare(List.of(new byte[] {(byte) 0x80}), List.of(new byte[] {0x7f}))).as("unsigned").isPositive();
        assertThat(bytes.compare(List.of(new byte[] {1}), List.of(new byte[] {1, 0}))).isNegative();
        KeyOrder composite = KeyOrder.of(List.of(new KeyOrder.Column("a", "int", null),
                new KeyOrder.Column("b", "varchar", "utf8mb4_unicode_ci")));
        assertThat(composite.compare(List.of(1, "x"), List.of(1, "X"))).isZero();
        assertThat(composite.compare(List.of(1, "z"), List.of(2, "a"))).isNegative();
        assertThat(composite.size()).isEqualTo(2);
        assertThatThrownBy(() -> composite.compare(List.of(1), List.of(1, "a")))
                .hasMessage("keys of 1 and 2 values for a key of 2 columns");
    }

    @Test
    void anOrderItCannotReproduceIsRefused() {
        assertThatThrownBy(() -> KeyOrder.of(List.of(new KeyOrder.Column("name", "varchar", "utf8mb4_german2_ci"))))
                .hasMessageStartingWith("key column `name` has collation utf8mb4_german2_ci, whose order Shardgate cannot reproduce");
        assertThatThrownBy(() -> KeyOrder.of(List.of(new KeyOrder.Column("e", "enum", "utf8mb4_general_ci"))))
                .hasMessage("key column `e` is of type enum, whose order a diff cannot reproduce");
        assertThatThrownBy(() -> KeyOrder.of(List.of())).hasMessage("a diff needs a table with a primary key");
    }
}
