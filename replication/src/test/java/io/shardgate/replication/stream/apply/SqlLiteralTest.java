package io.shardgate.replication.stream.apply;

import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

class SqlLiteralTest {
    private static String literal(Object value) {
        StringBuilder sql = new StringBuilder();
        return SqlLiteral.append(sql, value) ? sql.toString() : null;
    }

    @Test
    void escapesEveryCharacterTheServerTreatsSpecially() {
        assertThat(literal("it's a \\ \"q\" \0 \n \r \u001a end"))
                .isEqualTo("'it\\'s a \\\\ \\\"q\\\" \\0 \\n \\r \\Z end'");
        assertThat(literal("")).isEqualTo("''");
        assertThat(literal("naïve 😀")).isEqualTo("'naïve 😀'");
    }

    @Test
    void numbersKeepTheirExactValue() {
        assertThat(literal(-9223372036854775808L)).isEqualTo("-9223372036854775808");
        assertThat(literal(new BigInteger("18446744073709551615"))).isEqualTo("18446744073709551615");
        assertThat(literal(new BigDecimal("1E+3"))).isEqualTo("1000");
        assertThat(literal(new BigDecimal("-0.000000000000000000000000000001")))
                .isEqualTo("-0.000000000000000000000000000001");
        assertThat(literal(3.4028235E38f)).isEqualTo("3.4028235E38");
        assertThat(literal(Double.MIN_VALUE)).isEqualTo("4.9E-324");
        assertThat(literal(7)).isEqualTo("7");
    }

    @Test
    void bytesAreAHexBinaryString() {
        assertThat(literal(new byte[] {0, (byte) 0xFF, 0x27, 0x5C})).isEqualTo("X'00FF275C'");
        assertThat(literal(new byte[0])).isEqualTo("X''");
        assertThat(literal(null)).isEqualTo("NULL");
    }

    @Test
    void leavesLargeBytesAndUnknownTypesToTheCaller() {
        StringBuilder sql = new StringBuilder("x");
        assertThat(SqlLiteral.append(sql, new byte[SqlLiteral.MAX_BYTES + 1])).isFalse();
        assertThat(SqlLiteral.append(sql, Optional.empty())).isFalse();
        assertThat(SqlLiteral.append(sql, Double.NaN)).isFalse();
        assertThat(sql).hasToString("x");
        assertThat(literal(new byte[SqlLiteral.MAX_BYTES])).hasSize(3 + 2 * SqlLiteral.MAX_BYTES);
    }
}
