package io.shardgate.proxy.config;

import io.shardgate.proxy.topology.BackendState;
import io.shardgate.proxy.topology.TopologyChange;
import io.shardgate.proxy.topology.TopologyDocument;
import io.shardgate.proxy.topology.WriteHold;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The topology's own sections: {@code backend_states} (each backend's administrative state, checked
 * against the shards), {@code topology_history}, and the {@code topology} section (the store).
 */
final class TopologySections {
    private TopologySections() {
    }

    /**
     * The states by address. Every address must be a backend of some shard and appear once in the whole
     * document; a primary can only be serving (writes have nowhere else to go: replace it instead).
     */
    static Map<String, BackendState> states(ConfigNode node, List<ShardConfig> shards) {
        Map<String, String> roles = new LinkedHashMap<>();
        Set<String> seen = new HashSet<>();
        for (ShardConfig shard : shards) {
            List<HostPort> addresses = new ArrayList<>();
            addresses.add(shard.primary());
            addresses.addAll(shard.replicas());
            for (int i = 0; i < addresses.size(); i++) {
                String address = addresses.get(i).toString();
                if (!seen.add(address)) {
                    throw new ConfigException("shards." + shard.name() + ": backend " + address
                            + " appears twice in the topology (each server belongs to one shard, once)");
                }
                roles.put(address, i == 0 ? "primary of " + shard.name() : "replica of " + shard.name());
            }
        }
        Map<String, BackendState> states = new LinkedHashMap<>();
        for (Iterator<String> names = node.fieldNames(); names.hasNext(); ) {
            String address = names.next();
            ConfigNode value = node.get(address);
            BackendState state;
            try {
                state = BackendState.parse(value.requiredString());
            } catch (IllegalArgumentException e) {
                throw value.error(e.getMessage());
            }
            String role = roles.get(address);
            if (role == null) {
                throw value.error("no shard has a backend at " + address);
            }
            if (role.startsWith("primary") && state != BackendState.SERVING) {
                throw value.error(address + " is the " + role + ": a primary is always serving (replace it to take it out)");
            }
            states.put(address, state);
        }
        return states;
    }

    /** {@code write_holds}: the holds a cutover in progress asks for (see WriteHold); each shard named must exist. */
    static List<WriteHold> holds(ConfigNode node, List<ShardConfig> shards) {
        List<WriteHold> holds = new ArrayList<>();
        Set<String> held = new HashSet<>();
        for (ConfigNode entry : node.elements()) {
            entry.requireObject(Set.of("job", "shards", "max_hold_ms", "since"));
            List<String> names = new ArrayList<>();
            for (ConfigNode name : entry.get("shards").elements()) {
                String shard = name.requiredString();
                if (shards.stream().noneMatch(config -> config.name().equals(shard))) {
                    throw name.error("no shard is named " + shard);
                }
                if (!held.add(shard)) {
                    throw name.error("shard " + shard + " is held twice");
                }
                names.add(shard);
            }
            if (names.isEmpty()) {
                throw entry.get("shards").error("expected the shards to hold");
            }
            try {
                holds.add(new WriteHold(entry.get("job").requiredString(), names,
                        entry.get("max_hold_ms").longValue(5000, 1, 600_000), Instant.parse(entry.get("since").requiredString())));
            } catch (DateTimeParseException e) {
                throw entry.get("since").error("expected an ISO-8601 instant such as 2026-11-26T13:00:00Z");
            }
        }
        return holds;
    }

    static List<TopologyChange> history(ConfigNode node) {
        List<TopologyChange> history = new ArrayList<>();
        for (ConfigNode entry : node.elements()) {
            entry.requireObject(Set.of("from_version", "at", "by", "what"));
            try {
                history.add(new TopologyChange(entry.get("from_version").longValue(0, 0, Long.MAX_VALUE),
                        Instant.parse(entry.get("at").requiredString()), entry.get("by").requiredString(),
                        entry.get("what").requiredString()));
            } catch (DateTimeParseException e) {
                throw entry.get("at").error("expected an ISO-8601 instant such as 2026-11-26T13:00:00Z");
            }
        }
        return history;
    }

    static TopologyConfig config(ConfigNode node, TopologyDocument document, long version) {
        node.requireObject(Set.of("store", "etcd", "local_copy", "drain_timeout_ms", "proxy_id"));
        TopologyConfig.Store store = ConfigLoader.choice(node.get("store"), TopologyConfig.Store.class, TopologyConfig.Store.FILE);
        ConfigNode etcdNode = node.get("etcd");
        etcdNode.requireObject(Set.of("endpoints", "prefix", "dial_timeout_ms", "lease_ttl_s"));
        List<String> endpoints = new ArrayList<>();
        for (ConfigNode endpoint : etcdNode.get("endpoints").elements()) {
            String url = endpoint.requiredString();
            if (!url.startsWith("http://") && !url.startsWith("https://")) {
                throw endpoint.error("expected a client URL such as http://10.0.0.1:2379, got '" + url + "'");
            }
            endpoints.add(url);
        }
        if (store == TopologyConfig.Store.ETCD && endpoints.isEmpty()) {
            throw etcdNode.get("endpoints").error("required with store: etcd (the etcd cluster's client URLs)");
        }
        TopologyConfig.Etcd defaults = TopologyConfig.Etcd.NONE;
        String prefix = etcdNode.get("prefix").optionalString().orElse(defaults.prefix());
        if (!prefix.startsWith("/") || prefix.endsWith("/")) {
            throw etcdNode.get("prefix").error("expected a key prefix such as /shardgate/prod (leading /, no trailing /)");
        }
        TopologyConfig.Etcd etcd = new TopologyConfig.Etcd(endpoints, prefix,
                Duration.ofMillis(etcdNode.get("dial_timeout_ms").longValue(defaults.dialTimeout().toMillis(), 100, 60_000)),
                Duration.ofSeconds(etcdNode.get("lease_ttl_s").longValue(defaults.leaseTtl().toSeconds(), 2, 3600)));
        Optional<Path> localCopy = node.get("local_copy").optionalString().map(Path::of);
        return new TopologyConfig(store, etcd, localCopy,
                Duration.ofMillis(node.get("drain_timeout_ms").longValue(TopologyConfig.DEFAULT_DRAIN_TIMEOUT.toMillis(), 0, 86_400_000)),
                node.get("proxy_id").optionalString(), document, version, Optional.empty());
    }
}
