package io.shardgate.router.vindex;

import io.shardgate.router.collation.Collations;
import io.shardgate.router.value.SqlValue;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class KeyTypeTest {

    private final KeyType integer = KeyType.INTEGER;

    @Test
    void integerValuesEqualAsNumbersShareOneKey() {
        ShardKey five = integer.lookup(SqlValue.of(5L)).orElseThrow();
        assertThat(integer.lookup(SqlValue.of("5"))).contains(five);
        assertThat(integer.lookup(SqlValue.of(new BigDecimal("5.00")))).contains(five);
        assertThat(integer.lookup(SqlValue.of(5.0d))).contains(five);
        assertThat(integer.lookup(SqlValue.of(" 5"))).contains(five);
        assertThat(integer.lookup(SqlValue.of("5abc"))).as("MySQL compares '5abc' = 5 as doubles: true").contains(five);
        assertThat(integer.lookup(SqlValue.of(BigInteger.valueOf(5)))).contains(five);
        assertThat(new String(five.canonical(), StandardCharsets.US_ASCII)).isEqualTo("5");
        assertThat(integer.lookup(SqlValue.of("abc"))).contains(integer.lookup(SqlValue.of(0L)).orElseThrow());
        assertThat(integer.lookup(SqlValue.of(-7L)).orElseThrow().toString()).isEqualTo("-7");
    }

    @Test
    void integerLookupsThatMatchNoOneValueScatter() {
        assertThat(integer.lookup(SqlValue.of(new BigDecimal("5.5")))).isEmpty();
        assertThat(integer.lookup(SqlValue.of(5.5d))).isEmpty();
        assertThat(integer.lookup(SqlValue.of("9007199254740993"))).as("beyond double precision").isEmpty();
        assertThat(integer.lookup(null)).isEmpty();
        assertThat(integer.lookup(SqlValue.of(new byte[] {0x35}))).isEmpty();
    }

    @Test
    void integerStoresRoundAsMariaDbDoes() {
        assertThat(stored(integer, "5.5")).isEqualTo("6");
        assertThat(stored(integer, new BigDecimal("-2.5"))).isEqualTo("-3");
        assertThat(stored(integer, 2.5d)).as("doubles round half to even").isEqualTo("2");
        assertThat(stored(integer, " 7 ")).isEqualTo("7");
        assertThat(stored(integer, "1e3")).isEqualTo("1000");
        assertThat(stored(integer, new BigInteger("18446744073709551615"))).isEqualTo("18446744073709551615");
        assertThat(integer.store(SqlValue.of("5abc"))).isEmpty();
        assertThat(integer.store(SqlValue.of(""))).isEmpty();
        assertThat(integer.store(SqlValue.of("0x10"))).isEmpty();
    }

    @Test
    void stringKeysFollowTheCollation() {
        KeyType general = KeyType.of("string", null);
        assertThat(general.lookup(SqlValue.of("Alice"))).isEqualTo(general.lookup(SqlValue.of("ALICE  ")));
        assertThat(general.lookup(SqlValue.of("José"))).isEqualTo(general.lookup(SqlValue.of("jose")));
        assertThat(general.lookup(SqlValue.of(5L))).as("a string column compared with a number compares as doubles").isEmpty();
        assertThat(general.store(SqlValue.of(5L))).isEqualTo(general.lookup(SqlValue.of("5")));
        assertThat(general.store(SqlValue.of(new BigDecimal("5.50")))).isEqualTo(general.lookup(SqlValue.of("5.50")));
        assertThat(general.store(SqlValue.of(1.5d))).isEmpty();
        KeyType unicode = KeyType.of("string", "utf8mb4_unicode_ci");
        assertThat(unicode.lookup(SqlValue.of("Straße"))).isEqualTo(unicode.lookup(SqlValue.of("STRASSE")));
        KeyType bin = KeyType.of("string", "utf8mb4_bin");
        assertThat(bin.lookup(SqlValue.of("a"))).isNotEqualTo(bin.lookup(SqlValue.of("A")));
        assertThat(bin.lookup(SqlValue.of("a "))).isEqualTo(bin.lookup(SqlValue.of("a")));
        assertThat(general.lookup(SqlValue.of("a".getBytes(StandardCharsets.UTF_8)))).isEqualTo(general.lookup(SqlValue.of("A")));
        assertThat(general.lookup(SqlValue.of(new byte[] {(byte) 0xFF}))).as("not UTF-8").isEmpty();
    }

    @Test
    void binaryKeysAreBytes() {
        KeyType binary = KeyType.of("binary", null);
        assertThat(binary.lookup(SqlValue.of("ab"))).isEqualTo(binary.lookup(SqlValue.of(new byte[] {'a', 'b'})));
        assertThat(binary.lookup(SqlValue.of("ab "))).isNotEqualTo(binary.lookup(SqlValue.of("ab")));
        assertThat(binary.lookup(SqlValue.of(1L))).isEmpty();
        assertThat(binary.store(SqlValue.of(12L))).isEqualTo(binary.lookup(SqlValue.of("12")));
    }

    @Test
    void binaryKeysStoreAndHashTheirBytesEvenWhenTheyAreNotUtf8() {
        byte[] notUtf8 = {(byte) 0xFF, 0x00, (byte) 0xE9};
        ShardKey stored = KeyType.BINARY.store(SqlValue.ofBytes(notUtf8)).orElseThrow();
        assertThat(stored.canonical()).containsExactly(notUtf8);
        assertThat(KeyType.BINARY.lookup(SqlValue.ofBytes(notUtf8))).contains(stored);
        assertThat(new HashVindex(KeyType.BINARY).keyspaceId(stored)).isEqualTo(XxHash64.hash(notUtf8));
        assertThat(stored.toString()).isEqualTo("0xff00e9");
    }

    @Test
    void binaryKeysFromUtf8ConnectionTextAreTheBytesTheClientSent() {
        // A utf8mb4 statement with the malformed bytes FF and 80 reads as text with U+DCFF and U+DC80 (surrogateescape).
        String decoded = "a\uDCFF\u00E9\uDC80\uD83D\uDE00";
        byte[] sent = {'a', (byte) 0xFF, (byte) 0xC3, (byte) 0xA9, (byte) 0x80, (byte) 0xF0, (byte) 0x9F, (byte) 0x98, (byte) 0x80};
        ShardKey fromText = KeyType.BINARY.lookup(SqlValue.of(decoded)).orElseThrow();
        assertThat(fromText.canonical()).containsExactly(sent);
        assertThat(KeyType.BINARY.lookup(SqlValue.of(sent))).contains(fromText);
        assertThat(KeyType.BINARY.store(SqlValue.of(decoded))).contains(fromText);
        assertThat(KeyType.BINARY.store(SqlValue.of(sent))).contains(fromText);
    }

    @Test
    void keysOrderAsTheColumn() {
        assertThat(integer.lookup(SqlValue.of(9L)).orElseThrow()).isLessThan(integer.lookup(SqlValue.of(10L)).orElseThrow());
        KeyType general = KeyType.string(Collations.UTF8MB4_GENERAL_CI);
        assertThat(general.lookup(SqlValue.of("b")).orElseThrow()).isGreaterThan(general.lookup(SqlValue.of("A")).orElseThrow());
    }

    @Test
    void parsesConfig() {
        assertThat(KeyType.of("INTEGER", null)).isEqualTo(KeyType.INTEGER);
        assertThat(KeyType.of("string", "utf8_bin").toString()).isEqualTo("string utf8mb3_bin");
        assertThatThrownBy(() -> KeyType.of("string", "utf8mb4_0900_ai_ci"))
                .hasMessageStartingWith("collation 'utf8mb4_0900_ai_ci' is not supported for shard keys; supported: [utf8mb4_general_ci");
        assertThatThrownBy(() -> KeyType.of("integer", "utf8mb4_bin"))
                .hasMessage("a collation applies to string keys, not to integer keys");
        assertThatThrownBy(() -> KeyType.of("uuid", null)).hasMessage("key type 'uuid' must be integer, string or binary");
    }

    private static String stored(KeyType type, Object value) {
        Optional<ShardKey> key = type.store(SqlValue.of(value));
        assertThat(key).as("store %s", value).isPresent();
        return key.orElseThrow().toString();
    }
}
