package io.shardgate.proxy.auth;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/** SHA-1 and SHA-256 over concatenated inputs, and byte-wise XOR. */
final class Digests {
    private Digests() {
    }

    static byte[] sha1(byte[]... parts) {
        return digest("SHA-1", parts);
    }

    static byte[] sha256(byte[]... parts) {
        return digest("SHA-256", parts);
    }

    /** {@code a XOR b}; both must have the same length. */
    static byte[] xor(byte[] a, byte[] b) {
        if (a.length != b.length) {
            throw new IllegalArgumentException("xor: lengths " + a.length + " and " + b.length + " differ");
        }
        byte[] out = new byte[a.length];
        for (int i = 0; i < a.length; i++) {
            out[i] = (byte) (a[i] ^ b[i]);
        }
        return out;
    }

    /** {@code data XOR key}, the key repeated cyclically as often as needed. */
    static byte[] xorCyclic(byte[] data, byte[] key) {
        byte[] out = new byte[data.length];
        for (int i = 0; i < data.length; i++) {
            out[i] = (byte) (data[i] ^ key[i % key.length]);
        }
        return out;
    }

    private static byte[] digest(String algorithm, byte[]... parts) {
        MessageDigest digest;
        try {
            digest = MessageDigest.getInstance(algorithm);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(algorithm + " is missing from this JVM", e);
        }
        for (byte[] part : parts) {
            digest.update(part);
        }
        return digest.digest();
    }
}
