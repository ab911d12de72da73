package io.shardgate.proxy.routing;

import io.shardgate.replication.gtid.MariaDbGtidPosition;

/**
 * The text a client carries from one connection to another for read-your-writes across a pool:
 * {@code sg1:mariadb:<GTID position>}, for example {@code sg1:mariadb:0-1-42,1-2-7}. The flavor
 * field leaves room for MySQL GTID sets ({@code sg1:mysql:<uuid>:1-42,…}), which a MySQL backend's
 * position would use; this version reads MariaDB positions only.
 */
public final class CausalToken {
    private static final String MARIADB = "sg1:mariadb:";

    private CausalToken() {
    }

    public static String of(MariaDbGtidPosition position) {
        return MARIADB + position;
    }

    /** The position a token names; IllegalArgumentException for anything else. */
    public static MariaDbGtidPosition parse(String token) {
        if (token.isEmpty()) {
            return MariaDbGtidPosition.empty();
        }
        if (!token.startsWith(MARIADB)) {
            throw new IllegalArgumentException("a Shardgate causality token starts with '" + MARIADB + "'");
        }
        return MariaDbGtidPosition.parse(token.substring(MARIADB.length()));
    }
}
