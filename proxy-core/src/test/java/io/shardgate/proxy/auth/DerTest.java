package io.shardgate.proxy.auth;

import org.junit.jupiter.api.Test;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.HexFormat;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Expected encodings from X.690's rules, cross-checked with {@code openssl asn1parse}. */
class DerTest {
    private static final HexFormat HEX = HexFormat.of();

    @Test
    void objectIdentifiers() {
        assertThat(hex(Der.oid("2.5.4.3"))).isEqualTo("0603550403");
        assertThat(hex(Der.oid("1.2.840.113549.1.1.11"))).isEqualTo("06092a864886f70d01010b");
        assertThat(hex(Der.oid("1.2.840.10045.4.3.2"))).isEqualTo("06082a8648ce3d040302");
        assertThat(hex(Der.oid("2.999.3"))).isEqualTo("0603883703");
        assertThatThrownBy(() -> Der.oid("1.40")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void integersAreMinimalTwosComplement() {
        assertThat(hex(Der.integer(0))).isEqualTo("020100");
        assertThat(hex(Der.integer(127))).isEqualTo("02017f");
        assertThat(hex(Der.integer(128))).isEqualTo("02020080");
        assertThat(hex(Der.integer(-129))).isEqualTo("0202ff7f");
        assertThat(hex(Der.integer(BigInteger.ONE.shiftLeft(127)))).isEqualTo("021100" + "80" + "00".repeat(15));
    }

    @Test
    void lengthsUseLongFormFrom128() {
        assertThat(hex(Der.octetString(new byte[127])).substring(0, 4)).isEqualTo("047f");
        assertThat(hex(Der.octetString(new byte[128])).substring(0, 6)).isEqualTo("048180");
        assertThat(hex(Der.octetString(new byte[256])).substring(0, 8)).isEqualTo("04820100");
        assertThat(Der.octetString(new byte[70_000])).hasSize(70_000 + 5);
    }

    @Test
    void times() {
        assertThat(hex(Der.time(Instant.parse("2026-11-23T02:24:55.999Z"))))
                .isEqualTo("170d" + ascii("261123022455Z"));
        assertThat(hex(Der.time(Instant.parse("2050-01-01T00:00:00Z"))))
                .isEqualTo("180f" + ascii("20500101000000Z"));
        assertThat(hex(Der.time(Instant.parse("2049-12-31T23:59:59Z")))).startsWith("170d");
        assertThat(hex(Der.time(Instant.parse("1949-12-31T23:59:59Z")))).startsWith("180f");
    }

    @Test
    void otherTypes() {
        assertThat(hex(Der.bool(true))).isEqualTo("0101ff");
        assertThat(hex(Der.nullValue())).isEqualTo("0500");
        assertThat(hex(Der.bitString(new byte[] {(byte) 0xA0}, 5))).isEqualTo("030205a0");
        assertThat(hex(Der.sequence())).isEqualTo("3000");
        assertThat(hex(Der.sequence(Der.nullValue(), Der.bool(false)))).isEqualTo("300505000101" + "00");
        assertThat(hex(Der.explicit(3, Der.nullValue()))).isEqualTo("a3020500");
        assertThat(hex(Der.implicitPrimitive(7, new byte[] {127, 0, 0, 1}))).isEqualTo("87047f000001");
        assertThat(hex(Der.utf8String("ü"))).isEqualTo("0c02c3bc");
    }

    private static String ascii(String text) {
        return HEX.formatHex(text.getBytes(StandardCharsets.US_ASCII));
    }

    private static String hex(byte[] der) {
        return HEX.formatHex(der);
    }
}
