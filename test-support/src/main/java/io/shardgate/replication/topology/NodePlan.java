package io.shardgate.replication.topology;

import io.shardgate.storage.StorageAdapters;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Turns a topology spec into the nodes to launch: names, server ids and complete server options. */
final class NodePlan {
    private NodePlan() {
    }

    static String primaryName(ShardSpec shard) {
        return shard.name() + "-primary";
    }

    static String replicaName(ShardSpec shard, int index) {
        return shard.name() + "-replica" + index;
    }

    static List<NodeSpec> nodes(TopologySpec spec, StorageAdapters adapters) {
        List<NodeSpec> nodes = new ArrayList<>();
        int serverId = 1;
        for (ShardSpec shard : spec.shards()) {
            Map<String, String> engineOptions = adapters.forEngine(shard.engine()).serverOptions();
            nodes.add(new NodeSpec(primaryName(shard), shard.name(), NodeRole.PRIMARY, serverId,
                    shard.engine(), options(serverId, engineOptions, spec.serverOptions())));
            serverId++;
            for (int i = 1; i <= shard.replicas(); i++) {
                nodes.add(new NodeSpec(replicaName(shard, i), shard.name(), NodeRole.REPLICA, serverId,
                        shard.engine(), options(serverId, engineOptions, spec.serverOptions())));
                serverId++;
            }
        }
        return nodes;
    }

    /** Base settings, then the engine's, then the spec's own; a later one wins. */
    static Map<String, String> options(int serverId, Map<String, String> engine, Map<String, String> extra) {
        Map<String, String> options = new LinkedHashMap<>();
        options.put("server_id", Integer.toString(serverId));
        options.put("log_bin", "binlog");
        options.put("relay_log", "relay-bin");
        options.put("binlog_format", "ROW");
        options.put("gtid_strict_mode", "1");
        options.put("log_slave_updates", "1");
        options.put("skip_name_resolve", "");
        options.put("character_set_server", "utf8mb4");
        options.put("collation_server", "utf8mb4_general_ci");
        options.put("innodb_buffer_pool_size", "128M");
        options.put("innodb_log_file_size", "32M");
        options.put("max_connections", "500");
        options.put("slave_net_timeout", "10");
        options.putAll(engine);
        options.putAll(extra);
        return options;
    }
}
