package io.shardgate.proxy.config;

import io.shardgate.router.schema.ReferenceTable;
import io.shardgate.router.schema.SchemaRules;
import io.shardgate.router.schema.Sequence;
import io.shardgate.router.schema.Shard;
import io.shardgate.router.schema.ShardedTable;
import io.shardgate.router.schema.ShardingSchema;
import io.shardgate.router.schema.TableRule;
import io.shardgate.router.schema.UnshardedTable;
import io.shardgate.router.shard.KeyRange;
import io.shardgate.router.value.SqlValue;
import io.shardgate.router.vindex.HashVindex;
import io.shardgate.router.vindex.KeyType;
import io.shardgate.router.vindex.ListVindex;
import io.shardgate.router.vindex.RangeVindex;
import io.shardgate.router.vindex.Vindex;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Builds the router's {@link ShardingSchema} from the {@code schemas} section and the shards' key
 * ranges (docs/sharding.md). Without a {@code schemas} section and without key ranges there is no
 * sharding: every table lives on the first shard, as before. The router's own checks (ranges that
 * leave a gap or overlap, unknown shards, duplicate names) become config errors naming the key.
 */
final class ShardingConfigParser {
    private ShardingConfigParser() {
    }

    static Optional<ShardingSchema> parse(ConfigNode schemasNode, ConfigNode shardsNode, List<ShardConfig> shards) {
        boolean anyRange = shards.stream().anyMatch(shard -> !shard.keyRange().isEmpty() && shard.ownsKeys());
        if (schemasNode.isMissing() && !anyRange) {
            return Optional.empty();
        }
        List<Shard> routerShards = new ArrayList<>();
        List<ConfigNode> shardNodes = shardsNode.elements();
        long owning = shards.stream().filter(ShardConfig::ownsKeys).count();
        for (int i = 0; i < shards.size(); i++) {
            ShardConfig shard = shards.get(i);
            if (!shard.ownsKeys()) {
                continue; // key_range: none: the router routes nothing to it until resharding gives it a range
            }
            String range = shard.keyRange().isEmpty() && owning == 1 ? "-" : shard.keyRange();
            if (range.isEmpty()) {
                throw shardNodes.get(i).get("key_range").error("required when there is more than one shard and sharding is configured");
            }
            try {
                routerShards.add(new Shard(shard.name(), KeyRange.parse(range)));
            } catch (IllegalArgumentException e) {
                throw shardNodes.get(i).get("key_range").error(e.getMessage());
            }
        }
        List<SchemaRules> schemas = new ArrayList<>();
        for (ConfigNode schema : schemasNode.elements()) {
            schemas.add(schema(schema));
        }
        try {
            return Optional.of(new ShardingSchema(routerShards, schemas));
        } catch (IllegalArgumentException e) {
            throw new ConfigException(e.getMessage());
        }
    }

    private static SchemaRules schema(ConfigNode node) {
        node.requireObject(Set.of("name", "tables", "sequences"));
        String name = node.get("name").requiredString();
        List<TableRule> tables = new ArrayList<>();
        ConfigNode tablesNode = node.get("tables");
        for (Iterator<String> names = tablesNode.fieldNames(); names.hasNext(); ) {
            String table = names.next();
            tables.add(table(table, tablesNode.get(table)));
        }
        List<Sequence> sequences = new ArrayList<>();
        ConfigNode sequencesNode = node.get("sequences");
        for (Iterator<String> names = sequencesNode.fieldNames(); names.hasNext(); ) {
            String qualified = names.next();
            ConfigNode sequence = sequencesNode.get(qualified);
            sequence.requireObject(Set.of("shard"));
            int dot = qualified.indexOf('.');
            if (dot <= 0 || dot == qualified.length() - 1) {
                throw sequence.error("name a sequence TABLE.COLUMN, such as orders.id");
            }
            sequences.add(new Sequence(qualified.substring(0, dot), qualified.substring(dot + 1), sequence.get("shard").requiredString()));
        }
        try {
            return new SchemaRules(name, tables, sequences);
        } catch (IllegalArgumentException e) {
            throw node.error(e.getMessage());
        }
    }

    private static TableRule table(String name, ConfigNode node) {
        node.requireObject(Set.of("type", "shard_key", "vindex", "key_type", "collation", "ranges", "lists", "shard"));
        String type = node.get("type").optionalString().orElse("sharded");
        try {
            return switch (type) {
                case "reference" -> new ReferenceTable(name);
                case "unsharded" -> new UnshardedTable(name, node.get("shard").requiredString());
                case "sharded" -> new ShardedTable(name, node.get("shard_key").requiredString(), vindex(node));
                default -> throw node.get("type").error("'" + type + "' is not one of [sharded, reference, unsharded]");
            };
        } catch (IllegalArgumentException e) {
            throw node.error(e.getMessage());
        }
    }

    private static Vindex vindex(ConfigNode node) {
        KeyType keyType = KeyType.of(node.get("key_type").optionalString().orElse("integer"),
                node.get("collation").optionalString().orElse(null));
        String vindex = node.get("vindex").requiredString();
        return switch (vindex) {
            case "hash" -> new HashVindex(keyType);
            case "range" -> {
                List<RangeVindex.Bound> bounds = new ArrayList<>();
                for (ConfigNode bound : node.get("ranges").elements()) {
                    bound.requireObject(Set.of("less_than", "shard"));
                    bounds.add(new RangeVindex.Bound(bound.get("less_than").scalar().orElse(null), bound.get("shard").requiredString()));
                }
                yield new RangeVindex(keyType, bounds);
            }
            case "list" -> {
                Map<String, List<SqlValue>> lists = new LinkedHashMap<>();
                ConfigNode listsNode = node.get("lists");
                for (Iterator<String> shards = listsNode.fieldNames(); shards.hasNext(); ) {
                    String shard = shards.next();
                    List<SqlValue> values = new ArrayList<>();
                    for (ConfigNode value : listsNode.get(shard).elements()) {
                        values.add(value.scalar().orElseThrow(() -> value.error("a list value is required")));
                    }
                    lists.put(shard, values);
                }
                yield new ListVindex(keyType, lists);
            }
            default -> throw node.get("vindex").error("'" + vindex + "' is not one of [hash, range, list]");
        };
    }
}
