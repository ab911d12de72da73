package io.shardgate.proxy.protocol;

import io.netty.buffer.Unpooled;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

class AsciiTest {

    @Test
    void aHighByteAnywhereIsFound() {
        for (int length = 0; length <= 40; length++) {
            byte[] bytes = new byte[length];
            java.util.Arrays.fill(bytes, (byte) 'a');
            assertThat(Ascii.only(bytes)).as("length %d", length).isTrue();
            for (int at = 0; at < length; at++) {
                for (int high : new int[] {0x80, 0xC3, 0xFF}) {
                    bytes[at] = (byte) high;
                    assertThat(Ascii.only(bytes)).as("length %d, 0x%X at %d", length, high, at).isFalse();
                }
                bytes[at] = (byte) 0x7F;
                assertThat(Ascii.only(bytes)).isTrue();
                bytes[at] = 'a';
            }
        }
    }

    @Test
    void statementsDecodeAsBeforeWithAndWithoutNonAsciiBytes() {
        String ascii = "INSERT INTO t VALUES " + "(1, 'abc'),".repeat(100) + "(2, 'x')";
        String utf8 = ascii + " -- caf\u00e9 \u20ac";
        byte[] malformed = (ascii + " \u00e9").getBytes(StandardCharsets.ISO_8859_1); // a lone 0xE9 is no UTF-8
        assertThat(ClientCharset.UTF8MB4.decode(Unpooled.wrappedBuffer(ascii.getBytes(StandardCharsets.UTF_8)), 0, ascii.length()))
                .isEqualTo(ascii);
        byte[] utf8Bytes = utf8.getBytes(StandardCharsets.UTF_8);
        assertThat(ClientCharset.UTF8MB4.decode(Unpooled.wrappedBuffer(utf8Bytes), 0, utf8Bytes.length)).isEqualTo(utf8);
        String read = ClientCharset.UTF8MB4.decode(Unpooled.wrappedBuffer(malformed), 0, malformed.length);
        assertThat(read).isEqualTo(ClientCharset.UTF8MB4.decode(malformed));
        assertThat(ClientCharset.UTF8MB4.encode(read)).isEqualTo(malformed);
        assertThat(ClientCharset.LATIN1.decode(Unpooled.wrappedBuffer(malformed), 1, malformed.length - 1))
                .isEqualTo(ascii.substring(1) + " \u00e9");
    }
}
