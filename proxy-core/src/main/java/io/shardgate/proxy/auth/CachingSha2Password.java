package io.shardgate.proxy.auth;

import io.shardgate.proxy.config.UserConfig;

import java.security.MessageDigest;
import java.util.Arrays;
import java.util.Optional;

import static io.shardgate.proxy.auth.Digests.sha1;
import static io.shardgate.proxy.auth.Digests.sha256;
import static io.shardgate.proxy.auth.Digests.xor;
import static java.util.Objects.requireNonNull;

/**
 * {@code caching_sha2_password}, as far as the proxy needs it: the fast path and the full path.
 *
 * <pre>
 * fast path, client:  response = SHA256(pw) XOR SHA256(SHA256(SHA256(pw)) + nonce)
 * fast path, server:  candidate = response XOR SHA256(stage2 + nonce);  accept iff SHA256(candidate) == stage2
 *                     where stage2 = SHA256(SHA256(pw))
 * full path:          the client sends the plain password, NUL-terminated, over TLS, or
 *                     RSA-encrypted (see {@link RsaKeyPair}) after asking for the key with
 *                     {@link #REQUEST_PUBLIC_KEY}
 * </pre>
 *
 * Note the order inside the hash: the fast path hashes {@code stage2 + nonce}, the opposite of
 * {@link NativePassword}'s {@code nonce + stage2}.
 *
 * <p>The server answers a fast-path attempt with an AuthMoreData packet ({@code 0x01}, then one of
 * the status bytes below). The empty password follows {@link NativePassword}'s convention: an
 * empty response or a single {@code 0x00} is valid only for a user whose password is empty.
 *
 * <p>See <a href="https://dev.mysql.com/doc/dev/mysql-server/latest/page_caching_sha2_authentication_exchanges.html">
 * caching_sha2_password information exchanges</a>.
 */
public final class CachingSha2Password {
    public static final String PLUGIN_NAME = "caching_sha2_password";
    /** Length of a non-empty fast-path response, a SHA-256 digest. */
    public static final int RESPONSE_LENGTH = 32;

    /** Client to server, after {@link #PERFORM_FULL_AUTHENTICATION}: "send me the RSA public key". */
    public static final byte REQUEST_PUBLIC_KEY = 0x02;
    /** Server to client in AuthMoreData: the fast path succeeded, an OK packet follows. */
    public static final byte FAST_AUTH_SUCCESS = 0x03;
    /** Server to client in AuthMoreData: send the plain password (over TLS) or ask for the RSA key. */
    public static final byte PERFORM_FULL_AUTHENTICATION = 0x04;

    private static final byte[] EMPTY_PASSWORD_STAGE2 = sha256(sha256(new byte[0]));
    private static final byte[] EMPTY_PASSWORD_NATIVE_STAGE2 = sha1(sha1(new byte[0]));

    private CachingSha2Password() {
    }

    /** Client side fast-path response for {@code password} (UTF-8); empty for the empty password. */
    public static byte[] scramble(byte[] password, byte[] nonce) {
        requireNonNull(password, "password is null");
        Scramble.checkNonce(nonce);
        if (password.length == 0) {
            return new byte[0];
        }
        byte[] stage1 = sha256(password);
        return xor(stage1, sha256(sha256(stage1), nonce));
    }

    /**
     * Server side fast path: whether {@code response} proves the password whose
     * {@code SHA256(SHA256(password))} is {@code sha256Stage2}. On {@code false} a server that only
     * lacks the digest may still ask for full authentication; a wrong password fails both ways.
     */
    public static boolean verifyFast(byte[] nonce, byte[] response, byte[] sha256Stage2) {
        Scramble.checkNonce(nonce);
        requireNonNull(response, "response is null");
        requireNonNull(sha256Stage2, "sha256Stage2 is null");
        boolean emptyPassword = sha256Stage2.length == 0 || MessageDigest.isEqual(sha256Stage2, EMPTY_PASSWORD_STAGE2);
        if (NativePassword.isNoPassword(response)) {
            return emptyPassword;
        }
        if (emptyPassword || response.length != RESPONSE_LENGTH || sha256Stage2.length != RESPONSE_LENGTH) {
            return false;
        }
        byte[] candidateStage1 = xor(response, sha256(sha256Stage2, nonce));
        return MessageDigest.isEqual(sha256(candidateStage1), sha256Stage2);
    }

    /**
     * Full path: whether the plain {@code password} the client sent (over TLS, or decrypted by
     * {@link RsaKeyPair#decryptPassword}) is the user's. One trailing NUL, as sent on the wire, is
     * ignored. The password is checked against {@code SHA256(SHA256(pw))} when the user has it,
     * otherwise against {@code SHA1(SHA1(pw))}, so accounts configured only with a
     * {@code PASSWORD()} hash can still log in with caching_sha2_password over TLS or RSA.
     */
    public static boolean verifyPlain(byte[] password, UserConfig user) {
        requireNonNull(password, "password is null");
        requireNonNull(user, "user is null");
        byte[] plain = password.length > 0 && password[password.length - 1] == 0
                ? Arrays.copyOf(password, password.length - 1)
                : password;
        Optional<byte[]> sha256Stage2 = user.sha256Stage2();
        if (sha256Stage2.isPresent()) {
            return matches(sha256(sha256(plain)), sha256Stage2.get(), EMPTY_PASSWORD_STAGE2);
        }
        return matches(sha1(sha1(plain)), user.nativeStage2(), EMPTY_PASSWORD_NATIVE_STAGE2);
    }

    private static boolean matches(byte[] candidate, byte[] stored, byte[] emptyPasswordStored) {
        byte[] expected = stored.length == 0 ? emptyPasswordStored : stored;
        return MessageDigest.isEqual(candidate, expected);
    }
}
