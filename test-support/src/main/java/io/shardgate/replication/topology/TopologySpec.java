package io.shardgate.replication.topology;

import io.shardgate.storage.Engine;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static java.util.Objects.requireNonNull;

/**
 * What to start: shards, each a primary plus replicas on one engine, and extra server options
 * applied to every node (for example {@code max_allowed_packet=64M}).
 */
public record TopologySpec(List<ShardSpec> shards, Map<String, String> serverOptions) {
    public TopologySpec {
        shards = List.copyOf(requireNonNull(shards, "shards is null"));
        serverOptions = Map.copyOf(requireNonNull(serverOptions, "serverOptions is null"));
        if (shards.isEmpty()) {
            throw new IllegalArgumentException("a topology needs at least one shard");
        }
        Set<String> names = new HashSet<>();
        for (ShardSpec shard : shards) {
            if (!names.add(shard.name())) {
                throw new IllegalArgumentException("shard name '" + shard.name() + "' appears twice");
            }
        }
    }

    public static Builder builder() {
        return new Builder();
    }

    public static final class Builder {
        private final List<ShardSpec> shards = new ArrayList<>();
        private final Map<String, String> options = new LinkedHashMap<>();

        private Builder() {
        }

        public Builder shard(String name, Engine engine, int replicas) {
            shards.add(new ShardSpec(name, engine, replicas));
            return this;
        }

        /** An option for every node's config file; an empty value writes a bare flag. */
        public Builder serverOption(String name, String value) {
            options.put(requireNonNull(name, "name is null"), requireNonNull(value, "value is null"));
            return this;
        }

        public TopologySpec build() {
            return new TopologySpec(shards, options);
        }
    }
}
