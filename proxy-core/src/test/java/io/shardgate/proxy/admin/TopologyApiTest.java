package io.shardgate.proxy.admin;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.shardgate.proxy.admin.AdminRoutes.Reply;
import io.shardgate.proxy.config.ConfigLoader;
import io.shardgate.proxy.config.ShardConfig;
import io.shardgate.proxy.config.ShardgateConfig;
import io.shardgate.proxy.routing.BackendFactory;
import io.shardgate.proxy.routing.Drains;
import io.shardgate.proxy.topology.FileTopologyStore;
import io.shardgate.proxy.topology.LiveTopology;
import io.shardgate.proxy.topology.ShardUse;
import io.shardgate.proxy.topology.StoredTopology;
import io.shardgate.proxy.topology.TopologyAdmin;
import io.shardgate.proxy.topology.TopologyApplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code DELETE /api/v1/shards/{shard}} over the file store, with a hand-written job lookup. */
class TopologyApiTest {
    private static final String CONFIG = """
            admin: { token: change-me }
            users:
              - { name: app, password: app }
            backend_user: { name: shardgate, password: secret }
            shards:
              - { name: s0, primary: 127.0.0.1:24001, key_range: "-" }
              - { name: s1, primary: 127.0.0.1:24011, replicas: [127.0.0.1:24012], key_range: none }
            backend_states: { 127.0.0.1:24012: draining }
            """;

    private final ObjectMapper mapper = new ObjectMapper();
    private final ConfigLoader loader = new ConfigLoader();
    private final Drains drains = new Drains();
    /** What the fake job lookup answers for s1. */
    private final AtomicReference<String> jobUsingS1 = new AtomicReference<>();
    private FileTopologyStore store;
    private LiveTopology live;
    private TopologyApi api;

    @AfterEach
    void close() {
        drains.close();
        if (store != null) {
            store.close();
        }
    }

    private void start() {
        ShardgateConfig config = loader.parse(CONFIG);
        live = new LiveTopology(config.topology().version(), config.topology().document(), "file");
        store = new FileTopologyStore(config.topology().file(), new StoredTopology(config.topology().version(),
                config.topology().document().json()));
        BackendFactory factory = new BackendFactory(config, new io.shardgate.proxy.backend.BackendConnector(
                io.shardgate.proxy.transport.Transport.best(), "u", "p", Duration.ofSeconds(1), false, 16),
                new io.shardgate.proxy.metrics.ProxyMetrics(new io.micrometer.core.instrument.simple.SimpleMeterRegistry(), () -> 0));
        TopologyApplier applier = new TopologyApplier(live, List.of(), factory, drains, Duration.ofSeconds(1), loader, version -> { });
        store.watch(live.version(), applier::apply);
        ShardUse jobs = shard -> shard.equals("s1") ? Optional.ofNullable(jobUsingS1.get()) : Optional.empty();
        api = new TopologyApi(new TopologyAdmin(store, live, applier, Duration.ofSeconds(5)), jobs);
    }

    private Reply delete(String path, String ifMatch) {
        assertThat(api.handles("DELETE", path)).isTrue();
        return api.handle(new AdminRequest("DELETE", path, Map.of(), Optional.ofNullable(ifMatch), "ops", ""));
    }

    private String error(Reply reply) throws Exception {
        JsonNode body = mapper.readTree(reply.json());
        return body.path("error").asText();
    }

    @Test
    void removingAShardThatOwnsNoKeysWritesAndServesTheVersionWithoutItAndRecordsWho() throws Exception {
        start();
        Reply reply = delete("/api/v1/shards/s1", "1");
        assertThat(reply.status()).as(reply.json()).isEqualTo(200);
        assertThat(mapper.readTree(reply.json()).path("applied_here").asBoolean()).isTrue();
        assertThat(live.version()).isEqualTo(2);
        assertThat(live.applied().document().shards()).extracting(ShardConfig::name).containsExactly("s0");
        assertThat(live.applied().document().states()).as("its replica's state went with it").isEmpty();
        assertThat(live.applied().document().history()).singleElement()
                .satisfies(change -> assertThat(change.by() + ": " + change.what()).isEqualTo("ops: removed shard s1"));
    }

    @Test
    void eachRefusalSaysWhyAndWritesNothing() throws Exception {
        start();
        Reply unknown = delete("/api/v1/shards/s9", null);
        assertThat(unknown.status()).isEqualTo(400);
        assertThat(error(unknown)).isEqualTo("no shard named s9");

        Reply owner = delete("/api/v1/shards/s0", null);
        assertThat(owner.status()).isEqualTo(400);
        assertThat(error(owner)).contains("owns keys").contains("move its keys first (a reshard job)");

        jobUsingS1.set("job r-1 (reshard, phase streaming) has it as its target and has not ended: cancel the job, or let it end, first");
        Reply inUse = delete("/api/v1/shards/s1", null);
        assertThat(inUse.status()).isEqualTo(409);
        assertThat(error(inUse)).isEqualTo("shard s1 is in use: job r-1 (reshard, phase streaming) has it as its target and has not"
                + " ended: cancel the job, or let it end, first");
        jobUsingS1.set(null);

        Reply stale = delete("/api/v1/shards/s1", "7");
        assertThat(stale.status()).isEqualTo(409);
        assertThat(mapper.readTree(stale.json()).path("current_version").asLong()).isEqualTo(1);

        Reply deeper = delete("/api/v1/shards/s1/nothing", null);
        assertThat(deeper.status()).isEqualTo(404);
        assertThat(store.read().version()).as("nothing refused was written").isEqualTo(1);
        assertThat(live.applied().document().shards()).extracting(ShardConfig::name).containsExactly("s0", "s1");
    }
}
