package io.shardgate.proxy.protocol;

import io.shardgate.router.value.SqlValue;
import org.junit.jupiter.api.Test;

import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ClientCharsetTest {
    private static final ClientCharset[] LOSSLESS = {ClientCharset.UTF8MB4, ClientCharset.UTF8MB3, ClientCharset.LATIN1,
            ClientCharset.BINARY, ClientCharset.ASCII};

    @Test
    void utf8TextGivesTheRouterTheBytesTheClientSent() {
        // A VARBINARY shard key in a utf8mb4 statement: the router hashes SqlValue.utf8Bytes of the decoded text.
        Random random = new Random(17);
        for (ClientCharset charset : new ClientCharset[] {ClientCharset.UTF8MB4, ClientCharset.UTF8MB3}) {
            for (int run = 0; run < 2_000; run++) {
                byte[] bytes = run % 2 == 0 ? mostlyUtf8(random) : new byte[random.nextInt(40)];
                if (run % 2 != 0) {
                    random.nextBytes(bytes);
                }
                assertThat(SqlValue.utf8Bytes(charset.decode(bytes)))
                        .as(charset.name() + " " + java.util.HexFormat.of().formatHex(bytes)).isEqualTo(bytes);
            }
        }
    }

    @Test
    void everyByteSequenceRoundTripsExactly() {
        Random random = new Random(16);
        for (ClientCharset charset : LOSSLESS) {
            assertThat(charset.lossless()).as(charset.name()).isTrue();
            for (int run = 0; run < 5_000; run++) {
                byte[] bytes = new byte[random.nextInt(40)];
                random.nextBytes(bytes);
                if (run % 3 == 0) {
                    // Mostly valid UTF-8 with damage here and there: where the decoder's edge cases are.
                    bytes = mostlyUtf8(random);
                }
                String text = charset.decode(bytes);
                assertThat(charset.encode(text)).as(charset.name() + " " + java.util.HexFormat.of().formatHex(bytes)).isEqualTo(bytes);
                assertThat(charset.exact(bytes, text)).isTrue();
            }
            byte[] all = new byte[256];
            for (int i = 0; i < 256; i++) {
                all[i] = (byte) i;
            }
            assertThat(charset.encode(charset.decode(all))).isEqualTo(all);
        }
    }

    @Test
    void readingFromABufferGivesWhatReadingItsBytesGives() {
        Random random = new Random(25);
        ClientCharset[] charsets = {ClientCharset.UTF8MB4, ClientCharset.LATIN1, ClientCharset.BINARY, ClientCharset.ASCII,
                ClientCharset.named("sjis"), ClientCharset.named("cp1251"), ClientCharset.named("swe7")};
        for (ClientCharset charset : charsets) {
            for (int run = 0; run < 500; run++) {
                byte[] bytes = new byte[random.nextInt(40)];
                random.nextBytes(bytes);
                if (run % 2 == 0) {
                    for (int i = 0; i < bytes.length; i++) {
                        bytes[i] &= 0x7F; // all ASCII: the path that reads the buffer directly
                    }
                }
                // A statement sits after the command byte, in a direct buffer as Netty's pool hands them out.
                io.netty.buffer.ByteBuf buf = io.netty.buffer.Unpooled.directBuffer().writeByte(0x03).writeBytes(bytes);
                try {
                    assertThat(charset.decode(buf, 1, bytes.length)).as(charset.name()).isEqualTo(charset.decode(bytes));
                } finally {
                    buf.release();
                }
            }
        }
    }

    @Test
    void validUtf8ReadsAsUnicodeAndMalformedBytesAsEscapes() {
        String valid = "àéîõü £§ 😀 中文";
        assertThat(ClientCharset.UTF8MB4.decode(valid.getBytes(StandardCharsets.UTF_8))).isEqualTo(valid);
        assertThat(ClientCharset.UTF8MB4.decode(new byte[] {(byte) 0xC3, 0x28})).isEqualTo("\uDCC3(");
        assertThat(ClientCharset.UTF8MB4.decode(new byte[] {(byte) 0x80})).isEqualTo("\uDC80");
        // Overlong, surrogate and beyond-U+10FFFF forms are malformed too.
        assertThat(ClientCharset.UTF8MB4.decode(new byte[] {(byte) 0xC0, (byte) 0x80})).isEqualTo("\uDCC0\uDC80");
        assertThat(ClientCharset.UTF8MB4.decode(new byte[] {(byte) 0xED, (byte) 0xA0, (byte) 0x80})).isEqualTo("\uDCED\uDCA0\uDC80");
        assertThat(ClientCharset.UTF8MB4.decode(new byte[] {(byte) 0xF4, (byte) 0x90, (byte) 0x80, (byte) 0x80}))
                .isEqualTo("\uDCF4\uDC90\uDC80\uDC80");
        assertThatThrownBy(() -> ClientCharset.UTF8MB4.encode("\uD800")).isInstanceOf(ClientCharset.UnmappableTextException.class);
        assertThat(ClientCharset.UTF8MB4.valid(ClientCharset.UTF8MB4.decode("é 😀".getBytes(StandardCharsets.UTF_8)))).isTrue();
        assertThat(ClientCharset.UTF8MB4.valid(ClientCharset.UTF8MB4.decode(new byte[] {'a', (byte) 0x80}))).isFalse();
        assertThat(ClientCharset.LATIN1.valid(ClientCharset.LATIN1.decode(new byte[] {(byte) 0x81}))).isTrue();
        assertThat(ClientCharset.ASCII.valid(ClientCharset.ASCII.decode(new byte[] {(byte) 0x81}))).isFalse();
    }

    @Test
    void latin1IsMySqlsCp1252() {
        assertThat(ClientCharset.LATIN1.decode(new byte[] {(byte) 0x80, (byte) 0x81, (byte) 0x8D, (byte) 0x8F, (byte) 0x90,
                (byte) 0x9D, (byte) 0xE9})).isEqualTo("€\u0081\u008D\u008F\u0090\u009Dé");
        assertThat(ClientCharset.LATIN1.encode("àéîõü £§")).isEqualTo("àéîõü £§".getBytes(Charset.forName("windows-1252")));
        assertThatThrownBy(() -> ClientCharset.LATIN1.encode("😀")).isInstanceOf(ClientCharset.UnmappableTextException.class)
                .hasMessageContaining("U+1F600").hasMessageContaining("latin1");
        // A char cp1252 maps elsewhere (U+0080 is not a latin1 byte: € is 0x80).
        assertThatThrownBy(() -> ClientCharset.LATIN1.encode("\u0080")).isInstanceOf(ClientCharset.UnmappableTextException.class);
    }

    @Test
    void namesFollowCharacterSetClient() {
        assertThat(ClientCharset.named(null)).isSameAs(ClientCharset.UTF8MB4);
        assertThat(ClientCharset.named("utf8")).isSameAs(ClientCharset.UTF8MB3);
        assertThat(ClientCharset.named("UTF8MB3")).isSameAs(ClientCharset.UTF8MB3);
        assertThat(ClientCharset.named("latin1")).isSameAs(ClientCharset.LATIN1);
        assertThat(ClientCharset.named("binary")).isSameAs(ClientCharset.BINARY);
        assertThat(ClientCharset.named("cp1251").name()).isEqualTo("cp1251");
        assertThat(ClientCharset.named("cp1251").lossless()).isFalse();
    }

    @Test
    void otherCharacterSetsAreExactOnlyForValidText() {
        ClientCharset sjis = ClientCharset.named("sjis");
        byte[] valid = "表示".getBytes(Charset.forName("Shift_JIS")); // 0x95 0x5C: a trail byte that is a backslash in ASCII
        assertThat(sjis.exact(valid, sjis.decode(valid))).isTrue();
        assertThat(sjis.decode(valid)).isEqualTo("表示");
        byte[] invalid = {(byte) 0x81, 0x20};
        assertThat(sjis.exact(invalid, sjis.decode(invalid))).isFalse();
        // A character set Java does not have: read byte per char, exact only while it is ASCII.
        ClientCharset swe7 = ClientCharset.named("swe7");
        assertThat(swe7.exact("SELECT 1".getBytes(StandardCharsets.US_ASCII), "SELECT 1")).isTrue();
        assertThat(swe7.exact(new byte[] {(byte) 0xE9}, swe7.decode(new byte[] {(byte) 0xE9}))).isFalse();
        Random random = new Random(7);
        ClientCharset cp1251 = ClientCharset.named("cp1251");
        for (int run = 0; run < 1_000; run++) {
            byte[] bytes = new byte[random.nextInt(30)];
            random.nextBytes(bytes);
            String text = cp1251.decode(bytes);
            if (cp1251.exact(bytes, text)) {
                assertThat(cp1251.encode(text)).isEqualTo(bytes);
            }
        }
    }

    private static byte[] mostlyUtf8(Random random) {
        StringBuilder text = new StringBuilder();
        for (int i = random.nextInt(12); i > 0; i--) {
            int kind = random.nextInt(4);
            text.appendCodePoint(switch (kind) {
                case 0 -> 0x20 + random.nextInt(0x5F);
                case 1 -> 0x80 + random.nextInt(0x780);
                case 2 -> 0x800 + random.nextInt(0xD000);
                default -> 0x10000 + random.nextInt(0x100000);
            });
        }
        byte[] bytes = text.toString().getBytes(StandardCharsets.UTF_8);
        if (bytes.length > 0) {
            for (int i = random.nextInt(3); i > 0; i--) {
                int at = random.nextInt(bytes.length);
                bytes[at] = (byte) (random.nextBoolean() ? 0x80 + random.nextInt(0x80) : random.nextInt(256));
            }
            if (random.nextBoolean()) {
                bytes = java.util.Arrays.copyOf(bytes, random.nextInt(bytes.length + 1)); // cut mid-sequence
            }
        }
        return bytes;
    }
}
