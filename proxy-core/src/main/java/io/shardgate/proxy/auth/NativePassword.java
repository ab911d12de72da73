package io.shardgate.proxy.auth;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/** mysql_native_password: SHA1(pw) XOR SHA1(nonce + SHA1(SHA1(pw))). */
public final class NativePassword {
    public static final String PLUGIN = "mysql_native_password";

    private NativePassword() {
    }

    /** Client side: the auth response for a password; empty for an empty password. */
    public static byte[] scramble(byte[] password, byte[] nonce) {
        if (password.length == 0) {
            return new byte[0];
        }
        MessageDigest sha1 = sha1();
        byte[] stage1 = sha1.digest(password);
        byte[] stage2 = sha1.digest(stage1);
        sha1.update(nonce);
        sha1.update(stage2);
        byte[] mask = sha1.digest();
        for (int i = 0; i < mask.length; i++) {
            mask[i] ^= stage1[i];
        }
        return mask;
    }

    /** Server side: checks a response against the stored SHA1(SHA1(pw)). */
    public static boolean verify(byte[] nonce, byte[] response, byte[] stage2) {
        if (response.length != 20) {
            return false;
        }
        MessageDigest sha1 = sha1();
        sha1.update(nonce);
        sha1.update(stage2);
        byte[] mask = sha1.digest();
        byte[] stage1 = new byte[20];
        for (int i = 0; i < 20; i++) {
            stage1[i] = (byte) (response[i] ^ mask[i]);
        }
        return MessageDigest.isEqual(sha1.digest(stage1), stage2);
    }

    private static MessageDigest sha1() {
        try {
            return MessageDigest.getInstance("SHA-1");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-1 is missing from this JVM", e);
        }
    }
}
