package io.shardgate.proxy.auth;

import io.shardgate.proxy.config.UserConfig;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.HexFormat;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * MariaDB has no caching_sha2_password, so the known answers come from an independent client
 * implementation: PyMySQL 1.0.2's {@code pymysql._auth.scramble_caching_sha2} and Python's hashlib.
 */
class CachingSha2PasswordTest {
    private static final HexFormat HEX = HexFormat.of();
    private static final byte[] SECRET = bytes("secret");
    /** hashlib.sha256(hashlib.sha256(b"secret").digest()).hexdigest() */
    private static final byte[] SECRET_SHA256_STAGE2 = HEX.parseHex("3881219d087dd9c634373fd33dfa33a2cb6bfc6c520b64b8bb60ef2ceb534ae7");
    private static final byte[] FIXED_NONCE = bytes("!\"#$%&'()*+,-./01234");
    private static final byte[] SECRET_RESPONSE = HEX.parseHex("3e6e1d1225dfe8531b46e47caf897453dba8211b1e2fdca5e10ef0f98718b18e");

    @Test
    void statusBytesAreTheProtocolOnes() {
        assertThat(CachingSha2Password.REQUEST_PUBLIC_KEY).isEqualTo((byte) 2);
        assertThat(CachingSha2Password.FAST_AUTH_SUCCESS).isEqualTo((byte) 3);
        assertThat(CachingSha2Password.PERFORM_FULL_AUTHENTICATION).isEqualTo((byte) 4);
    }

    @Test
    void stage2MatchesUserConfig() {
        assertThat(UserConfig.withPassword("u", "secret", false, UserConfig.NATIVE).sha256Stage2()).hasValue(SECRET_SHA256_STAGE2);
    }

    @Test
    void scrambleMatchesPyMysql() {
        assertThat(CachingSha2Password.scramble(SECRET, FIXED_NONCE)).isEqualTo(SECRET_RESPONSE);
        assertThat(CachingSha2Password.scramble(bytes("pässwörd"), FIXED_NONCE))
                .isEqualTo(HEX.parseHex("e0b14197b8cab89d6d258979fb40286e6740d6d242199b8e1c1e01760116acb5"));
    }

    @Test
    void verifyFastAcceptsPyMysqlResponse() {
        assertThat(CachingSha2Password.verifyFast(FIXED_NONCE, SECRET_RESPONSE, SECRET_SHA256_STAGE2)).isTrue();
    }

    @Test
    void roundTripWithFreshNonces() {
        SecureRandom random = new SecureRandom();
        byte[] stage2 = UserConfig.withPassword("u", "pässwörd", false, UserConfig.NATIVE).sha256Stage2().orElseThrow();
        for (int i = 0; i < 50; i++) {
            byte[] nonce = Scramble.generate(random);
            assertThat(CachingSha2Password.verifyFast(nonce, CachingSha2Password.scramble(bytes("pässwörd"), nonce), stage2)).isTrue();
        }
    }

    @Test
    void wrongPasswordWrongNonceAndFlippedBitsAreRejected() {
        assertThat(CachingSha2Password.verifyFast(FIXED_NONCE, CachingSha2Password.scramble(bytes("secret "), FIXED_NONCE), SECRET_SHA256_STAGE2)).isFalse();
        byte[] otherNonce = FIXED_NONCE.clone();
        otherNonce[19] = 'x';
        assertThat(CachingSha2Password.verifyFast(otherNonce, SECRET_RESPONSE, SECRET_SHA256_STAGE2)).isFalse();
        for (int bit = 0; bit < 256; bit++) {
            byte[] response = SECRET_RESPONSE.clone();
            response[bit / 8] ^= (byte) (1 << (bit % 8));
            assertThat(CachingSha2Password.verifyFast(FIXED_NONCE, response, SECRET_SHA256_STAGE2)).as("bit %d", bit).isFalse();
        }
    }

    @Test
    void nativeResponseIsNotAFastResponse() {
        assertThat(CachingSha2Password.verifyFast(FIXED_NONCE, NativePassword.scramble(SECRET, FIXED_NONCE), SECRET_SHA256_STAGE2)).isFalse();
    }

    @Test
    void emptyPassword() {
        byte[] emptyStage2 = UserConfig.withPassword("u", "", false, UserConfig.NATIVE).sha256Stage2().orElseThrow();
        assertThat(CachingSha2Password.scramble(new byte[0], FIXED_NONCE)).isEmpty();
        // libmysql sends a single 0x00 for "no password", PyMySQL an empty packet
        assertThat(CachingSha2Password.verifyFast(FIXED_NONCE, new byte[] {0}, emptyStage2)).isTrue();
        assertThat(CachingSha2Password.verifyFast(FIXED_NONCE, new byte[0], emptyStage2)).isTrue();
        assertThat(CachingSha2Password.verifyFast(FIXED_NONCE, new byte[0], SECRET_SHA256_STAGE2)).isFalse();
        assertThat(CachingSha2Password.verifyFast(FIXED_NONCE, SECRET_RESPONSE, emptyStage2)).isFalse();
    }

    @Test
    void verifyPlainUsesSha256WhenConfiguredWithThePassword() {
        UserConfig user = UserConfig.withPassword("u", "pässwörd", false, UserConfig.NATIVE);
        assertThat(CachingSha2Password.verifyPlain(bytes("pässwörd"), user)).isTrue();
        assertThat(CachingSha2Password.verifyPlain(bytes("pässwörd\0"), user)).as("NUL-terminated, as sent").isTrue();
        assertThat(CachingSha2Password.verifyPlain(bytes("passwörd"), user)).isFalse();
        assertThat(CachingSha2Password.verifyPlain(bytes("pässwörd\0\0"), user)).as("only one NUL is stripped").isFalse();
    }

    @Test
    void verifyPlainFallsBackToTheNativeHash() {
        UserConfig user = UserConfig.withNativeHash("u", "*14E65567ABDB5135D0CFD9A70B3032C179A49EE7", false, UserConfig.NATIVE);
        assertThat(user.sha256Stage2()).isEmpty();
        assertThat(CachingSha2Password.verifyPlain(bytes("secret\0"), user)).isTrue();
        assertThat(CachingSha2Password.verifyPlain(bytes("secret"), user)).isTrue();
        assertThat(CachingSha2Password.verifyPlain(bytes("secreT"), user)).isFalse();
        assertThat(CachingSha2Password.verifyPlain(new byte[0], user)).isFalse();
    }

    @Test
    void verifyPlainEmptyPassword() {
        UserConfig user = UserConfig.withPassword("u", "", false, UserConfig.NATIVE);
        assertThat(CachingSha2Password.verifyPlain(new byte[] {0}, user)).isTrue();
        assertThat(CachingSha2Password.verifyPlain(bytes("x"), user)).isFalse();
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
