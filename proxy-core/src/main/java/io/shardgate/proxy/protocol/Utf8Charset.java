package io.shardgate.proxy.protocol;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * utf8mb4 and utf8mb3 as a {@link ClientCharset}: UTF-8 where each byte of a malformed sequence
 * becomes a lone surrogate U+DC80..U+DCFF and back (Python's {@code surrogateescape}), so that
 * {@code encode(decode(b))} equals {@code b} for every byte sequence.
 */
final class Utf8Charset extends ClientCharset {
    Utf8Charset(String name) {
        super(name);
    }

    @Override
    public boolean lossless() {
        return true;
    }

    @Override
    public boolean valid(CharSequence decoded) {
        for (int i = 0; i < decoded.length(); i++) {
            char c = decoded.charAt(i);
            if (Character.isHighSurrogate(c) && i + 1 < decoded.length() && Character.isLowSurrogate(decoded.charAt(i + 1))) {
                i++;
            } else if (Character.isSurrogate(c)) {
                return false; // an escaped malformed byte
            }
        }
        return true;
    }

    @Override
    public String decode(byte[] bytes, int offset, int length) {
        // Fast paths first: ASCII (most statements), then the JDK's strict decoder for valid UTF-8.
        int end = offset + length;
        int i = offset;
        while (i < end && bytes[i] >= 0) {
            i++;
        }
        if (i == end) {
            return new String(bytes, offset, length, StandardCharsets.ISO_8859_1);
        }
        try {
            return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes, offset, length)).toString();
        } catch (CharacterCodingException e) {
            return decodeEscaping(bytes, offset, length);
        }
    }

    private static String decodeEscaping(byte[] bytes, int offset, int length) {
        StringBuilder out = new StringBuilder(length);
        int end = offset + length;
        int i = offset;
        while (i < end) {
            int b = bytes[i] & 0xFF;
            if (b < 0x80) {
                out.append((char) b);
                i++;
                continue;
            }
            int n = sequenceLength(bytes, i, end);
            if (n == 0) {
                out.append((char) (0xDC00 | b)); // a malformed byte: escaped, restored by encode
                i++;
                continue;
            }
            int codePoint = switch (n) {
                case 2 -> (b & 0x1F) << 6 | bytes[i + 1] & 0x3F;
                case 3 -> (b & 0x0F) << 12 | (bytes[i + 1] & 0x3F) << 6 | bytes[i + 2] & 0x3F;
                default -> (b & 0x07) << 18 | (bytes[i + 1] & 0x3F) << 12 | (bytes[i + 2] & 0x3F) << 6 | bytes[i + 3] & 0x3F;
            };
            out.appendCodePoint(codePoint);
            i += n;
        }
        return out.toString();
    }

    /** The length of the well-formed sequence at {@code i} (RFC 3629: no overlongs, surrogates or values past U+10FFFF), 0 if none. */
    private static int sequenceLength(byte[] bytes, int i, int end) {
        int b = bytes[i] & 0xFF;
        if (b >= 0xC2 && b <= 0xDF) {
            return i + 1 < end && continuation(bytes[i + 1]) ? 2 : 0;
        }
        if (b >= 0xE0 && b <= 0xEF) {
            if (i + 2 >= end || !continuation(bytes[i + 1]) || !continuation(bytes[i + 2])) {
                return 0;
            }
            int second = bytes[i + 1] & 0xFF;
            if (b == 0xE0 && second < 0xA0 || b == 0xED && second >= 0xA0) {
                return 0;
            }
            return 3;
        }
        if (b >= 0xF0 && b <= 0xF4) {
            if (i + 3 >= end || !continuation(bytes[i + 1]) || !continuation(bytes[i + 2]) || !continuation(bytes[i + 3])) {
                return 0;
            }
            int second = bytes[i + 1] & 0xFF;
            if (b == 0xF0 && second < 0x90 || b == 0xF4 && second >= 0x90) {
                return 0;
            }
            return 4;
        }
        return 0;
    }

    private static boolean continuation(byte b) {
        return (b & 0xC0) == 0x80;
    }

    @Override
    public byte[] encode(CharSequence text, int from, int to) {
        boolean surrogates = false;
        for (int i = from; i < to && !surrogates; i++) {
            surrogates = Character.isSurrogate(text.charAt(i));
        }
        if (!surrogates) {
            // No escaped byte and no pair to check: the JDK's encoder gives the same bytes, faster.
            return text.subSequence(from, to).toString().getBytes(StandardCharsets.UTF_8);
        }
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream(to - from + 16);
        for (int i = from; i < to; i++) {
            char c = text.charAt(i);
            if (c < 0x80) {
                out.write(c);
            } else if (c < 0x800) {
                out.write(0xC0 | c >> 6);
                out.write(0x80 | c & 0x3F);
            } else if (Character.isHighSurrogate(c) && i + 1 < to && Character.isLowSurrogate(text.charAt(i + 1))) {
                int codePoint = Character.toCodePoint(c, text.charAt(++i));
                out.write(0xF0 | codePoint >> 18);
                out.write(0x80 | codePoint >> 12 & 0x3F);
                out.write(0x80 | codePoint >> 6 & 0x3F);
                out.write(0x80 | codePoint & 0x3F);
            } else if (c >= 0xDC80 && c <= 0xDCFF) {
                out.write(c & 0xFF); // an escaped malformed byte
            } else if (Character.isSurrogate(c)) {
                throw ClientCharset.UnmappableTextException.unmappable(name(), c);
            } else {
                out.write(0xE0 | c >> 12);
                out.write(0x80 | c >> 6 & 0x3F);
                out.write(0x80 | c & 0x3F);
            }
        }
        return out.toByteArray();
    }
}
