package io.shardgate.proxy.auth;

import org.junit.jupiter.api.Test;

import java.security.SecureRandom;
import java.util.HashSet;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ScrambleTest {
    @Test
    void everyByteIsPrintableSevenBitAndNeverNul() {
        SecureRandom random = new SecureRandom();
        Set<Byte> seen = new HashSet<>();
        for (int i = 0; i < 2_000; i++) {
            byte[] nonce = Scramble.generate(random);
            assertThat(nonce).hasSize(20);
            for (byte b : nonce) {
                assertThat(b & 0xFF).isBetween(0x21, 0x7E);
                seen.add(b);
            }
        }
        // 40,000 draws over 94 values: every one of them shows up, so the range is used in full.
        assertThat(seen).hasSize(94);
    }

    @Test
    void twoNoncesDiffer() {
        SecureRandom random = new SecureRandom();
        assertThat(Scramble.generate(random)).isNotEqualTo(Scramble.generate(random));
    }

    @Test
    void usesTheRandomItIsGiven() throws Exception {
        SecureRandom first = SecureRandom.getInstance("SHA1PRNG");
        first.setSeed(42);
        SecureRandom second = SecureRandom.getInstance("SHA1PRNG");
        second.setSeed(42);
        assertThat(Scramble.generate(first)).isEqualTo(Scramble.generate(second));
    }

    @Test
    void nonceWithTrailingNulIsRefused() {
        byte[] nonce = new byte[21];
        assertThatThrownBy(() -> Scramble.checkNonce(nonce))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("nonce: length 21 (expected: 20)");
        assertThatThrownBy(() -> Scramble.generate(null)).hasMessage("random is null");
    }
}
