package io.shardgate.proxy.protocol;

import io.netty.buffer.ByteBuf;

import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.Charset;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import static java.util.Objects.requireNonNull;

/**
 * Statement text in a client's character set ({@code character_set_client}) as a Java String and
 * back. The statement is decoded only so that the lexer and the planner can read it; what goes to
 * a backend is the client's own bytes, or text encoded back with the same instance. For the
 * character sets clients use, the round trip is exact for every byte sequence
 * ({@code encode(decode(b))} equals {@code b}), valid in that character set or not:
 *
 * <ul>
 *   <li>utf8mb4, utf8mb3 (utf8): UTF-8, where each byte of a malformed sequence becomes a lone
 *       surrogate U+DC80..U+DCFF and back (Python's {@code surrogateescape});</li>
 *   <li>latin1: MySQL's latin1, which is cp1252 with its five undefined bytes 0x81, 0x8D, 0x8F,
 *       0x90 and 0x9D mapped to U+0081.. and back;</li>
 *   <li>binary and ascii: each byte one char (ISO-8859-1), so any byte passes.</li>
 * </ul>
 *
 * Other MySQL character sets use their Java charset, whose round trip holds for valid text only:
 * {@link #exact} says whether it held for a given statement. A character set Java does not have
 * (armscii8, dec8, geostd8, hp8, keybcs2, swe7: all single-byte, ASCII-compatible) is read byte per
 * char, so the lexer sees its ASCII right, and is never exact.
 *
 * <p>{@link #encode} refuses (throws {@link UnmappableTextException}) a char the character set has
 * no byte for: a shard statement is then refused rather than sent changed.
 */
public abstract sealed class ClientCharset {
    public static final ClientCharset UTF8MB4 = new Utf8("utf8mb4");
    public static final ClientCharset UTF8MB3 = new Utf8("utf8mb3");
    public static final ClientCharset LATIN1 = new MySqlLatin1();
    public static final ClientCharset BINARY = new Bytes("binary", true);
    public static final ClientCharset ASCII = new Bytes("ascii", true);

    /** MariaDB's character sets that Java knows, by MariaDB name. */
    private static final Map<String, String> JAVA_NAMES = Map.ofEntries(
            Map.entry("cp1250", "windows-1250"), Map.entry("cp1251", "windows-1251"),
            Map.entry("cp1256", "windows-1256"), Map.entry("cp1257", "windows-1257"),
            Map.entry("cp850", "IBM850"), Map.entry("cp852", "IBM852"), Map.entry("cp866", "IBM866"),
            Map.entry("koi8r", "KOI8-R"), Map.entry("koi8u", "KOI8-U"),
            Map.entry("latin2", "ISO-8859-2"), Map.entry("latin5", "ISO-8859-9"), Map.entry("latin7", "ISO-8859-13"),
            Map.entry("greek", "ISO-8859-7"), Map.entry("hebrew", "ISO-8859-8"), Map.entry("tis620", "TIS-620"),
            Map.entry("macroman", "x-MacRoman"), Map.entry("macce", "x-MacCentralEurope"),
            Map.entry("gbk", "GBK"), Map.entry("gb2312", "GB2312"), Map.entry("gb18030", "GB18030"),
            Map.entry("big5", "Big5"), Map.entry("sjis", "Shift_JIS"), Map.entry("cp932", "windows-31j"),
            Map.entry("ujis", "EUC-JP"), Map.entry("eucjpms", "x-eucJP-Open"), Map.entry("euckr", "EUC-KR"));

    private static final Map<String, ClientCharset> BY_NAME = new ConcurrentHashMap<>();

    private final String name;

    private ClientCharset(String name) {
        this.name = name;
    }

    /**
     * The character set MariaDB calls {@code name} (as {@code character_set_client} reports it);
     * utf8mb4 for null or empty, which is what Shardgate's backend connections log in with.
     */
    public static ClientCharset named(String name) {
        if (name == null || name.isEmpty()) {
            return UTF8MB4;
        }
        String key = name.toLowerCase(Locale.ROOT);
        return switch (key) {
            case "utf8mb4" -> UTF8MB4;
            case "utf8mb3", "utf8" -> UTF8MB3;
            case "latin1" -> LATIN1;
            case "binary" -> BINARY;
            case "ascii" -> ASCII;
            default -> BY_NAME.computeIfAbsent(key, ClientCharset::other);
        };
    }

    private static ClientCharset other(String name) {
        String javaName = JAVA_NAMES.get(name);
        if (javaName != null && Charset.isSupported(javaName)) {
            return new JavaCharset(name, Charset.forName(javaName));
        }
        return new Bytes(name, false);
    }

    /** The MariaDB name, as an introducer takes it ({@code _latin1 X'E9'}). */
    public final String name() {
        return name;
    }

    /** Whether {@code encode(decode(b))} equals {@code b} for every byte sequence. */
    public abstract boolean lossless();

    /** The text of {@code bytes}. */
    public final String decode(byte[] bytes) {
        return decode(bytes, 0, bytes.length);
    }

    public abstract String decode(byte[] bytes, int offset, int length);

    /**
     * The text of {@code length} bytes of {@code buf} from {@code index}. A statement that is all
     * ASCII (nearly every one) is read straight from the buffer; only other bytes are copied first.
     */
    public final String decode(ByteBuf buf, int index, int length) {
        if (asciiIsAscii() && buf.forEachByte(index, length, b -> b >= 0) < 0) {
            return buf.toString(index, length, StandardCharsets.ISO_8859_1);
        }
        byte[] bytes = new byte[length];
        buf.getBytes(index, bytes);
        return decode(bytes);
    }

    /** Whether each byte below 0x80 reads as the char of the same code, as in every ASCII-based character set. */
    boolean asciiIsAscii() {
        return true;
    }

    /** The bytes of {@code text}; throws {@link UnmappableTextException} for a char this character set has no byte for. */
    public final byte[] encode(CharSequence text) {
        return encode(text, 0, text.length());
    }

    public abstract byte[] encode(CharSequence text, int from, int to);

    /** Whether {@code text}, read from {@code bytes}, encodes back to exactly {@code bytes}. */
    public boolean exact(byte[] bytes, String text) {
        if (lossless()) {
            return true;
        }
        try {
            return Arrays.equals(encode(text), bytes);
        } catch (UnmappableTextException e) {
            return false;
        }
    }

    /**
     * Whether {@code decoded} (read with {@link #decode}) was valid text in this character set, as a
     * server would take it in a literal with this character set's introducer: for utf8, no malformed
     * byte was escaped; for ascii, no byte above 0x7F; every byte sequence is latin1 or binary.
     */
    public boolean valid(CharSequence decoded) {
        return true;
    }

    @Override
    public String toString() {
        return name;
    }

    /** Text that has no exact bytes in a character set: a char it cannot encode, or a statement that was not valid in it. */
    public static final class UnmappableTextException extends IllegalArgumentException {
        private static final long serialVersionUID = 1L;

        private UnmappableTextException(String message) {
            super(message);
        }

        static UnmappableTextException unmappable(String charset, int codePoint) {
            return new UnmappableTextException(String.format(Locale.ROOT,
                    "the character U+%04X in a statement for a %s connection (character_set_client has no bytes for it)",
                    codePoint, charset));
        }

        /** The statement's bytes are not valid {@code charset} text, so its text cannot be edited or re-encoded exactly. */
        public static UnmappableTextException invalid(ClientCharset charset) {
            return new UnmappableTextException("rewriting or planning a statement that is not valid " + charset.name()
                    + " text (character_set_client " + charset.name() + ")");
        }
    }

    // ----- UTF-8 with surrogateescape -----

    private static final class Utf8 extends ClientCharset {
        Utf8(String name) {
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
                    throw UnmappableTextException.unmappable(name(), c);
                } else {
                    out.write(0xE0 | c >> 12);
                    out.write(0x80 | c >> 6 & 0x3F);
                    out.write(0x80 | c & 0x3F);
                }
            }
            return out.toByteArray();
        }
    }

    // ----- MySQL's latin1 -----

    private static final class MySqlLatin1 extends ClientCharset {
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

        MySqlLatin1() {
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
                        throw UnmappableTextException.unmappable(name(), Character.codePointAt(text, i));
                    }
                    b = high;
                }
                out[i - from] = (byte) b;
            }
            return out;
        }
    }

    // ----- one byte, one char -----

    private static final class Bytes extends ClientCharset {
        /** binary and ascii: every byte is a char of its own. A character set Java lacks is read this way too, but not exactly. */
        private final boolean lossless;

        Bytes(String name, boolean lossless) {
            super(name);
            this.lossless = lossless;
        }

        @Override
        public boolean lossless() {
            return lossless;
        }

        @Override
        public boolean valid(CharSequence decoded) {
            if (this != ASCII) {
                return true;
            }
            for (int i = 0; i < decoded.length(); i++) {
                if (decoded.charAt(i) > 0x7F) {
                    return false;
                }
            }
            return true;
        }

        @Override
        public boolean exact(byte[] bytes, String text) {
            if (lossless) {
                return true;
            }
            for (byte b : bytes) {
                if (b < 0) {
                    return false; // a non-ASCII byte of a character set Java does not have: its char is unknown
                }
            }
            return true;
        }

        @Override
        public String decode(byte[] bytes, int offset, int length) {
            return new String(bytes, offset, length, StandardCharsets.ISO_8859_1);
        }

        @Override
        public byte[] encode(CharSequence text, int from, int to) {
            byte[] out = new byte[to - from];
            for (int i = from; i < to; i++) {
                char c = text.charAt(i);
                if (c > 0xFF) {
                    throw UnmappableTextException.unmappable(name(), Character.codePointAt(text, i));
                }
                out[i - from] = (byte) c;
            }
            return out;
        }
    }

    // ----- another Java charset -----

    private static final class JavaCharset extends ClientCharset {
        private final Charset charset;

        private final boolean asciiIsAscii;

        JavaCharset(String name, Charset charset) {
            super(name);
            this.charset = requireNonNull(charset, "charset is null");
            byte[] ascii = new byte[0x80];
            for (int i = 0; i < ascii.length; i++) {
                ascii[i] = (byte) i;
            }
            this.asciiIsAscii = new String(ascii, charset).equals(new String(ascii, StandardCharsets.ISO_8859_1));
        }

        @Override
        boolean asciiIsAscii() {
            return asciiIsAscii;
        }

        @Override
        public boolean lossless() {
            return false;
        }

        @Override
        public String decode(byte[] bytes, int offset, int length) {
            return new String(bytes, offset, length, charset);
        }

        @Override
        public byte[] encode(CharSequence text, int from, int to) {
            CharBuffer in = CharBuffer.wrap(text, from, to);
            try {
                ByteBuffer out = charset.newEncoder().onMalformedInput(CodingErrorAction.REPORT)
                        .onUnmappableCharacter(CodingErrorAction.REPORT).encode(in);
                byte[] bytes = new byte[out.remaining()];
                out.get(bytes);
                return bytes;
            } catch (CharacterCodingException e) {
                throw UnmappableTextException.unmappable(name(), Character.codePointAt(text, Math.min(in.position(), to - 1)));
            }
        }
    }
}
