package io.shardgate.proxy.topology;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.shardgate.proxy.config.ConfigLoader;
import io.shardgate.proxy.config.ShardConfig;
import io.shardgate.proxy.config.ShardgateConfig;
import io.shardgate.proxy.routing.BackendFactory;
import io.shardgate.proxy.routing.Drains;
import io.shardgate.proxy.routing.ReplicaBackend;
import io.shardgate.proxy.routing.ShardBackends;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A shard's removal: {@link TopologyEdits#removeShard} (each refusal, its backends' states going with it),
 * {@link TopologyChecks} letting a running proxy follow it, and {@link TopologyApplier} dropping the shard's backends.
 */
class RemoveShardTest {
    /** s0 owns every key; s1, a cancelled reshard's target, owns none. */
    static final String CONFIG = """
            admin: { token: change-me }
            users:
              - { name: app, password: app }
            backend_user: { name: shardgate, password: secret }
            shards:
              - { name: s0, primary: 127.0.0.1:24001, replicas: [127.0.0.1:24002], key_range: "-" }
              - { name: s1, primary: 127.0.0.1:24011, replicas: [127.0.0.1:24012], key_range: none }
            schemas:
              - name: shop
                tables:
                  customers: { shard_key: id, vindex: hash }
            backend_states: { 127.0.0.1:24002: draining, 127.0.0.1:24012: offline }
            """;

    private final ObjectMapper mapper = new ObjectMapper();
    private final ConfigLoader loader = new ConfigLoader();
    private final Drains drains = new Drains();

    @AfterEach
    void close() {
        drains.close();
    }

    private TopologyDocument document() {
        return loader.parse(CONFIG).topology().document();
    }

    private static List<String> names(TopologyDocument document) {
        return document.shards().stream().map(ShardConfig::name).toList();
    }

    @Test
    void aShardThatOwnsNoKeysGoesWithItsBackendsStatesAndARunningProxyFollows() {
        TopologyDocument current = document();
        ObjectNode tree = current.tree().deepCopy();
        TopologyEdits.removeShard(tree, "s1");
        TopologyDocument next = loader.topology(tree.toString());
        assertThat(names(next)).containsExactly("s0");
        assertThat(next.states()).as("the removed shard's replica state goes, the others stay")
                .containsOnlyKeys("127.0.0.1:24002");
        assertThat(TopologyChecks.problems(current, next)).isEmpty();
    }

    @Test
    void aShardThatDoesNotExistIsRefused() {
        ObjectNode tree = document().tree().deepCopy();
        assertThatThrownBy(() -> TopologyEdits.removeShard(tree, "s9")).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("no shard named s9");
    }

    @Test
    void aShardThatOwnsKeysIsRefusedWithWhatToDo() {
        ObjectNode tree = document().tree().deepCopy();
        String before = tree.toString();
        assertThatThrownBy(() -> TopologyEdits.removeShard(tree, "s0")).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("shard s0 owns keys (key_range -): move its keys first (a reshard job), then remove it");
        assertThat(tree.toString()).as("nothing changed").isEqualTo(before);
        ObjectNode unsharded = loader.parse("""
                admin: { token: change-me }
                users: [{ name: app, password: app }]
                backend_user: { name: shardgate, password: secret }
                shards: [{ name: s0, primary: 127.0.0.1:24001 }]
                """).topology().document().tree().deepCopy();
        assertThatThrownBy(() -> TopologyEdits.removeShard(unsharded, "s0"))
                .hasMessageContaining("it has no key_range: it serves every key").hasMessageContaining("move its keys first");
    }

    @Test
    void aShardTheDocumentStillNamesIsRefusedNamingEachUse() throws Exception {
        ObjectNode tree = (ObjectNode) mapper.readTree("""
                {"shards": [{"name": "s0", "primary": "h:1", "key_range": "-"}, {"name": "s1", "primary": "h:2", "key_range": "none"}],
                 "schemas": [{"name": "shop", "tables": {
                    "audit": {"type": "unsharded", "shard": "s1"},
                    "zones": {"shard_key": "z", "vindex": "range", "ranges": [{"less_than": 10, "shard": "s0"}, {"shard": "s1"}]},
                    "regions": {"shard_key": "r", "vindex": "list", "key_type": "varchar", "lists": {"s1": ["eu"]}}},
                   "sequences": {"orders.id": {"shard": "s1"}}}],
                 "write_holds": [{"job": "j-7", "shards": ["s1"], "max_hold_ms": 5000, "since": "2026-11-26T13:00:00Z"}]}
                """);
        assertThatThrownBy(() -> TopologyEdits.removeShard(tree, "s1")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("shard s1 is still named by ")
                .hasMessageContaining("unsharded table shop.audit (move it to another shard first: a move job)")
                .hasMessageContaining("the range vindex of table shop.zones")
                .hasMessageContaining("the list vindex of table shop.regions")
                .hasMessageContaining("sequence shop.orders.id")
                .hasMessageContaining("the write hold of job j-7");
        assertThat(tree.path("shards")).hasSize(2);
    }

    @Test
    void aRunningProxyStillRefusesToLoseAShardThatOwnsKeysOrToReorderShards() {
        TopologyDocument two = loader.topology("""
                {"shards": [{"name": "s0", "primary": "127.0.0.1:1"}, {"name": "s1", "primary": "127.0.0.1:2"}]}""");
        TopologyDocument one = loader.topology("{\"shards\": [{\"name\": \"s0\", \"primary\": \"127.0.0.1:1\"}]}");
        assertThat(TopologyChecks.problems(two, one)).singleElement().asString().contains("nor remove one that owns keys");
        ObjectNode three = document().tree().deepCopy();
        three.withArray("shards").addObject().put("name", "s2").put("primary", "127.0.0.1:24021").put("key_range", "none");
        TopologyDocument current = loader.topology(three.toString());
        ObjectNode reordered = three.deepCopy();
        reordered.withArray("shards").insert(1, reordered.withArray("shards").remove(2));
        assertThat(TopologyChecks.problems(current, loader.topology(reordered.toString())))
                .anyMatch(problem -> problem.contains("does not rename or reorder shards"));
        ObjectNode middleGone = three.deepCopy();
        TopologyEdits.removeShard(middleGone, "s1");
        assertThat(TopologyChecks.problems(current, loader.topology(middleGone.toString()))).as("the others keep their order").isEmpty();
    }

    @Test
    void theApplierDropsARemovedShardsBackendsAndKeepsTheOthers() {
        ShardgateConfig config = loader.parse(CONFIG);
        BackendFactory factory = TopologyAdminTest.factory(config);
        ShardBackends s0 = backends(factory, config, "s0");
        ShardBackends s1 = backends(factory, config, "s1");
        LiveTopology live = new LiveTopology(1, config.topology().document(), "file");
        List<Long> served = new CopyOnWriteArrayList<>();
        TopologyApplier applier = new TopologyApplier(live, List.of(s0, s1), factory, drains, Duration.ofSeconds(1), loader, served::add);
        List<String> removed = new CopyOnWriteArrayList<>();
        applier.onShardRemoved(shard -> {
            assertThat(shard.primary().retired()).as("told before its pools close").isFalse();
            removed.add(shard.shard());
        });
        List<Object> cutovers = new CopyOnWriteArrayList<>();
        applier.onCutover(new TopologyApplier.CutoverListener() {
            @Override
            public void shardMap(io.shardgate.router.schema.ShardingSchema next) {
                cutovers.add(next);
            }

            @Override
            public void holds(List<WriteHold> holds, long version) {
                cutovers.add(holds);
            }
        });
        ObjectNode tree = config.topology().document().tree().deepCopy();
        TopologyEdits.removeShard(tree, "s1");

        assertThat(applier.apply(new StoredTopology(2, tree.toString()))).isTrue();
        assertThat(cutovers).as("no key changes owner: the shard map stays").isEmpty();
        assertThat(live.version()).isEqualTo(2);
        assertThat(removed).containsExactly("s1");
        assertThat(s1.primary().retired()).isTrue();
        assertThat(s1.replicas()).allSatisfy(replica -> assertThat(replica.pool().retired()).isTrue());
        assertThat(s0.primary().retired()).isFalse();
        assertThat(served).containsExactly(2L);

        ObjectNode again = tree.deepCopy();
        TopologyEdits.record(again, TopologyEdits.change(2, "ops", "again"));
        assertThat(applier.apply(new StoredTopology(3, again.toString()))).as("a later version does not remove it twice").isTrue();
        assertThat(removed).containsExactly("s1");
    }

    private static ShardBackends backends(BackendFactory factory, ShardgateConfig config, String name) {
        ShardConfig shard = config.shards().stream().filter(candidate -> candidate.name().equals(name)).findFirst().orElseThrow();
        List<ReplicaBackend> replicas = shard.replicas().stream().map(address -> factory.replica(name, address)).toList();
        return new ShardBackends(name, factory.primary(name, shard.primary()), replicas,
                factory.monitor(name, shard.primary(), replicas, config.routing()), null);
    }
}
