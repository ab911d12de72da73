package io.shardgate.proxy.auth;

import javax.crypto.BadPaddingException;
import javax.crypto.Cipher;
import javax.crypto.IllegalBlockSizeException;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.InvalidKeyException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PublicKey;
import java.security.SecureRandom;
import java.security.interfaces.RSAPrivateKey;
import java.security.interfaces.RSAPublicKey;
import java.util.Arrays;

import static java.util.Objects.requireNonNull;

/**
 * The RSA key pair with which {@code caching_sha2_password} clients without TLS send their
 * password on the full path. Generate it once per proxy process and pass the object around.
 *
 * <p>The client asks for the key with {@link CachingSha2Password#REQUEST_PUBLIC_KEY}, receives
 * {@link #publicKeyPem()} in an AuthMoreData packet, and sends
 * {@code RSA-OAEP-SHA1((password + NUL) XOR nonce)}, the nonce repeated cyclically.
 */
public final class RsaKeyPair {
    public static final int KEY_SIZE = 2048;

    private static final String TRANSFORMATION = "RSA/ECB/OAEPWithSHA-1AndMGF1Padding";

    private final RSAPublicKey publicKey;
    private final RSAPrivateKey privateKey;

    /** Wraps an existing RSA pair, e.g. one loaded from files or a fixed pair in tests. */
    RsaKeyPair(KeyPair keyPair) {
        requireNonNull(keyPair, "keyPair is null");
        if (!(keyPair.getPublic() instanceof RSAPublicKey pub) || !(keyPair.getPrivate() instanceof RSAPrivateKey priv)) {
            throw new IllegalArgumentException("not an RSA key pair: " + keyPair.getPublic().getAlgorithm());
        }
        if (pub.getModulus().bitLength() < KEY_SIZE) {
            throw new IllegalArgumentException("RSA key: " + pub.getModulus().bitLength() + " bits (expected: >= " + KEY_SIZE + ")");
        }
        this.publicKey = pub;
        this.privateKey = priv;
    }

    /** A fresh 2048-bit pair; this takes from tens to hundreds of milliseconds. */
    public static RsaKeyPair generate(SecureRandom random) {
        requireNonNull(random, "random is null");
        try {
            KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
            generator.initialize(KEY_SIZE, random);
            return new RsaKeyPair(generator.generateKeyPair());
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("RSA key generation is unavailable in this JVM", e);
        }
    }

    public RSAPublicKey publicKey() {
        return publicKey;
    }

    /**
     * The public key as MySQL sends it: X.509 SubjectPublicKeyInfo, base64 in lines of 64
     * characters between {@code -----BEGIN PUBLIC KEY-----} and {@code -----END PUBLIC KEY-----},
     * with a trailing newline.
     */
    public String publicKeyPem() {
        return Pem.encode("PUBLIC KEY", publicKey.getEncoded());
    }

    /** {@link #publicKeyPem()} as the bytes of an AuthMoreData payload (after the 0x01 header). */
    public byte[] publicKeyPemBytes() {
        return publicKeyPem().getBytes(StandardCharsets.US_ASCII);
    }

    /**
     * Server side: decrypts what the client sent, XORs it with {@code nonce} repeated cyclically and
     * strips the trailing NUL. Throws {@link IllegalArgumentException} if the bytes do not decrypt
     * (wrong key, PKCS#1 v1.5 padding from a pre-8.0.5 client, or garbage): the caller should deny
     * access.
     */
    public byte[] decryptPassword(byte[] encrypted, byte[] nonce) {
        requireNonNull(encrypted, "encrypted is null");
        Scramble.checkNonce(nonce);
        byte[] plain;
        try {
            Cipher cipher = Cipher.getInstance(TRANSFORMATION);
            cipher.init(Cipher.DECRYPT_MODE, privateKey);
            plain = Digests.xorCyclic(cipher.doFinal(encrypted), nonce);
        } catch (BadPaddingException | IllegalBlockSizeException e) {
            throw new IllegalArgumentException("encrypted password does not decrypt with this key ("
                    + encrypted.length + " bytes)", e);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(TRANSFORMATION + " is unavailable in this JVM", e);
        }
        int length = plain.length > 0 && plain[plain.length - 1] == 0 ? plain.length - 1 : plain.length;
        return Arrays.copyOf(plain, length);
    }

    /** Client side, the counterpart of {@link #decryptPassword}: for tests and the proxy's own client. */
    public static byte[] encryptPassword(byte[] password, byte[] nonce, PublicKey publicKey) {
        requireNonNull(password, "password is null");
        Scramble.checkNonce(nonce);
        requireNonNull(publicKey, "publicKey is null");
        byte[] terminated = Arrays.copyOf(password, password.length + 1);
        try {
            Cipher cipher = Cipher.getInstance(TRANSFORMATION);
            cipher.init(Cipher.ENCRYPT_MODE, publicKey);
            return cipher.doFinal(Digests.xorCyclic(terminated, nonce));
        } catch (InvalidKeyException e) {
            throw new IllegalArgumentException("not an RSA public key: " + publicKey.getAlgorithm(), e);
        } catch (IllegalBlockSizeException e) {
            throw new IllegalArgumentException("password: length " + password.length + " is too long for this key", e);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(TRANSFORMATION + " is unavailable in this JVM", e);
        }
    }

    @Override
    public String toString() {
        return "RsaKeyPair[" + publicKey.getModulus().bitLength() + " bits]";
    }
}
