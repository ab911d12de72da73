package io.shardgate.proxy.jobs;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.shardgate.proxy.config.ShardConfig;
import io.shardgate.proxy.topology.TopologyDocument;
import io.shardgate.router.schema.SchemaRules;
import io.shardgate.router.schema.TableRule;
import io.shardgate.router.schema.UnshardedTable;
import io.shardgate.router.shard.KeyRange;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;

import static java.util.Objects.requireNonNull;

/**
 * Checks a job request against the topology a proxy serves, and makes its stored spec (defaults filled in). A bad
 * request is an {@link InvalidSpecException} naming its field: an unknown shard, a target that exists already, targets
 * whose key ranges overlap or leave part of the source's range uncovered (compared as the router's {@link KeyRange}s),
 * an unknown table or engine.
 */
public final class JobSpecs {
    private final Predicate<String> knownEngine;

    /** @param knownEngine true for an engine's config name some storage adapter declares ({@code innodb}, {@code rocksdb}) */
    public JobSpecs(Predicate<String> knownEngine) {
        this.knownEngine = requireNonNull(knownEngine, "knownEngine is null");
    }

    public ObjectNode check(JobKind kind, JsonNode spec, TopologyDocument topology) {
        if (spec == null || !spec.isObject()) {
            throw new InvalidSpecException("spec", "expected a JSON object");
        }
        return switch (kind) {
            case RESHARD -> reshard(spec, topology).toJson();
            case MOVE -> move(spec, topology).toJson();
        };
    }

    ReshardSpec reshard(JsonNode spec, TopologyDocument topology) {
        String sourceName = text(spec, "source", "source");
        ShardConfig source = shard(topology, sourceName, "source");
        if (!source.ownsKeys() || source.keyRange().isEmpty()) {
            throw new InvalidSpecException("source", "shard " + sourceName + " owns no key range to split");
        }
        KeyRange sourceRange = KeyRange.parse(source.keyRange());
        JsonNode targetsNode = spec.path("targets");
        if (!targetsNode.isArray() || targetsNode.isEmpty()) {
            throw new InvalidSpecException("targets", "expected a non-empty array of {name, primary, replicas, engine, key_range}");
        }
        List<ReshardSpec.Target> targets = new ArrayList<>();
        List<KeyRange> ranges = new ArrayList<>();
        Set<String> names = new HashSet<>();
        for (int i = 0; i < targetsNode.size(); i++) {
            String field = "targets[" + i + "]";
            JsonNode node = targetsNode.get(i);
            String name = text(node, "name", field + ".name");
            if (topology.shard(name).isPresent()) {
                throw new InvalidSpecException(field + ".name", "shard " + name + " exists already (a target is a new shard)");
            }
            if (!names.add(name)) {
                throw new InvalidSpecException(field + ".name", "two targets are named " + name);
            }
            String primary = hostPort(text(node, "primary", field + ".primary"), field + ".primary");
            List<String> replicas = new ArrayList<>();
            JsonNode replicasNode = node.path("replicas");
            if (!replicasNode.isMissingNode() && !replicasNode.isNull() && !replicasNode.isArray()) {
                throw new InvalidSpecException(field + ".replicas", "expected an array of HOST:PORT");
            }
            for (int r = 0; r < replicasNode.size(); r++) {
                replicas.add(hostPort(replicasNode.get(r).asText(), field + ".replicas[" + r + "]"));
            }
            String engine = engine(node, source.engine().configName(), field + ".engine");
            String rangeText = text(node, "key_range", field + ".key_range");
            KeyRange range;
            try {
                range = KeyRange.parse(rangeText);
            } catch (IllegalArgumentException e) {
                throw new InvalidSpecException(field + ".key_range", e.getMessage());
            }
            ranges.add(range);
            targets.add(new ReshardSpec.Target(name, primary, replicas, engine, range.toString()));
        }
        checkCover(sourceName, sourceRange, ranges);
        return new ReshardSpec(sourceName, targets, maxRowsPerSecond(spec));
    }

    /** The targets' ranges, in key order, must meet end to end from the source's start to its end. */
    private static void checkCover(String sourceName, KeyRange source, List<KeyRange> ranges) {
        List<Integer> order = new ArrayList<>();
        for (int i = 0; i < ranges.size(); i++) {
            order.add(i);
        }
        order.sort(Comparator.comparing(ranges::get, JobSpecs::byStart));
        KeyRange first = ranges.get(order.get(0));
        if (!sameStart(first, source)) {
            throw new InvalidSpecException("targets[" + order.get(0) + "].key_range", "the targets leave "
                    + between(source, first) + " of source " + sourceName + " (" + source + ") uncovered");
        }
        for (int k = 0; k + 1 < order.size(); k++) {
            KeyRange here = ranges.get(order.get(k));
            KeyRange next = ranges.get(order.get(k + 1));
            String field = "targets[" + order.get(k + 1) + "].key_range";
            if (here.unboundedEnd() || (!next.unboundedStart() && Long.compareUnsigned(next.start(), here.end()) < 0)
                    || next.unboundedStart()) {
                throw new InvalidSpecException(field, next + " overlaps targets[" + order.get(k) + "].key_range " + here);
            }
            if (next.start() != here.end()) {
                throw new InvalidSpecException(field, "the targets leave " + new KeyRange(here.end(), false, next.start(), false)
                        + " of source " + sourceName + " (" + source + ") uncovered");
            }
        }
        KeyRange last = ranges.get(order.get(order.size() - 1));
        boolean sameEnd = last.unboundedEnd() == source.unboundedEnd() && (source.unboundedEnd() || last.end() == source.end());
        if (!sameEnd) {
            boolean beyond = last.unboundedEnd() || (!source.unboundedEnd() && Long.compareUnsigned(last.end(), source.end()) > 0);
            throw new InvalidSpecException("targets[" + order.get(order.size() - 1) + "].key_range", beyond
                    ? last + " reaches beyond source " + sourceName + " (" + source + ")"
                    : "the targets leave " + new KeyRange(last.end(), false, source.end(), source.unboundedEnd())
                    + " of source " + sourceName + " (" + source + ") uncovered");
        }
    }

    private static int byStart(KeyRange a, KeyRange b) {
        if (a.unboundedStart() || b.unboundedStart()) {
            return Boolean.compare(!a.unboundedStart(), !b.unboundedStart());
        }
        return Long.compareUnsigned(a.start(), b.start());
    }

    private static boolean sameStart(KeyRange a, KeyRange b) {
        return a.unboundedStart() == b.unboundedStart() && (a.unboundedStart() || a.start() == b.start());
    }

    /** What lies between the source's start and the first target's, or "part" when the target starts before it. */
    private static String between(KeyRange source, KeyRange first) {
        if (first.unboundedStart() || (!source.unboundedStart() && Long.compareUnsigned(first.start(), source.start()) < 0)) {
            return "nothing, but " + first + " starts before it: the part below";
        }
        return new KeyRange(source.start(), source.unboundedStart(), first.start(), false).toString();
    }

    MoveSpec move(JsonNode spec, TopologyDocument topology) {
        JsonNode tablesNode = spec.path("tables");
        if (!tablesNode.isArray() || tablesNode.isEmpty()) {
            throw new InvalidSpecException("tables", "expected a non-empty array of schema.table");
        }
        List<String> tables = new ArrayList<>();
        Optional<String> home = Optional.empty();
        for (int i = 0; i < tablesNode.size(); i++) {
            String field = "tables[" + i + "]";
            String table = tablesNode.get(i).asText("");
            TableRule rule = table(topology, table, field);
            if (tables.contains(table)) {
                throw new InvalidSpecException(field, table + " is listed twice");
            }
            tables.add(table);
            if (rule instanceof UnshardedTable unsharded) {
                if (home.isPresent() && !home.get().equals(unsharded.shard())) {
                    throw new InvalidSpecException(field, table + " lives on " + unsharded.shard() + ", the tables before it on "
                            + home.get() + ": move one shard's tables per job");
                }
                home = Optional.of(unsharded.shard());
            }
        }
        String sourceName;
        if (spec.hasNonNull("source")) {
            sourceName = text(spec, "source", "source");
            shard(topology, sourceName, "source");
            if (home.isPresent() && !home.get().equals(sourceName)) {
                throw new InvalidSpecException("source", "the tables live on " + home.get() + ", not " + sourceName);
            }
        } else {
            sourceName = home.orElseThrow(() -> new InvalidSpecException("source",
                    "give the shard the tables move from (they are not unsharded tables with a shard of their own)"));
        }
        ShardConfig source = shard(topology, sourceName, "source");
        String targetName = text(spec, "target", "target");
        ShardConfig target = shard(topology, targetName, "target");
        String engine = engine(spec, target.engine().configName(), "engine");
        if (targetName.equals(sourceName) && engine.equals(source.engine().configName())) {
            throw new InvalidSpecException("target", "the tables are on " + targetName + " in " + engine + " already: nothing to move");
        }
        return new MoveSpec(tables, sourceName, targetName, engine, maxRowsPerSecond(spec));
    }

    private static TableRule table(TopologyDocument topology, String table, String field) {
        int dot = table.indexOf('.');
        if (dot <= 0 || dot == table.length() - 1) {
            throw new InvalidSpecException(field, "expected schema.table, got '" + table + "'");
        }
        Optional<SchemaRules> schema = topology.sharding().flatMap(sharding -> sharding.schema(table.substring(0, dot)));
        return schema.flatMap(rules -> rules.table(table.substring(dot + 1)))
                .orElseThrow(() -> new InvalidSpecException(field, "unknown table " + table + " (not in the topology's schemas)"));
    }

    private static ShardConfig shard(TopologyDocument topology, String name, String field) {
        return topology.shard(name).orElseThrow(() -> new InvalidSpecException(field, "unknown shard " + name
                + " (the topology has " + String.join(", ", topology.shards().stream().map(ShardConfig::name).toList()) + ")"));
    }

    private String engine(JsonNode node, String fallback, String field) {
        if (!node.hasNonNull("engine")) {
            return fallback;
        }
        String engine = node.get("engine").asText().trim().toLowerCase(java.util.Locale.ROOT);
        if (!knownEngine.test(engine)) {
            throw new InvalidSpecException(field, "unknown engine '" + node.get("engine").asText() + "'");
        }
        return engine;
    }

    /** The optional {@code max_rows_per_second}: a whole number, 0 (the default) for no limit. */
    private static long maxRowsPerSecond(JsonNode spec) {
        JsonNode value = spec.path("max_rows_per_second");
        if (value.isMissingNode() || value.isNull()) {
            return 0;
        }
        if (!value.canConvertToLong() || !value.isIntegralNumber() || value.asLong() < 0) {
            throw new InvalidSpecException("max_rows_per_second", "expected a whole number >= 0 (0: no limit), got " + value);
        }
        return value.asLong();
    }

    private static String text(JsonNode node, String key, String field) {
        JsonNode value = node.path(key);
        if (!value.isTextual() || value.asText().isBlank()) {
            throw new InvalidSpecException(field, "required (a non-empty string)");
        }
        return value.asText().trim();
    }

    /** HOST:PORT with a port in 1..65535, as the config's addresses are. */
    private static String hostPort(String address, String field) {
        int colon = address.lastIndexOf(':');
        if (colon > 0 && colon < address.length() - 1 && address.length() - colon - 1 <= 5
                && address.substring(colon + 1).chars().allMatch(Character::isDigit)) {
            int port = Integer.parseInt(address.substring(colon + 1));
            if (port >= 1 && port <= 65535) {
                return address;
            }
        }
        throw new InvalidSpecException(field, "expected HOST:PORT, got '" + address + "'");
    }
}
