package io.shardgate.proxy.reshard;

import io.shardgate.proxy.config.HostPort;
import io.shardgate.proxy.config.ShardConfig;
import io.shardgate.proxy.config.ShardgateConfig;
import io.shardgate.proxy.topology.TopologyDocument;
import io.shardgate.replication.copy.Throttle;
import io.shardgate.replication.copy.Throttles;
import io.shardgate.replication.stream.ServerEndpoint;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * When a reshard's copy waits: while a replica of the source lags more than a second (the copy's reads and the
 * targets' writes must not push the source's replicas behind their readers' budgets), or while the source's history
 * list passes {@link #HISTORY_BOUND} (old row versions piling up behind long reads).
 */
final class CopyThrottle {
    static final Duration MAX_REPLICA_LAG = Duration.ofSeconds(1);
    static final long HISTORY_BOUND = 1_000_000;

    private CopyThrottle() {
    }

    static Throttle of(TopologyDocument topology, ReshardPlan plan, ShardgateConfig.BackendUser user) {
        List<Throttle> throttles = new ArrayList<>();
        ShardConfig source = topology.shard(plan.source()).orElseThrow();
        for (HostPort replica : source.replicas()) {
            throttles.add(Throttles.replicaStatus(ServerEndpoint.parse(replica.toString(), user.name(), user.password()),
                    MAX_REPLICA_LAG));
        }
        throttles.add(Throttles.historyLength(plan.sourceEndpoint(), HISTORY_BOUND));
        return Throttle.anyOf(throttles);
    }
}
