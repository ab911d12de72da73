package io.shardgate.router.value;

import io.shardgate.router.collation.Collations;
import io.shardgate.router.plan.ValueSource;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Duration;
import java.time.LocalDate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SqlValueTest {

    @Test
    void theTypeIsDecidedOnceFromTheJavaValue() {
        assertThat(SqlValue.of(null)).isSameAs(SqlValue.NULL);
        assertThat(SqlValue.of(5L).type()).isEqualTo(SqlValue.Type.INTEGER);
        assertThat(SqlValue.of(new BigInteger("18446744073709551615")).type()).isEqualTo(SqlValue.Type.BIG_INTEGER);
        assertThat(SqlValue.of(new BigDecimal("1.50")).type()).isEqualTo(SqlValue.Type.DECIMAL);
        assertThat(SqlValue.of(1.5d).type()).isEqualTo(SqlValue.Type.FLOAT);
        assertThat(SqlValue.of("a").type()).isEqualTo(SqlValue.Type.TEXT);
        assertThat(SqlValue.of(new byte[] {1}).type()).isEqualTo(SqlValue.Type.BYTES);
        assertThat(SqlValue.of(LocalDate.of(2024, 1, 2)).type()).isEqualTo(SqlValue.Type.TEMPORAL);
        assertThat(SqlValue.of(Duration.ofHours(30)).type()).isEqualTo(SqlValue.Type.TEMPORAL);
        assertThat(SqlValue.ofInteger(BigInteger.TEN)).isEqualTo(SqlValue.ofLong(10));
        assertThatThrownBy(() -> SqlValue.of(new Object())).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> SqlValue.of("a").longValue()).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void decimalsKeepTheirScaleAndUnsignedBigintsStayExact() {
        assertThat(SqlValue.of(new BigDecimal("1.50")).toJava()).isEqualTo(new BigDecimal("1.50"));
        assertThat(SqlValue.of(new BigDecimal("1.50"))).isNotEqualTo(SqlValue.of(new BigDecimal("1.5")));
        assertThat(SqlValue.of(new BigInteger("18446744073709551615")).exactDecimal()).isEqualTo(new BigDecimal("18446744073709551615"));
    }

    @Test
    void binaryStringsAreComparedAndShownAsBytes() {
        byte[] bytes = {(byte) 0xFF, 0x00};
        assertThat(SqlValue.ofBytes(bytes)).isEqualTo(SqlValue.of(new byte[] {(byte) 0xFF, 0x00}))
                .hasSameHashCodeAs(SqlValue.of(new byte[] {(byte) 0xFF, 0x00}));
        assertThat(SqlValue.ofBytes(bytes).comparisonBytes()).isSameAs(bytes);
        assertThat(SqlValue.compare(SqlValue.ofBytes(bytes), SqlValue.ofBytes(new byte[] {0x7F}), Collations.UTF8MB4_GENERAL_CI)).isPositive();
        assertThat(SqlValue.ofBytes(bytes).toString()).isEqualTo("X'FF00'");
        assertThat(ValueSource.Literal.of(bytes).describe()).isEqualTo("X'FF00'");
    }

    @Test
    void expressionComparisonFollowsMysql() {
        assertThat(SqlValue.compare(SqlValue.of("abc "), SqlValue.of("ABC"), Collations.UTF8MB4_GENERAL_CI)).isZero();
        assertThat(SqlValue.compare(SqlValue.of("10"), SqlValue.of(9L), Collations.UTF8MB4_GENERAL_CI)).isPositive();
        assertThat(SqlValue.compare(SqlValue.of("5abc"), SqlValue.of(new BigDecimal("5.0")), Collations.UTF8MB4_GENERAL_CI)).isZero();
        assertThat(SqlValue.of("0.0").isTrue()).isFalse();
        assertThat(SqlValue.of("x").isTrue()).isFalse();
        assertThat(SqlValue.NULL.isTrue()).isFalse();
        assertThat(SqlValue.of(new byte[] {0}).isTrue()).isTrue();
    }

    @Test
    void utf8BytesUndoesTheSurrogateEscapeOfMalformedBytes() {
        assertThat(SqlValue.utf8Bytes("é")).containsExactly(0xC3, 0xA9);
        assertThat(SqlValue.utf8Bytes("\uDCFFa\uDC80")).containsExactly(0xFF, 'a', 0x80);
        assertThat(SqlValue.utf8Bytes("\uD83D\uDE00")).containsExactly(0xF0, 0x9F, 0x98, 0x80);
    }
}
