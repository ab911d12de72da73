package io.shardgate.proxy.routing;

/**
 * One backend as {@code SHOW SHARDGATE BACKENDS} and {@code GET /api/v1/replicas} show it.
 *
 * @param lagMs        measured lag, null for a primary and for an infinitely stale replica
 * @param state        HEALTHY, SQL_THREAD_STOPPED, UNREACHABLE… for replicas; PRIMARY for the primary
 * @param inFlight     connections of its pool serving a session right now
 * @param served       commands routed to it since start
 * @param position     the replica's applied GTID position (empty for a primary)
 */
public record BackendRow(String shard, String role, String address, String state, Long lagMs, int inFlight, long served,
                         String position, String lastError) {
}
