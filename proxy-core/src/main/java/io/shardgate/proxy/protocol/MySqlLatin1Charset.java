package io.shardgate.proxy.protocol;

import java.nio.charset.Charset;
import java.util.Map;

/**
 * MySQL's latin1 as a {@link ClientCharset}: cp1252 with its five undefined bytes 0x81, 0x8D, 0x8F,
 * 0x90 and 0x9D mapped to U+0081.. and back, so every byte sequence round-trips.
 */
final class MySqlLatin1Charset extends ClientCharset {
    private static final char[] TO_CHAR = new char[256];
    private static final Map<Character, Byte> HIGH = new java.util.HashMap<>();

    static {
        byte[] all = new byte[256];
        for (int i = 0; i < 256; i++) {
            all[i] = (byte) i;
        }
        String cp1252 = new String(all, Charset.forName("windows-1252"));
        for (int i = 0; i < 256; i++) {
            char c = cp1252.charAt(i);
            // The five bytes cp1252 leaves undefined are C1 controls in MySQL's latin1.
            TO_CHAR[i] = c == '\uFFFD' ? (char) i : c;
            if (TO_CHAR[i] >= 0x100) {
                HIGH.put(TO_CHAR[i], (byte) i);
            }
        }
    }

    MySqlLatin1Charset() {
        super("latin1");
    }

    @Override
    public boolean lossless() {
        return true;
    }

    @Override
    public String decode(byte[] bytes, int offset, int length) {
        char[] chars = new char[length];
        for (int i = 0; i < length; i++) {
            chars[i] = TO_CHAR[bytes[offset + i] & 0xFF];
        }
        return new String(chars);
    }

    @Override
    public byte[] encode(CharSequence text, int from, int to) {
        byte[] out = new byte[to - from];
        for (int i = from; i < to; i++) {
            char c = text.charAt(i);
            int b;
            if (c < 0x100 && TO_CHAR[c] == c) {
                b = c;
            } else {
                Byte high = HIGH.get(c);
                if (high == null) {
                    throw ClientCharset.UnmappableTextException.unmappable(name(), Character.codePointAt(text, i));
                }
                b = high;
            }
            out[i - from] = (byte) b;
        }
        return out;
    }
}
