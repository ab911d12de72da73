package io.shardgate.proxy.auth;

import io.shardgate.proxy.config.UserConfig;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.HexFormat;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Known answers from a real MariaDB 10.11.19: {@code SELECT PASSWORD('secret')} printed
 * {@code *14E65567ABDB5135D0CFD9A70B3032C179A49EE7}, and PyMySQL 1.0.2 logged in to it as a user
 * with that password, sending {@link #MARIADB_RESPONSE} for the server's nonce {@link #MARIADB_NONCE}
 * (captured by wrapping {@code pymysql._auth.scramble_native_password}; the server accepted it).
 */
class NativePasswordTest {
    private static final HexFormat HEX = HexFormat.of();
    private static final byte[] SECRET = bytes("secret");
    private static final byte[] SECRET_STAGE2 = HEX.parseHex("14e65567abdb5135d0cfd9a70b3032c179a49ee7");
    private static final byte[] MARIADB_NONCE = bytes("gp}E}is(hUQu|.m[^I1Y");
    private static final byte[] MARIADB_RESPONSE = HEX.parseHex("3a649342db98b010fbd21ecade37d87ac8240358");
    /** Bytes 0x21..0x34. */
    private static final byte[] FIXED_NONCE = bytes("!\"#$%&'()*+,-./01234");

    @Test
    void stage2MatchesMariadbPassword() {
        assertThat(UserConfig.withPassword("u", "secret", false, UserConfig.NATIVE).nativeStage2()).isEqualTo(SECRET_STAGE2);
        // SELECT PASSWORD('pässwörd') from the mariadb CLI (UTF-8 client) printed *0225EC50...
        assertThat(UserConfig.withPassword("u", "pässwörd", false, UserConfig.NATIVE).nativeStage2())
                .isEqualTo(HEX.parseHex("0225ec5004abb0b8cb557541fe53de1a5d8cc825"));
    }

    @Test
    void scrambleIsWhatMariadbAccepted() {
        assertThat(NativePassword.scramble(SECRET, MARIADB_NONCE)).isEqualTo(MARIADB_RESPONSE);
    }

    @Test
    void verifyAcceptsWhatMariadbAccepted() {
        assertThat(NativePassword.verify(MARIADB_NONCE, MARIADB_RESPONSE, SECRET_STAGE2)).isTrue();
    }

    @Test
    void scrambleMatchesPyMysqlForFixedNonce() {
        // pymysql._auth.scramble_native_password(pw, bytes(range(0x21, 0x35)))
        assertThat(NativePassword.scramble(SECRET, FIXED_NONCE))
                .isEqualTo(HEX.parseHex("1f44f306295a10870fd7895d358cb5f975d7d47f"));
        assertThat(NativePassword.scramble(bytes("pässwörd"), FIXED_NONCE))
                .isEqualTo(HEX.parseHex("6704168642cf4532c962bd4f974022132ab86688"));
    }

    @Test
    void roundTripWithFreshNonces() {
        SecureRandom random = new SecureRandom();
        byte[] stage2 = UserConfig.withPassword("u", "pässwörd", false, UserConfig.NATIVE).nativeStage2();
        for (int i = 0; i < 50; i++) {
            byte[] nonce = Scramble.generate(random);
            assertThat(NativePassword.verify(nonce, NativePassword.scramble(bytes("pässwörd"), nonce), stage2)).isTrue();
        }
    }

    @Test
    void wrongPasswordIsRejected() {
        assertThat(NativePassword.verify(MARIADB_NONCE, NativePassword.scramble(bytes("Secret"), MARIADB_NONCE), SECRET_STAGE2)).isFalse();
    }

    @Test
    void responseForAnotherNonceIsRejected() {
        assertThat(NativePassword.verify(FIXED_NONCE, MARIADB_RESPONSE, SECRET_STAGE2)).isFalse();
    }

    @Test
    void everySingleBitFlipIsRejected() {
        for (int bit = 0; bit < 160; bit++) {
            byte[] response = MARIADB_RESPONSE.clone();
            response[bit / 8] ^= (byte) (1 << (bit % 8));
            assertThat(NativePassword.verify(MARIADB_NONCE, response, SECRET_STAGE2)).as("bit %d", bit).isFalse();
        }
    }

    @Test
    void wrongLengthResponseIsRejectedNotThrown() {
        assertThat(NativePassword.verify(MARIADB_NONCE, new byte[19], SECRET_STAGE2)).isFalse();
        byte[] longer = Arrays.copyOf(MARIADB_RESPONSE, 21);
        assertThat(NativePassword.verify(MARIADB_NONCE, longer, SECRET_STAGE2)).isFalse();
    }

    @Test
    void emptyPasswordScramblesToEmptyResponse() {
        assertThat(NativePassword.scramble(new byte[0], FIXED_NONCE)).isEmpty();
    }

    @Test
    void emptyResponseIsValidOnlyForTheEmptyPassword() {
        byte[] emptyStage2 = UserConfig.withPassword("u", "", false, UserConfig.NATIVE).nativeStage2();
        assertThat(NativePassword.verify(FIXED_NONCE, new byte[0], emptyStage2)).isTrue();
        assertThat(NativePassword.verify(FIXED_NONCE, new byte[] {0}, emptyStage2)).isTrue();
        assertThat(NativePassword.verify(FIXED_NONCE, new byte[0], new byte[0])).isTrue();
        assertThat(NativePassword.verify(FIXED_NONCE, new byte[0], SECRET_STAGE2)).isFalse();
        assertThat(NativePassword.verify(FIXED_NONCE, new byte[] {0}, SECRET_STAGE2)).isFalse();
    }

    @Test
    void userWithEmptyPasswordIsNotAcceptedWithAScramble() {
        byte[] emptyStage2 = UserConfig.withPassword("u", "", false, UserConfig.NATIVE).nativeStage2();
        assertThat(NativePassword.verify(FIXED_NONCE, NativePassword.scramble(SECRET, FIXED_NONCE), emptyStage2)).isFalse();
    }

    @Test
    void badArgumentsThrow() {
        assertThatThrownBy(() -> NativePassword.scramble(SECRET, new byte[21]))
                .hasMessage("nonce: length 21 (expected: 20)");
        assertThatThrownBy(() -> NativePassword.verify(FIXED_NONCE, null, SECRET_STAGE2)).hasMessage("response is null");
        assertThatThrownBy(() -> NativePassword.scramble(null, FIXED_NONCE)).hasMessage("passwordUtf8 is null");
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
