package io.shardgate.router.schema;

import io.shardgate.router.shard.KeyRange;
import io.shardgate.router.shard.ShardRanges;
import io.shardgate.router.vindex.ListVindex;
import io.shardgate.router.vindex.RangeVindex;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * Everything the planner knows about placement: the shards with their key ranges and the logical
 * schemas. Built by proxy-core from the YAML config; the constructor checks it as a whole and
 * throws IllegalArgumentException with a message starting with the config key at fault:
 *
 * <ul>
 *   <li>at least one shard, unique names, key ranges covering the keyspace with no gap or overlap;</li>
 *   <li>unique schema names; every shard a table, a sequence or a range/list vindex names exists.</li>
 * </ul>
 *
 * Schemas not listed here (and the system schemas) are treated as unsharded, living on the
 * {@linkplain #defaultShard() first shard}.
 */
public final class ShardingSchema {
    private final List<Shard> shards;
    private final Map<String, SchemaRules> schemas = new LinkedHashMap<>();
    private final ShardRanges ranges;

    public ShardingSchema(List<Shard> shards, List<SchemaRules> schemas) {
        this.shards = List.copyOf(requireNonNull(shards, "shards is null"));
        requireNonNull(schemas, "schemas is null");
        if (this.shards.isEmpty()) {
            throw new IllegalArgumentException("shards: at least one shard is required");
        }
        Map<String, KeyRange> rangesByShard = new LinkedHashMap<>();
        for (Shard shard : this.shards) {
            if (rangesByShard.put(shard.name(), shard.keyRange()) != null) {
                throw new IllegalArgumentException("shards[" + shard.name() + "]: listed twice");
            }
        }
        try {
            this.ranges = new ShardRanges(rangesByShard);
        }
        catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("shards[].key_range: " + e.getMessage(), e);
        }
        for (SchemaRules schema : schemas) {
            if (this.schemas.putIfAbsent(SchemaRules.key(schema.name()), schema) != null) {
                throw new IllegalArgumentException("schemas[" + schema.name() + "]: listed twice (names ignore case)");
            }
            validate(schema);
        }
    }

    private void validate(SchemaRules schema) {
        String prefix = "schemas[" + schema.name() + "]";
        for (TableRule table : schema.tables()) {
            String at = prefix + ".tables." + table.name();
            if (table instanceof UnshardedTable unsharded) {
                requireShard(at + ".shard", unsharded.shard());
            }
            else if (table instanceof ShardedTable sharded && sharded.vindex() instanceof RangeVindex range) {
                range.bounds().forEach(bound -> requireShard(at + ".ranges", bound.shard()));
            }
            else if (table instanceof ShardedTable sharded && sharded.vindex() instanceof ListVindex list) {
                list.valuesByShard().keySet().forEach(shard -> requireShard(at + ".lists", shard));
            }
        }
        for (Sequence sequence : schema.sequences()) {
            requireShard(prefix + ".sequences." + sequence.name() + ".shard", sequence.shard());
        }
    }

    private void requireShard(String at, String shard) {
        if (!isShard(shard)) {
            throw new IllegalArgumentException(at + ": no shard is named '" + shard + "'; shards: " + shardNames());
        }
    }

    public List<Shard> shards() {
        return shards;
    }

    /** Shard names in config order. */
    public List<String> shardNames() {
        return shards.stream().map(Shard::name).toList();
    }

    public boolean isShard(String name) {
        return shards.stream().anyMatch(s -> s.name().equals(name));
    }

    /** Where unsharded schemas and catalog statements go: the first shard. */
    public String defaultShard() {
        return shards.get(0).name();
    }

    public ShardRanges ranges() {
        return ranges;
    }

    /** Every logical schema's rules, in config order. */
    public java.util.Collection<SchemaRules> schemas() {
        return java.util.Collections.unmodifiableCollection(schemas.values());
    }

    /** The rules of a sharded logical schema, ignoring case; empty for any other schema. */
    public Optional<SchemaRules> schema(String name) {
        return name == null ? Optional.empty() : Optional.ofNullable(schemas.get(SchemaRules.key(name)));
    }
}
