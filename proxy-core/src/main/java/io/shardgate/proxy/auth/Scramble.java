package io.shardgate.proxy.auth;

import java.security.SecureRandom;

/** The 20-byte handshake nonce: printable 7-bit characters, never NUL (clients treat it as a C string). */
public final class Scramble {
    public static final int LENGTH = 20;

    private Scramble() {
    }

    public static byte[] generate(SecureRandom random) {
        byte[] nonce = new byte[LENGTH];
        for (int i = 0; i < LENGTH; i++) {
            nonce[i] = (byte) (0x21 + random.nextInt(0x7E - 0x21 + 1));
        }
        return nonce;
    }
}
