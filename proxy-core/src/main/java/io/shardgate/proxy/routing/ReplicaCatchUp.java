package io.shardgate.proxy.routing;

import io.shardgate.proxy.backend.BackendConnection;
import io.shardgate.replication.gtid.MariaDbGtidPosition;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;

/** Makes a replica connection wait until it has applied a position (read-your-writes). */
public final class ReplicaCatchUp {
    private ReplicaCatchUp() {
    }

    /** MASTER_GTID_WAIT on the replica: true when it applied {@code position} within {@code waitMs}. */
    public static CompletableFuture<Boolean> caughtUp(BackendConnection connection, MariaDbGtidPosition position, long waitMs) {
        String sql = "SELECT MASTER_GTID_WAIT('" + position + "', " + (waitMs / 1000.0) + ")";
        return connection.query(sql).handle((result, error) -> error == null && result.rows().size() == 1
                && result.rows().get(0).get(0) != null && new String(result.rows().get(0).get(0), StandardCharsets.US_ASCII).equals("0"));
    }
}
