package io.shardgate.proxy.sharding;

import io.shardgate.proxy.protocol.ClientCharset;
import io.shardgate.errors.ShardgateException;
import io.shardgate.router.value.SqlValue;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.Arrays;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SqlParametersTest {
    private static final ClientCharset UTF8 = ClientCharset.UTF8MB4;

    /** {@link SqlParameters#inline} with these Java values as {@link SqlValue}s. */
    private static String inline(String sql, List<?> values, ClientCharset charset) {
        return SqlParameters.inline(sql, values.stream().map(SqlValue::of).toList(), charset);
    }

    @Test
    void numbersAreDigitsAndStringsHexLiterals() {
        assertThat(inline("SELECT * FROM t WHERE a = ? AND b IN (?, ?) AND c = ?",
                List.of(5L, new BigDecimal("12.50"), new BigInteger("18446744073709551615"), "é'x"), UTF8))
                .isEqualTo("SELECT * FROM t WHERE a = 5 AND b IN (12.50, 18446744073709551615) AND c = _utf8mb4 X'C3A92778'");
    }

    @Test
    void placeholdersInsideQuotesAndCommentsAreText() {
        assertThat(inline("SELECT '?', \"?\", `?` /* ? */ -- ?\n, ? # ?\n", List.of(1L), UTF8))
                .isEqualTo("SELECT '?', \"?\", `?` /* ? */ -- ?\n, 1 # ?\n");
        assertThat(inline("SELECT 'it''s ?', 'a\\'?', ?", List.of(2L), UTF8))
                .isEqualTo("SELECT 'it''s ?', 'a\\'?', 2");
    }

    @Test
    void nullsBytesAndDoubles() {
        assertThat(inline("VALUES (?, ?, ?, ?)", Arrays.asList(null, new byte[] {0, (byte) 0xFF}, 0.5d, 1e300), UTF8))
                .isEqualTo("VALUES (NULL, X'00FF', 0.5e0, 1.0E300)");
    }

    @Test
    void booleansAndTemporalValues() {
        assertThat(inline("VALUES (?, ?, ?, ?)", List.of(true, false, LocalDate.of(2024, 1, 2), LocalDateTime.of(2024, 1, 2, 3, 4, 5)), UTF8))
                .isEqualTo("VALUES (1, 0, _utf8mb4 X'323032342D30312D3032', _utf8mb4 X'323032342D30312D30322030333A30343A3035')");
    }

    @Test
    void stringsGoBackInTheClientsCharacterSetByteForByte() {
        // A latin1 client's 'é£' and a utf8mb4 client's malformed bytes: the very bytes, introduced by the client's character
        // set, or as binary where they are not valid in it.
        String latin1 = ClientCharset.LATIN1.decode(new byte[] {(byte) 0xE9, (byte) 0xA3, (byte) 0x81});
        assertThat(inline("SELECT ?", List.of(latin1), ClientCharset.LATIN1)).isEqualTo("SELECT _latin1 X'E9A381'");
        String broken = UTF8.decode(new byte[] {(byte) 0xC3, 0x28, (byte) 0x80});
        assertThat(inline("SELECT ?", List.of(broken), UTF8)).isEqualTo("SELECT _binary X'C32880'");
        assertThat(inline("SELECT ?", List.of("x"), ClientCharset.BINARY)).isEqualTo("SELECT _binary X'78'");
    }

    @Test
    void aCountMismatchIsAnError() {
        assertThatThrownBy(() -> inline("SELECT ?, ?", List.of(1L), UTF8)).isInstanceOf(ShardgateException.class);
        assertThatThrownBy(() -> inline("SELECT ?", List.of(1L, 2L), UTF8)).isInstanceOf(ShardgateException.class);
    }
}
