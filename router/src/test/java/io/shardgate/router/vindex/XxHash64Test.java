package io.shardgate.router.vindex;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

class XxHash64Test {

    /** Reference values from libxxhash 0.8.1, {@code XXH64(input, length, 0)}. */
    @Test
    void matchesTheReferenceImplementation() {
        assertThat(hash("")).isEqualTo(0xEF46DB3751D8E999L);
        assertThat(hash("a")).isEqualTo(0xD24EC4F1A98C6E5BL);
        assertThat(hash("abc")).isEqualTo(0x44BC2CF5AD770999L);
        assertThat(hash("5")).isEqualTo(0x6A81B47405B648EDL);
        assertThat(hash("-1")).isEqualTo(0x3D62C7C8A7A6E2D8L);
        assertThat(hash("Nobody inspects the spammish repetition")).isEqualTo(0xFBCEA83C8A378BF1L);
        assertThat(hash("0123456789abcdef0123456789abcdef0")).isEqualTo(0xE87684F08D6D0816L);
        byte[] hundred = new byte[100];
        for (int i = 0; i < hundred.length; i++) {
            hundred[i] = (byte) i;
        }
        assertThat(XxHash64.hash(hundred)).isEqualTo(0x6AC1E58032166597L);
    }

    private static long hash(String s) {
        return XxHash64.hash(s.getBytes(StandardCharsets.US_ASCII));
    }
}
