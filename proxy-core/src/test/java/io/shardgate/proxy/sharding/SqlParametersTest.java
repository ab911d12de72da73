package io.shardgate.proxy.sharding;

import io.shardgate.router.error.PlanningException;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.Arrays;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SqlParametersTest {

    @Test
    void numbersAreDigitsAndStringsHexLiterals() {
        assertThat(SqlParameters.inline("SELECT * FROM t WHERE a = ? AND b IN (?, ?) AND c = ?",
                List.of(5L, new BigDecimal("12.50"), new BigInteger("18446744073709551615"), "é'x")))
                .isEqualTo("SELECT * FROM t WHERE a = 5 AND b IN (12.50, 18446744073709551615) AND c = _utf8mb4 X'C3A92778'");
    }

    @Test
    void placeholdersInsideQuotesAndCommentsAreText() {
        assertThat(SqlParameters.inline("SELECT '?', \"?\", `?` /* ? */ -- ?\n, ? # ?\n", List.of(1L)))
                .isEqualTo("SELECT '?', \"?\", `?` /* ? */ -- ?\n, 1 # ?\n");
        assertThat(SqlParameters.inline("SELECT 'it''s ?', 'a\\'?', ?", List.of(2L)))
                .isEqualTo("SELECT 'it''s ?', 'a\\'?', 2");
    }

    @Test
    void nullsBytesAndDoubles() {
        assertThat(SqlParameters.inline("VALUES (?, ?, ?, ?)", Arrays.asList(null, new byte[] {0, (byte) 0xFF}, 0.5d, 1e300)))
                .isEqualTo("VALUES (NULL, X'00FF', 0.5e0, 1.0E300)");
    }

    @Test
    void aCountMismatchIsAnError() {
        assertThatThrownBy(() -> SqlParameters.inline("SELECT ?, ?", List.of(1L))).isInstanceOf(PlanningException.class);
        assertThatThrownBy(() -> SqlParameters.inline("SELECT ?", List.of(1L, 2L))).isInstanceOf(PlanningException.class);
    }
}
