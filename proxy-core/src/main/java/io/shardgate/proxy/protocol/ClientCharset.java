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
public abstract sealed class ClientCharset permits Utf8Charset, MySqlLatin1Charset, ClientCharset.Bytes, ClientCharset.JavaCharset {
    public static final ClientCharset UTF8MB4 = new Utf8Charset("utf8mb4");
    public static final ClientCharset UTF8MB3 = new Utf8Charset("utf8mb3");
    public static final ClientCharset LATIN1 = new MySqlLatin1Charset();
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

    ClientCharset(String name) {
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
        byte[] bytes = new byte[length];
        buf.getBytes(index, bytes);
        // Eight bytes per step: a 200 KB multi-row INSERT is checked in microseconds, not byte per byte.
        if (asciiIsAscii() && Ascii.only(bytes)) {
            return new String(bytes, StandardCharsets.ISO_8859_1);
        }
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

    // ----- one byte, one char -----

    static final class Bytes extends ClientCharset {
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

    static final class JavaCharset extends ClientCharset {
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
