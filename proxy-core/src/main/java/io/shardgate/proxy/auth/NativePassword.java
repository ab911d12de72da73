package io.shardgate.proxy.auth;

import java.security.MessageDigest;

import static io.shardgate.proxy.auth.Digests.sha1;
import static io.shardgate.proxy.auth.Digests.xor;
import static java.util.Objects.requireNonNull;

/**
 * {@code mysql_native_password}: the client proves it knows {@code SHA1(password)} without sending
 * it, and the server keeps only {@code stage2 = SHA1(SHA1(password))} (what {@code PASSWORD()}
 * prints after the {@code *}).
 *
 * <pre>
 * client:  response = SHA1(password) XOR SHA1(nonce + SHA1(SHA1(password)))
 * server:  candidate = response XOR SHA1(nonce + stage2);  accept iff SHA1(candidate) == stage2
 * </pre>
 *
 * <p><b>The empty password.</b> Clients send an empty response (libmysql's caching_sha2 plugin sends
 * a single {@code 0x00}; both forms count as "no password", as in MySQL's server). Such a response
 * is valid only if the user's password is empty, which {@code stage2} says by being
 * {@code SHA1(SHA1(""))} (what {@code UserConfig.withPassword(name, "", ...)} stores) or by having
 * no bytes at all (MariaDB's {@code PASSWORD('')} is the empty string). Conversely a user with the
 * empty password is accepted only with the empty response, as MySQL does.
 *
 * <p>See <a href="https://dev.mysql.com/doc/dev/mysql-server/latest/page_protocol_connection_phase_authentication_methods_native_password_authentication.html">
 * Native Authentication</a>.
 */
public final class NativePassword {
    public static final String PLUGIN_NAME = "mysql_native_password";
    /** Length of a non-empty response, a SHA-1 digest. */
    public static final int RESPONSE_LENGTH = 20;

    private static final byte[] EMPTY_PASSWORD_STAGE2 = sha1(sha1(new byte[0]));

    private NativePassword() {
    }

    /** Client side: the auth response for {@code passwordUtf8}; empty for the empty password. */
    public static byte[] scramble(byte[] passwordUtf8, byte[] nonce) {
        requireNonNull(passwordUtf8, "passwordUtf8 is null");
        Scramble.checkNonce(nonce);
        if (passwordUtf8.length == 0) {
            return new byte[0];
        }
        byte[] stage1 = sha1(passwordUtf8);
        return xor(stage1, sha1(nonce, sha1(stage1)));
    }

    /**
     * Server side: whether {@code response} proves the password whose {@code SHA1(SHA1(password))}
     * is {@code stage2}. A response of the wrong length is simply invalid; the comparison runs in
     * constant time.
     */
    public static boolean verify(byte[] nonce, byte[] response, byte[] stage2) {
        Scramble.checkNonce(nonce);
        requireNonNull(response, "response is null");
        requireNonNull(stage2, "stage2 is null");
        boolean emptyPassword = stage2.length == 0 || MessageDigest.isEqual(stage2, EMPTY_PASSWORD_STAGE2);
        if (isNoPassword(response)) {
            return emptyPassword;
        }
        if (emptyPassword || response.length != RESPONSE_LENGTH || stage2.length != RESPONSE_LENGTH) {
            return false;
        }
        byte[] candidateStage1 = xor(response, sha1(nonce, stage2));
        return MessageDigest.isEqual(sha1(candidateStage1), stage2);
    }

    /** An empty response or a single NUL: the client has no password to prove. */
    static boolean isNoPassword(byte[] response) {
        return response.length == 0 || (response.length == 1 && response[0] == 0);
    }
}
