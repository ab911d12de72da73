package io.shardgate.proxy.topology;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.shardgate.proxy.admin.AdminRoutes.Reply;
import io.shardgate.proxy.config.ConfigException;
import io.shardgate.proxy.config.ConfigLoader;
import io.shardgate.proxy.config.RoutingConfig;
import io.shardgate.proxy.config.ShardgateConfig;
import io.shardgate.proxy.routing.Drains;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The admin API's topology operations over the file store: compare-and-set, history, validation,
 * and the proxy's own switch to each version (no backends here: the applier only validates and
 * records what it serves).
 */
class TopologyAdminTest {
    static final String CONFIG = """
            admin: { token: change-me }
            users:
              - { name: app, password: app }
            backend_user: { name: shardgate, password: secret }
            shards:
              - name: s0
                primary: 127.0.0.1:24001
                replicas: [127.0.0.1:24002]
            routing: { max_replica_lag_ms: 800 }
            """;

    private final ObjectMapper mapper = new ObjectMapper();
    private final ConfigLoader loader = new ConfigLoader();
    private final Drains drains = new Drains();
    private final List<Long> served = new CopyOnWriteArrayList<>();
    private FileTopologyStore store;

    @AfterEach
    void close() {
        drains.close();
        if (store != null) {
            store.close();
        }
    }

    private TopologyAdmin admin(ShardgateConfig config, LiveTopology live) {
        store = new FileTopologyStore(config.topology().file(), new StoredTopology(config.topology().version(),
                config.topology().document().json()));
        TopologyApplier applier = new TopologyApplier(live, List.of(), factory(config), drains, Duration.ofSeconds(1), loader, served::add);
        store.watch(live.version(), applier::apply);
        return new TopologyAdmin(store, live, applier, Duration.ofSeconds(5));
    }

    /** Makes no connection unless a shard's backends change, which these tests' shard-less applier never does. */
    static io.shardgate.proxy.routing.BackendFactory factory(ShardgateConfig config) {
        return new io.shardgate.proxy.routing.BackendFactory(config, new io.shardgate.proxy.backend.BackendConnector(
                io.shardgate.proxy.transport.Transport.best(), "u", "p", Duration.ofSeconds(1), false, 16),
                new io.shardgate.proxy.metrics.ProxyMetrics(new io.micrometer.core.instrument.simple.SimpleMeterRegistry(), () -> 0));
    }

    private JsonNode json(Reply reply) throws Exception {
        return mapper.readTree(reply.json());
    }

    @Test
    void aChangeIsWrittenRecordedAndServedBeforeItAnswers() throws Exception {
        ShardgateConfig config = loader.parse(CONFIG);
        LiveTopology live = new LiveTopology(config.topology().version(), config.topology().document(), "file");
        TopologyAdmin admin = admin(config, live);

        Reply reply = admin.change("alice", "added replica 127.0.0.1:24003 to shard s0", -1,
                tree -> TopologyEdits.addReplica(tree, "s0", "127.0.0.1:24003"));
        assertThat(reply.status()).as(reply.json()).isEqualTo(200);
        assertThat(json(reply).get("version").asLong()).isEqualTo(2);
        assertThat(json(reply).get("applied_here").asBoolean()).isTrue();
        assertThat(live.version()).isEqualTo(2);
        assertThat(live.applied().document().shards().get(0).replicas()).extracting(Object::toString)
                .containsExactly("127.0.0.1:24002", "127.0.0.1:24003");
        long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
        while (served.isEmpty() && System.nanoTime() - deadline < 0) {
            Thread.onSpinWait(); // the registration hears of the version just after it serves
        }
        assertThat(served).containsExactly(2L);
        assertThat(live.applied().document().history()).singleElement().satisfies(change -> {
            assertThat(change.by()).isEqualTo("alice");
            assertThat(change.fromVersion()).isEqualTo(1);
            assertThat(change.what()).contains("24003");
        });
        assertThat(json(admin.history()).get(0).get("by").asText()).isEqualTo("alice");
    }

    @Test
    void aStaleIfMatchGets409WithTheCurrentVersionAndChangesNothing() throws Exception {
        ShardgateConfig config = loader.parse(CONFIG);
        LiveTopology live = new LiveTopology(config.topology().version(), config.topology().document(), "file");
        TopologyAdmin admin = admin(config, live);
        assertThat(admin.change("a", "drain", 1, tree -> TopologyEdits.setState(tree, "127.0.0.1:24002", BackendState.DRAINING))
                .status()).isEqualTo(200);

        Reply stale = admin.change("b", "serve", 1, tree -> TopologyEdits.setState(tree, "127.0.0.1:24002", BackendState.SERVING));
        assertThat(stale.status()).isEqualTo(409);
        assertThat(json(stale).get("current_version").asLong()).isEqualTo(2);
        assertThat(live.applied().document().state(new io.shardgate.proxy.config.HostPort("127.0.0.1", 24002)))
                .isEqualTo(BackendState.DRAINING);
    }

    @Test
    void racingWritersOnOneVersionExactlyOneWins() throws Exception {
        ShardgateConfig config = loader.parse(CONFIG);
        LiveTopology live = new LiveTopology(config.topology().version(), config.topology().document(), "file");
        TopologyAdmin admin = admin(config, live);
        List<Integer> statuses = new CopyOnWriteArrayList<>();
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            int lag = 100 + i;
            Thread thread = new Thread(() -> statuses.add(admin.change("w" + lag, "lag", 1, tree ->
                    TopologyEdits.patchRouting(tree, mapper.createObjectNode().put("max_replica_lag_ms", lag))).status()));
            threads.add(thread);
            thread.start();
        }
        for (Thread thread : threads) {
            thread.join();
        }
        assertThat(statuses).containsOnly(200, 409).filteredOn(status -> status == 200).hasSize(1);
        assertThat(store.read().version()).isEqualTo(2);
    }

    @Test
    void anInvalidChangeIsRefusedAtWriteTimeNamingTheKey() throws Exception {
        ShardgateConfig config = loader.parse(CONFIG);
        LiveTopology live = new LiveTopology(config.topology().version(), config.topology().document(), "file");
        TopologyAdmin admin = admin(config, live);

        Reply primaryDrained = admin.change("a", "drain the primary", -1,
                tree -> TopologyEdits.setState(tree, "127.0.0.1:24001", BackendState.DRAINING));
        assertThat(primaryDrained.status()).isEqualTo(400);
        assertThat(json(primaryDrained).get("error").asText()).contains("backend_states.127.0.0.1:24001").contains("primary");

        Reply badLag = admin.change("a", "lag", -1,
                tree -> TopologyEdits.patchRouting(tree, mapper.createObjectNode().put("max_replica_lag_ms", -5)));
        assertThat(badLag.status()).isEqualTo(400);
        assertThat(json(badLag).get("error").asText()).contains("routing.max_replica_lag_ms");

        Reply unknown = admin.change("a", "add", -1, tree -> TopologyEdits.addReplica(tree, "s9", "127.0.0.1:1"));
        assertThat(unknown.status()).isEqualTo(400);
        assertThat(json(unknown).get("error").asText()).isEqualTo("no shard named s9");

        Reply duplicate = admin.change("a", "add", -1, tree -> TopologyEdits.addReplica(tree, "s0", "127.0.0.1:24002"));
        assertThat(duplicate.status()).isEqualTo(400);

        com.fasterxml.jackson.databind.node.ObjectNode withKeys = config.topology().document().tree().deepCopy();
        withKeys.withArray("shards").addObject().put("name", "s1").put("primary", "127.0.0.1:24009").put("key_range", "80-");
        Reply newShard = admin.replace("a", 1, withKeys.toString());
        assertThat(newShard.status()).isEqualTo(400);
        assertThat(json(newShard).get("error").asText()).contains("key_range");
        com.fasterxml.jackson.databind.node.ObjectNode renamed = config.topology().document().tree().deepCopy();
        ((com.fasterxml.jackson.databind.node.ObjectNode) renamed.withArray("shards").get(0)).put("name", "s9");
        assertThat(admin.replace("a", 1, renamed.toString()).status()).as("a shard renamed").isEqualTo(400);
        assertThat(store.read().version()).as("nothing refused was written").isEqualTo(1);
        assertThat(live.version()).isEqualTo(1);
    }

    @Test
    void aShardThatOwnsNoKeysYetJoinsLive() throws Exception {
        ShardgateConfig config = loader.parse(CONFIG);
        LiveTopology live = new LiveTopology(config.topology().version(), config.topology().document(), "file");
        TopologyAdmin admin = admin(config, live);
        Reply added = admin.change("ops", "added shard s1", -1, tree -> tree.withArray("shards").addObject().put("name", "s1")
                .put("primary", "127.0.0.1:24010").put("key_range", "none"));
        assertThat(added.status()).as(added.json()).isEqualTo(200);
        assertThat(live.applied().document().shards()).extracting(io.shardgate.proxy.config.ShardConfig::name).containsExactly("s0", "s1");
        assertThat(live.applied().document().shard("s1").orElseThrow().ownsKeys()).isFalse();
        assertThat(live.applied().document().sharding()).as("the router sees no shard that owns no keys").isEmpty();
        Reply keys = admin.change("ops", "give s1 keys", -1, tree -> ((com.fasterxml.jackson.databind.node.ObjectNode)
                tree.withArray("shards").get(1)).put("key_range", "80-"));
        assertThat(keys.status()).isEqualTo(400);
        assertThat(json(keys).get("error").asText()).contains("key_range");
    }

    @Test
    void routingSettingsSwitchWithTheVersion() throws Exception {
        ShardgateConfig config = loader.parse(CONFIG);
        LiveTopology live = new LiveTopology(config.topology().version(), config.topology().document(), "file");
        TopologyAdmin admin = admin(config, live);
        assertThat(live.routingConfig().maxReplicaLagMs()).isEqualTo(800);
        Reply reply = admin.change("a", "routing", -1, tree -> TopologyEdits.patchRouting(tree,
                mapper.createObjectNode().put("max_replica_lag_ms", 250).put("fallback", "error")));
        assertThat(reply.status()).as(reply.json()).isEqualTo(200);
        assertThat(live.routingConfig().maxReplicaLagMs()).isEqualTo(250);
        assertThat(live.routingConfig().fallback()).isEqualTo(RoutingConfig.Fallback.ERROR);
    }

    @Test
    void theFileStoreWritesItsChangesBackAndARestartServesThem(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("shardgate.yaml");
        Files.writeString(file, CONFIG + "limits: { max_client_connections: 77 }\n");
        ShardgateConfig config = loader.load(file);
        LiveTopology live = new LiveTopology(config.topology().version(), config.topology().document(), "file");
        TopologyAdmin admin = admin(config, live);
        assertThat(admin.change("ops", "drain", -1, tree -> TopologyEdits.setState(tree, "127.0.0.1:24002", BackendState.DRAINING))
                .status()).isEqualTo(200);

        ShardgateConfig restarted = loader.load(file);
        assertThat(restarted.topology().version()).isEqualTo(2);
        assertThat(restarted.topology().document().states()).containsEntry("127.0.0.1:24002", BackendState.DRAINING);
        assertThat(restarted.topology().document().history()).singleElement().extracting(TopologyChange::by).isEqualTo("ops");
        assertThat(restarted.limits().maxClientConnections()).as("the other sections are kept").isEqualTo(77);
        assertThat(restarted.routing().maxReplicaLagMs()).isEqualTo(800);
        try (var files = Files.list(dir)) {
            assertThat(files.map(path -> path.getFileName().toString())).as("no temporary file left").containsExactly("shardgate.yaml");
        }
    }

    @Test
    void documentsFromAStoreAreValidatedLikeTheConfigFile() {
        assertThatThrownBy(() -> loader.topology("{\"shards\": [{\"name\": \"s0\", \"primary\": \"127.0.0.1:1\"}], \"bogus\": 1}"))
                .isInstanceOf(ConfigException.class).hasMessageStartingWith("bogus: unknown key");
        assertThatThrownBy(() -> loader.topology("{\"shards\": [{\"name\": \"s0\", \"primary\": \"127.0.0.1:1\", "
                + "\"replicas\": [\"127.0.0.1:1\"]}]}")).hasMessageContaining("appears twice");
        assertThatThrownBy(() -> loader.topology("{\"shards\": [{\"name\": \"s0\", \"primary\": \"127.0.0.1:1\"}],"
                + " \"backend_states\": {\"127.0.0.1:2\": \"draining\"}}")).hasMessageContaining("no shard has a backend at 127.0.0.1:2");
        assertThatThrownBy(() -> loader.topology("not json")).hasMessageStartingWith("topology: not valid JSON");
        TopologyDocument document = loader.topology("{\"shards\": [{\"name\": \"s0\", \"primary\": \"127.0.0.1:1\", \"replicas\":"
                + " [\"127.0.0.1:2\"]}], \"backend_states\": {\"127.0.0.1:2\": \"OFFLINE\"}}");
        assertThat(document.states()).containsEntry("127.0.0.1:2", BackendState.OFFLINE);
        assertThat(Optional.of(document.json())).get().asString().contains("\"backend_states\"");
    }

    @Test
    void aVersionThatArrivesInvalidIsRefusedAndTheOldOneServes() {
        ShardgateConfig config = loader.parse(CONFIG);
        LiveTopology live = new LiveTopology(1, config.topology().document(), "file");
        TopologyApplier applier = new TopologyApplier(live, List.of(), factory(config), drains, Duration.ofSeconds(1), loader, served::add);
        assertThat(applier.apply(new StoredTopology(2, "{\"shards\": []}"))).isFalse();
        assertThat(live.version()).isEqualTo(1);
        assertThat(live.refused().version()).isEqualTo(2);
        assertThat(live.refused().reason()).contains("shards");
        assertThat(TopologyMetrics.healthDetail(live)).contains("topology version 2 refused");
        assertThat(applier.apply(new StoredTopology(1, config.topology().document().json()))).as("not newer").isFalse();
        assertThat(served).isEmpty();
    }

    @Test
    void inAShardedTopologyANewShardMustJoinWithoutKeys() {
        String sharded = CONFIG.replace("    replicas: [127.0.0.1:24002]\n", "    replicas: [127.0.0.1:24002]\n    key_range: \"-\"\n");
        TopologyDocument current = loader.parse(sharded).topology().document();
        com.fasterxml.jackson.databind.node.ObjectNode withKeys = current.tree().deepCopy();
        withKeys.withArray("shards").addObject().put("name", "s1").put("primary", "127.0.0.1:24009").put("key_range", "80-");
        assertThatThrownBy(() -> TopologyChecks.problems(current, loader.topology(withKeys.toString())))
                .as("overlapping ranges are invalid on their own").isInstanceOf(ConfigException.class);
        com.fasterxml.jackson.databind.node.ObjectNode noKeys = current.tree().deepCopy();
        noKeys.withArray("shards").addObject().put("name", "s1").put("primary", "127.0.0.1:24009").put("key_range", "none");
        assertThat(TopologyChecks.problems(current, loader.topology(noKeys.toString()))).isEmpty();
        TopologyDocument joined = loader.topology(noKeys.toString());
        assertThat(joined.sharding().orElseThrow().shardNames()).containsExactly("s0");
        com.fasterxml.jackson.databind.node.ObjectNode given = noKeys.deepCopy();
        ((com.fasterxml.jackson.databind.node.ObjectNode) given.withArray("shards").get(1)).put("key_range", "80-");
        ((com.fasterxml.jackson.databind.node.ObjectNode) given.withArray("shards").get(0)).put("key_range", "-80");
        assertThat(TopologyChecks.problems(joined, loader.topology(given.toString()))).as("keys come with resharding")
                .anyMatch(problem -> problem.contains("shards.s1.key_range changes"));
    }
}
