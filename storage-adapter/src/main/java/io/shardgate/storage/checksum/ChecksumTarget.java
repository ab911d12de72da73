package io.shardgate.storage.checksum;

import static java.util.Objects.requireNonNull;

/**
 * One shard to checksum: its name, a JDBC URL of one of its servers and the credentials.
 * {@link #toString()} never shows the password.
 */
public record ChecksumTarget(String shard, String jdbcUrl, String user, String password) {
    public ChecksumTarget {
        requireNonNull(shard, "shard is null");
        requireNonNull(jdbcUrl, "jdbcUrl is null");
        requireNonNull(user, "user is null");
        requireNonNull(password, "password is null");
    }

    @Override
    public String toString() {
        return shard + " (" + jdbcUrl + ")";
    }
}
