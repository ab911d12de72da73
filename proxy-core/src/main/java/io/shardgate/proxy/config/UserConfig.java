package io.shardgate.proxy.config;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * A client account. The plain password is never kept: only {@code SHA1(SHA1(password))} (what
 * {@code mysql_native_password} verifies) and, when the config gave the plain password,
 * {@code SHA256(SHA256(password))} (what {@code caching_sha2_password}'s fast path verifies).
 * With only {@code password_hash} (MySQL's {@code *HEX} form) caching_sha2 clients take the full
 * path, over TLS or RSA, where the plain password is checked against the SHA1 digest.
 */
public record UserConfig(String name, byte[] nativeStage2, Optional<byte[]> sha256Stage2, boolean requireTls,
                         String authPlugin) {
    public static final String NATIVE = "mysql_native_password";
    public static final String CACHING_SHA2 = "caching_sha2_password";

    public UserConfig {
        requireNonNull(name, "name is null");
        requireNonNull(nativeStage2, "nativeStage2 is null");
        requireNonNull(sha256Stage2, "sha256Stage2 is null");
        requireNonNull(authPlugin, "authPlugin is null");
        if (!authPlugin.equals(NATIVE) && !authPlugin.equals(CACHING_SHA2)) {
            throw new IllegalArgumentException("unknown auth plugin '" + authPlugin + "' (expected one of: "
                    + NATIVE + ", " + CACHING_SHA2 + ")");
        }
    }

    public static UserConfig withPassword(String name, String password, boolean requireTls, String authPlugin) {
        byte[] plain = password.getBytes(StandardCharsets.UTF_8);
        return new UserConfig(name, digest("SHA-1", digest("SHA-1", plain)),
                Optional.of(digest("SHA-256", digest("SHA-256", plain))), requireTls, authPlugin);
    }

    /** {@code hash} is MySQL's {@code PASSWORD()} output: {@code *} and 40 hex digits. */
    public static UserConfig withNativeHash(String name, String hash, boolean requireTls, String authPlugin) {
        if (!hash.matches("\\*[0-9A-Fa-f]{40}")) {
            throw new IllegalArgumentException("expected '*' followed by 40 hex digits, as PASSWORD() prints");
        }
        return new UserConfig(name, HexFormat.of().parseHex(hash.substring(1)), Optional.empty(), requireTls,
                authPlugin);
    }

    static byte[] digest(String algorithm, byte[] input) {
        try {
            return MessageDigest.getInstance(algorithm).digest(input);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(algorithm + " is missing from this JVM", e);
        }
    }

    @Override
    public String toString() {
        return "UserConfig[" + name + ", " + authPlugin + ", requireTls=" + requireTls + "]";
    }
}
