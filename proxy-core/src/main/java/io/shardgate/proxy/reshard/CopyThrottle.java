package io.shardgate.proxy.reshard;

import io.shardgate.proxy.config.HostPort;
import io.shardgate.proxy.config.ShardConfig;
import io.shardgate.proxy.config.ShardgateConfig;
import io.shardgate.proxy.jobs.Job;
import io.shardgate.proxy.jobs.JobKind;
import io.shardgate.proxy.topology.TopologyDocument;
import io.shardgate.replication.copy.CopySettings;
import io.shardgate.replication.copy.Throttle;
import io.shardgate.replication.copy.Throttles;
import io.shardgate.replication.stream.ServerEndpoint;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * When a reshard's copy waits: while a replica of the source lags more than a second (the copy's reads and the
 * targets' writes must not push the source's replicas behind their readers' budgets), while the source's history
 * list passes {@link #HISTORY_BOUND} (old row versions piling up behind long reads), or while the copy is ahead of the
 * job's {@code max_rows_per_second} ({@link RowRate}; its chunks then hold at most half a second's rows).
 */
final class CopyThrottle {
    static final Duration MAX_REPLICA_LAG = Duration.ofSeconds(1);
    static final long HISTORY_BOUND = 1_000_000;
    static final Duration RATE_PAUSE = Duration.ofMillis(200);

    private CopyThrottle() {
    }

    static Throttle of(TopologyDocument topology, ReshardPlan plan, ShardgateConfig.BackendUser user, RowRate rate) {
        List<Throttle> throttles = new ArrayList<>();
        if (rate.limited()) {
            throttles.add(rate);
        }
        ShardConfig source = topology.shard(plan.source()).orElseThrow();
        for (HostPort replica : source.replicas()) {
            throttles.add(Throttles.replicaStatus(ServerEndpoint.parse(replica.toString(), user.name(), user.password()),
                    MAX_REPLICA_LAG));
        }
        throttles.add(Throttles.historyLength(plan.sourceEndpoint(), HISTORY_BOUND));
        return Throttle.anyOf(throttles);
    }

    /** The job's {@code max_rows_per_second}; 0 for no limit. */
    static long maxRowsPerSecond(Job job) {
        return job.kind() == JobKind.RESHARD ? job.reshardSpec().maxRowsPerSecond() : job.moveSpec().maxRowsPerSecond();
    }

    /**
     * {@code settings} with chunks of at most half a second's rows at {@code maxRowsPerSecond} (when not 0), and a
     * throttle pause of at most {@link #RATE_PAUSE}: a copy ahead of the rate is ahead by less than a chunk's time,
     * and a whole second's pause would leave it well below the rate.
     */
    static CopySettings settings(CopySettings settings, long maxRowsPerSecond) {
        if (maxRowsPerSecond == 0) {
            return settings;
        }
        return settings.withMaxChunk((int) Math.max(1, Math.min(settings.maxChunk(), maxRowsPerSecond / 2)))
                .withThrottlePause(RATE_PAUSE.compareTo(settings.throttlePause()) < 0 ? RATE_PAUSE : settings.throttlePause());
    }
}
