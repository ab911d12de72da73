package io.shardgate.proxy.auth;

import java.security.SecureRandom;

import static java.util.Objects.requireNonNull;

/**
 * The 20-byte nonce ("auth-plugin-data", "scramble") a server sends in its initial handshake
 * and in an auth switch request. Both {@code mysql_native_password} and
 * {@code caching_sha2_password} hash it together with the password.
 *
 * <p>Every byte is a printable 7-bit character in {@code 0x21..0x7E}: several clients treat the
 * nonce as a C string (a NUL would cut it short), and the handshake sends its second part
 * NUL-terminated. 94 possible values per byte give about 131 bits of entropy.
 */
public final class Scramble {
    /** Length of the nonce in bytes, MySQL's {@code SCRAMBLE_LENGTH}. */
    public static final int LENGTH = 20;

    private static final int FIRST = 0x21;
    private static final int LAST = 0x7E;

    private Scramble() {
    }

    /** A fresh nonce of {@link #LENGTH} bytes, each in {@code 0x21..0x7E}. */
    public static byte[] generate(SecureRandom random) {
        requireNonNull(random, "random is null");
        byte[] nonce = new byte[LENGTH];
        for (int i = 0; i < LENGTH; i++) {
            nonce[i] = (byte) (FIRST + random.nextInt(LAST - FIRST + 1));
        }
        return nonce;
    }

    /** Throws unless {@code nonce} is exactly {@link #LENGTH} bytes (a trailing NUL is a caller bug). */
    static void checkNonce(byte[] nonce) {
        requireNonNull(nonce, "nonce is null");
        if (nonce.length != LENGTH) {
            throw new IllegalArgumentException("nonce: length " + nonce.length + " (expected: " + LENGTH + ")");
        }
    }
}
