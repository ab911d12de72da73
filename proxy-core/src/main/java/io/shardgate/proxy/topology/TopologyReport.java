package io.shardgate.proxy.topology;

import io.shardgate.proxy.config.HostPort;
import io.shardgate.proxy.config.ShardConfig;

import java.util.ArrayList;
import java.util.List;

/**
 * {@code SHOW SHARDGATE TOPOLOGY}: one row per backend of the version this proxy serves, with the
 * version, the store and its state (OK or DEGRADED) on every row.
 */
public final class TopologyReport {
    public static final List<String> COLUMNS = List.of("version", "store", "store_state", "shard", "key_range", "engine", "role",
            "address", "state");

    private TopologyReport() {
    }

    public static List<List<String>> rows(LiveTopology live) {
        LiveTopology.Applied applied = live.applied();
        List<List<String>> rows = new ArrayList<>();
        for (ShardConfig shard : applied.document().shards()) {
            List<HostPort> backends = new ArrayList<>();
            backends.add(shard.primary());
            backends.addAll(shard.replicas());
            for (int i = 0; i < backends.size(); i++) {
                HostPort address = backends.get(i);
                rows.add(List.of(Long.toString(applied.version()), live.store(), live.state(), shard.name(), shard.keyRange(),
                        shard.engine().configName(), i == 0 ? "primary" : "replica", address.toString(),
                        applied.document().state(address).configName()));
            }
        }
        return rows;
    }
}
