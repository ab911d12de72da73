package io.shardgate.proxy.routing;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.shardgate.replication.lag.LagHistory;
import io.shardgate.replication.lag.ReplicaLag;

import java.util.ArrayList;
import java.util.List;

/** The backends' roles, lag, state and load, for SHOW SHARDGATE BACKENDS and the admin API. */
public final class BackendReport {
    /** A shard added live joins the list (copy on write). */
    private final List<ShardBackends> shards;
    private final ObjectMapper json = new ObjectMapper();

    public BackendReport(List<ShardBackends> shards) {
        this.shards = new java.util.concurrent.CopyOnWriteArrayList<>(shards);
    }

    /** A topology change added {@code shard}: it is reported from now on. */
    public void add(ShardBackends shard) {
        shards.add(shard);
    }

    /** A topology change removed {@code shard}: it is no longer reported. */
    public void remove(ShardBackends shard) {
        shards.remove(shard);
    }

    public List<BackendRow> rows() {
        List<BackendRow> rows = new ArrayList<>();
        for (ShardBackends shard : shards) {
            rows.add(new BackendRow(shard.shard(), "primary", shard.primary().target().address().toString(), "PRIMARY", null,
                    shard.primary().inUse(), shard.primary().served(), "", ""));
            for (ReplicaBackend replica : shard.replicas()) {
                ReplicaLag lag = shard.lag(replica);
                rows.add(new BackendRow(shard.shard(), "replica", replica.server().address(), lag.state().name(),
                        lag.lagMillis().isPresent() ? lag.lagMillis().getAsLong() : null, replica.pool().inUse(),
                        replica.pool().served(), lag.appliedPosition().toString(), lag.lastError()));
            }
        }
        return rows;
    }

    /** {@code GET /api/v1/replicas}: one object per replica. */
    public String replicasJson() {
        ArrayNode array = json.createArrayNode();
        for (ShardBackends shard : shards) {
            for (ReplicaBackend replica : shard.replicas()) {
                ReplicaLag lag = shard.lag(replica);
                ObjectNode node = array.addObject();
                node.put("shard", shard.shard());
                node.put("address", replica.server().address());
                node.put("state", lag.state().name());
                if (lag.lagMillis().isPresent()) {
                    node.put("lag_ms", lag.lagMillis().getAsLong());
                } else {
                    node.putNull("lag_ms");
                }
                node.put("infinitely_stale", lag.isInfinitelyStale());
                node.put("io_thread_running", lag.ioThreadRunning());
                node.put("sql_thread_running", lag.sqlThreadRunning());
                node.put("applied_gtid_position", lag.appliedPosition().toString());
                if (lag.sinceLastPollMillis().isPresent()) {
                    node.put("since_last_poll_ms", lag.sinceLastPollMillis().getAsLong());
                } else {
                    node.putNull("since_last_poll_ms");
                }
                node.put("last_error", lag.lastError());
                node.put("in_flight", replica.pool().inUse());
                node.put("served", replica.pool().served());
            }
        }
        try {
            return json.writerWithDefaultPrettyPrinter().writeValueAsString(array) + "\n";
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * {@code GET /api/v1/lag/history}: each replica's lag over the last minutes, one sample a second, oldest first:
     * {@code {"replicas": [{"shard", "address", "samples": [[epochMillis, lagMs or null], ...]}]}} (null: unknown,
     * infinitely stale).
     */
    public String lagHistoryJson() {
        ObjectNode root = json.createObjectNode();
        ArrayNode replicas = root.putArray("replicas");
        for (ShardBackends shard : shards) {
            ReplicaSet set = shard.replicaSet();
            for (ReplicaBackend replica : set.replicas()) {
                ObjectNode node = replicas.addObject();
                node.put("shard", shard.shard());
                node.put("address", replica.server().address());
                ArrayNode samples = node.putArray("samples");
                List<LagHistory.Sample> history = set.monitor().history(replica.server());
                for (LagHistory.Sample sample : history) {
                    ArrayNode pair = samples.addArray().add(sample.epochMillis());
                    if (sample.lagMillis().isPresent()) {
                        pair.add(sample.lagMillis().getAsLong());
                    } else {
                        pair.addNull();
                    }
                }
            }
        }
        return root.toString() + "\n";
    }
}
