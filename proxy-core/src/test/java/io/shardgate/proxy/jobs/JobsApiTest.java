package io.shardgate.proxy.jobs;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.shardgate.proxy.admin.AdminRequest;
import io.shardgate.proxy.admin.AdminRoutes.Reply;
import io.shardgate.proxy.topology.TopologyStoreUnavailableException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.function.Consumer;

import static org.assertj.core.api.Assertions.assertThat;

class JobsApiTest {
    private static final Clock CLOCK = Clock.fixed(Instant.parse("2026-11-26T15:32:10Z"), ZoneOffset.UTC);
    private static final String SPLIT = """
            {"kind": "reshard", "spec": {"source": "s1", "targets": [
              {"name": "s1a", "primary": "10.0.0.1:3306", "replicas": ["10.0.0.2:3306"], "key_range": "40-80"},
              {"name": "s1b", "primary": "10.0.0.3:3306", "engine": "rocksdb", "key_range": "80-c0"}]}}
            """;
    private final FileJobStore store = new FileJobStore(Optional.empty());
    private final ObjectMapper json = new ObjectMapper();
    private JobStore served = store;
    private final JobsApi api = new JobsApi(new DelegatingStore(), new JobSpecs(Set.of("innodb", "rocksdb")::contains),
            JobSpecsTest::topology, CLOCK, new Random(7));

    @AfterEach
    void close() {
        store.close();
    }

    private Reply call(String method, String path, String body) {
        assertThat(api.handles(method, path)).isTrue();
        return api.handle(new AdminRequest(method, path, Map.of(), Optional.empty(), "alice", body));
    }

    private JsonNode ok(Reply reply, int status) throws Exception {
        assertThat(reply.status()).as(reply.json()).isEqualTo(status);
        return json.readTree(reply.json());
    }

    private String created() throws Exception {
        return ok(call("POST", "/api/v1/jobs", SPLIT), 201).get("id").asText();
    }

    @Test
    void createsAJobWithASortableIdAndShowsAndListsIt() throws Exception {
        JsonNode job = ok(call("POST", "/api/v1/jobs", SPLIT), 201);
        String id = job.get("id").asText();
        assertThat(id).matches("reshard-s1-20261126-1532-[0-9a-f]{4}");
        assertThat(job.get("phase").asText()).isEqualTo("created");
        assertThat(job.get("created_by").asText()).isEqualTo("alice");
        assertThat(job.get("spec").get("targets").get(0).get("engine").asText()).isEqualTo("innodb");

        JsonNode shown = ok(call("GET", "/api/v1/jobs/" + id, ""), 200);
        assertThat(shown.get("id").asText()).isEqualTo(id);
        assertThat(shown.get("version").asLong()).isPositive();
        assertThat(shown.get("live_runner").isNull()).isTrue();
        JsonNode list = ok(call("GET", "/api/v1/jobs", ""), 200);
        assertThat(list.get("jobs")).hasSize(1);
        assertThat(ok(call("GET", "/api/v1/jobs/nope", ""), 404).get("error").asText()).isEqualTo("no job nope");
    }

    @Test
    void aBadRequestIs400NamingTheField() throws Exception {
        assertThat(ok(call("POST", "/api/v1/jobs", SPLIT.replace("80-c0", "70-c0")), 400).get("error").asText())
                .isEqualTo("spec.targets[1].key_range: 70-c0 overlaps targets[0].key_range 40-80");
        assertThat(ok(call("POST", "/api/v1/jobs", SPLIT.replace("\"s1\"", "\"s9\"")), 400).get("error").asText())
                .isEqualTo("spec.source: unknown shard s9 (the topology has s0, s1, s2)");
        assertThat(ok(call("POST", "/api/v1/jobs", "{\"kind\": \"move\", \"spec\": {\"tables\": [\"shop.x\"], \"target\": \"s2\"}}"), 400)
                .get("error").asText()).isEqualTo("spec.tables[0]: unknown table shop.x (not in the topology's schemas)");
        assertThat(ok(call("POST", "/api/v1/jobs", "{\"kind\": \"split\"}"), 400).get("error").asText())
                .startsWith("kind: unknown job kind 'split'");
        assertThat(ok(call("POST", "/api/v1/jobs", "nope"), 400).get("error").asText()).startsWith("the body is not JSON");
        assertThat(store.list()).isEmpty();
    }

    @Test
    void actionsAreRecordedWhereValidAnd409NamingThePhaseElsewhere() throws Exception {
        String id = created();
        move(id, job -> job.withPhase(JobPhase.COPYING, "proxy-a", CLOCK.instant()));
        JsonNode refused = ok(call("POST", "/api/v1/jobs/" + id + "/cutover", ""), 409);
        assertThat(refused.get("error").asText()).isEqualTo("job " + id + " is in phase copying: cutover is valid in ready");
        assertThat(refused.get("phase").asText()).isEqualTo("copying");
        assertThat(ok(call("POST", "/api/v1/jobs/" + id + "/reverse", ""), 409).get("error").asText())
                .contains("is in phase copying: reverse is valid in switched");

        move(id, job -> job.withPhase(JobPhase.READY, "proxy-a", CLOCK.instant()));
        JsonNode cutover = ok(call("POST", "/api/v1/jobs/" + id + "/cutover", ""), 200);
        assertThat(cutover.get("requested_action").get("action").asText()).isEqualTo("cutover");
        assertThat(cutover.get("requested_action").get("by").asText()).isEqualTo("alice");
        assertThat(store.read(id).orElseThrow().job().pendingAction()).contains(JobAction.CUTOVER);

        JsonNode cancel = ok(call("POST", "/api/v1/jobs/" + id + "/cancel", ""), 200);
        assertThat(cancel.get("requested_action").get("action").asText()).isEqualTo("cancel");
        assertThat(cancel.get("phase").asText()).as("a runner acts on it").isEqualTo("ready");
        assertThat(ok(call("POST", "/api/v1/jobs/" + id + "/explode", ""), 404).get("error").asText()).contains("explode");
        assertThat(ok(call("POST", "/api/v1/jobs/nope/cancel", ""), 404).get("error").asText()).isEqualTo("no job nope");
    }

    @Test
    void cancellingAJobNobodyStartedCancelsItAtOnce() throws Exception {
        String id = created();
        assertThat(ok(call("POST", "/api/v1/jobs/" + id + "/cancel", ""), 200).get("phase").asText()).isEqualTo("cancelled");
        assertThat(ok(call("POST", "/api/v1/jobs/" + id + "/cancel", ""), 409).get("error").asText())
                .contains("is in phase cancelled");
    }

    @Test
    void theStoreAwayIs503() throws Exception {
        served = new DelegatingStore() {
            @Override
            public List<StoredJob> list() {
                throw new TopologyStoreUnavailableException("etcd http://x:2379: no answer to list");
            }
        };
        assertThat(ok(call("GET", "/api/v1/jobs", ""), 503).get("error").asText()).contains("cannot be reached")
                .contains("no answer to list");
        assertThat(api.handles("GET", "/api/v1/topology")).isFalse();
    }

    private void move(String id, java.util.function.UnaryOperator<Job> change) {
        StoredJob stored = store.read(id).orElseThrow();
        assertThat(store.compareAndSet(stored.version(), change.apply(stored.job()), Optional.empty()))
                .isInstanceOf(JobWrite.Written.class);
    }

    /** The store the API sees: {@link #served}, the file store unless a test swaps it. */
    private class DelegatingStore implements JobStore {
        @Override
        public List<StoredJob> list() {
            return served == this ? store.list() : served.list();
        }

        @Override
        public Optional<StoredJob> read(String id) {
            return store.read(id);
        }

        @Override
        public JobWrite create(Job job) {
            return store.create(job);
        }

        @Override
        public JobWrite compareAndSet(long expectedVersion, Job job, Optional<RunnerLease> runner) {
            return store.compareAndSet(expectedVersion, job, runner);
        }

        @Override
        public void watch(Consumer<String> changed) {
            store.watch(changed);
        }

        @Override
        public Optional<RunnerLease> tryTakeRunner(String jobId, String proxyId) {
            return store.tryTakeRunner(jobId, proxyId);
        }

        @Override
        public Optional<String> runner(String jobId) {
            return store.runner(jobId);
        }

        @Override
        public boolean available() {
            return served == store || served == this;
        }

        @Override
        public String describe() {
            return store.describe();
        }

        @Override
        public void close() {
        }
    }
}
