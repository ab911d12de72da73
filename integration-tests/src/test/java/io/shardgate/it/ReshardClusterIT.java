package io.shardgate.it;

import com.fasterxml.jackson.databind.JsonNode;
import io.shardgate.replication.topology.EtcdCluster;
import io.shardgate.replication.topology.Node;
import io.shardgate.replication.topology.Topology;
import io.shardgate.replication.topology.TopologySpec;
import io.shardgate.storage.Engine;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Reshard jobs on two proxies that share their topology and jobs in a real etcd cluster. The proxy running a job is
 * killed (SIGKILL) while it copies: the other proxy takes the job once its lease expires and finishes it from the
 * checkpoints. A transaction left open on the source makes the cutover give up within its timeout; writes go on, and
 * the cutover asked again succeeds. A job cancelled while it copies leaves the source serving, its targets droppable.
 * The runner is also killed while the job diffs (the other proxy resumes the diff at its checkpoint) and while it
 * streams (held there by a gap lock on a target, {@link StreamingHold}); jobs cancelled while they stream, diff, wait
 * ready or cut over (held there by an open transaction) leave no write hold, both proxies serving the source, and
 * targets owning no keys whose databases drop.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ReshardClusterIT {
    private static final int ROWS = 30_000;
    private EtcdCluster etcd;
    private Topology topology;
    private final List<JarProxy> proxies = new ArrayList<>();
    private final List<String> ids = new ArrayList<>();
    /** Each proxy's config, to start it again after it was killed. */
    private final List<String> configs = new ArrayList<>();
    private int survivorIndex = 1;

    @BeforeAll
    void start() throws Exception {
        etcd = EtcdCluster.start(1);
        topology = Topology.start(TopologySpec.builder().shard("s0", Engine.INNODB, 0).shard("s1", Engine.INNODB, 0)
                .shard("s2", Engine.INNODB, 0).shard("s3", Engine.INNODB, 0).shard("s4", Engine.INNODB, 0).shard("s5", Engine.INNODB, 0)
                .shard("s6", Engine.INNODB, 0).shard("s7", Engine.INNODB, 0).shard("s8", Engine.INNODB, 0).shard("s9", Engine.INNODB, 0)
                .shard("s10", Engine.INNODB, 0).shard("s11", Engine.INNODB, 0)
                .shard("s12", Engine.INNODB, 0).shard("s13", Engine.INNODB, 0).shard("s14", Engine.INNODB, 0)
                .shard("s15", Engine.INNODB, 0).shard("s16", Engine.INNODB, 0).shard("s17", Engine.INNODB, 0).build());
        Path work = Files.createTempDirectory("reshard-cluster-it");
        String prefix = "/shardgate/reshard-" + System.nanoTime();
        Map<String, Map<String, String>> keys = new LinkedHashMap<>();
        keys.put("s0", Map.of("key_range", "-80"));
        keys.put("s1", Map.of("key_range", "80-"));
        for (int i = 0; i < 2; i++) {
            ids.add("proxy-" + i);
            configs.add(ProxyFixture.config(topology, keys, """
                    schemas:
                      - name: shop
                        tables:
                          customers: { shard_key: id, vindex: hash }
                    topology:
                      store: etcd
                      etcd: { endpoints: [%s], prefix: %s, dial_timeout_ms: 1000 }
                      proxy_id: proxy-%d
                      local_copy: %s
                    """.formatted(String.join(", ", etcd.endpoints()), prefix, i, work.resolve("proxy-" + i + ".json"))));
            proxies.add(JarProxy.start(configs.get(i)));
        }
        try (Connection connection = connect(1)) {
            ReshardIT.load(connection, ROWS);
        }
    }

    @AfterAll
    void stop() {
        JarProxy.stop(proxies, topology, etcd);
    }

    private Connection connect(int proxy) throws SQLException {
        return DriverManager.getConnection("jdbc:mariadb://127.0.0.1:" + proxies.get(proxy).port() + "/?connectTimeout=5000",
                ProxyFixture.USER, ProxyFixture.PASSWORD);
    }

    private Jobs jobs(int proxy) {
        return new Jobs(new AdminApi(proxies.get(proxy).adminPort()));
    }

    @Test
    @Order(1)
    void aJobWhoseProxyIsKilledWhileCopyingFinishesOnTheOtherAndItsCutoverWaitsOutAnOpenTransaction() throws Exception {
        Node s2 = topology.shard("s2").primary();
        Node s3 = topology.shard("s3").primary();
        Jobs first = jobs(0);
        String id = first.reshard("s1", "s2=" + s2.address() + "@innodb:80-c0", "s3=" + s3.address() + "@innodb:c0-");
        Await.until("a proxy copies", Duration.ofSeconds(60), () -> first.phase(id).equals("copying")
                && first.job(id).path("tables").path("shop.customers").path("rows_copied").asLong() > 0);
        JsonNode copying = first.job(id);
        String runner = copying.path("runner").asText();
        int killed = ids.indexOf(runner);
        int alive = 1 - killed;
        System.out.printf("[reshard-cluster] killing %s after %d rows copied%n", runner,
                copying.path("tables").path("shop.customers").path("rows_copied").asLong());
        proxies.get(killed).kill();
        survivorIndex = alive;
        Jobs survivor = jobs(alive);
        Await.until("the other proxy takes the job", Duration.ofSeconds(60),
                () -> survivor.job(id).path("runner").asText().equals(ids.get(alive)));
        ModelClient client = new ModelClient(() -> connect(alive), ROWS, 10_000_000);
        try (client) {
            JsonNode ready = survivor.await(id, "ready", Duration.ofMinutes(3));
            System.out.printf("[reshard-cluster] ready on %s: %s%n", ids.get(alive), ready.path("tables"));
            assertThat(ready.path("diff").path("mismatches").asLong()).isZero();
            assertThat(ready.path("history").toString()).contains("proxy-0").contains("proxy-1");

            // A transaction open on the source: the proxies cannot report their writes there done, the cutover gives up.
            long inS1 = idIn("80-", 20_000_000L);
            try (Connection open = connect(alive); Statement statement = open.createStatement()) {
                open.setAutoCommit(false);
                statement.executeUpdate("INSERT INTO shop.customers VALUES (" + inS1 + ", 'open', 1)");
                long asked = System.nanoTime();
                assertThat(survivor.act(id, "cutover")).isEqualTo(200);
                // The job is still ready until its runner takes the request: wait for the abort before the phase it leaves.
                Await.until("the cutover gave up", Duration.ofSeconds(30),
                        () -> survivor.job(id).path("error").asText().contains("cutover aborted"));
                System.out.printf("[reshard-cluster] cutover gave up after %d ms: %s%n", (System.nanoTime() - asked) / 1_000_000,
                        survivor.job(id).path("error").asText());
                JsonNode back = survivor.await(id, "ready", Duration.ofSeconds(30));
                assertThat(back.path("phase").asText()).isEqualTo("ready");
                long before = client.writes.get();
                Await.until("writes go on after the abandoned cutover", Duration.ofSeconds(20), () -> client.writes.get() > before + 50);
                open.commit();
            }
            client.model.put(inS1, 1);
            assertThat(survivor.act(id, "cutover")).isEqualTo(200);
            survivor.await(id, "switched", Duration.ofMinutes(1));
            long after = client.writes.get();
            Await.until("writes go on after the cutover", Duration.ofSeconds(20), () -> client.writes.get() > after + 100);
            assertThat(survivor.act(id, "complete")).isEqualTo(200);
            survivor.await(id, "done", Duration.ofMinutes(1));
        }
        assertThat(client.errors).as("no write failed").isEmpty();
        Map<String, Node> owners = new LinkedHashMap<>();
        owners.put("-80", topology.shard("s0").primary());
        owners.put("80-c0", s2);
        owners.put("c0-", s3);
        ReshardIT.assertOwned(owners, client.model);
    }

    @Test
    @Order(2)
    void aJobCancelledWhileCopyingLeavesTheSourceServing() throws Exception {
        Jobs jobs = jobs(survivorIndex);
        Node s4 = topology.shard("s4").primary();
        String id = jobs.reshard("s0", "s4=" + s4.address() + "@innodb:-40", "s5=" + topology.shard("s5").primary().address()
                + "@innodb:40-80");
        Await.until("the job copies", Duration.ofSeconds(60), () -> jobs.phase(id).equals("copying"));
        assertThat(jobs.act(id, "cancel")).isEqualTo(200);
        jobs.await(id, "cancelled", Duration.ofSeconds(60));
        long inS0 = idIn("-80", 30_000_000L);
        try (Connection connection = connect(survivorIndex); Statement statement = connection.createStatement()) {
            assertThat(statement.executeUpdate("INSERT INTO shop.customers VALUES (" + inS0 + ", 'after cancel', 2)")).isEqualTo(1);
        }
        assertThat(ModelClient.rowsOn(topology.shard("s0").primary())).containsKey(inS0);
        s4.execute("DROP DATABASE shop");
    }

    /** The rows a job limited to this reads a second: its copy and its diff then take some seconds, in chunks of 1,000 rows. */
    private static final long RATE = 2_000;

    @Test
    @Order(3)
    void aJobWhoseProxyIsKilledWhileDiffingResumesTheDiffFromItsCheckpointOnTheOther() throws Exception {
        startKilledAgain();
        Node s6 = topology.shard("s6").primary();
        Node s7 = topology.shard("s7").primary();
        Jobs any = jobs(survivorIndex);
        Map<Long, Integer> present = present(survivorIndex);
        String id = any.reshard(RATE, "s2", "s6=" + s6.address() + "@innodb:80-a0", "s7=" + s7.address() + "@innodb:a0-c0");
        Await.until("a proxy runs the job", Duration.ofSeconds(60), () -> ids.contains(any.job(id).path("runner").asText()));
        int killed = ids.indexOf(any.job(id).path("runner").asText());
        int alive = 1 - killed;
        Jobs survivor = jobs(alive);
        ModelClient client = new ModelClient(() -> connect(alive), present, ROWS, 40_000_000);
        try (client) {
            Await.until("the job diffs, a chunk compared", Duration.ofSeconds(90), () -> {
                JsonNode job = survivor.job(id);
                assertThat(job.path("phase").asText()).as(job.toString()).isIn("created", "copying", "streaming", "diffing");
                return job.path("phase").asText().equals("diffing") && job.path("diff").path("chunks_done").asLong() >= 1;
            });
            proxies.get(killed).kill();
            long killedAt = System.nanoTime();
            survivorIndex = alive;
            JsonNode atKill = survivor.job(id);
            long chunksAtKill = atKill.path("diff").path("chunks_done").asLong();
            System.out.printf("[reshard-cluster] killed %s while diffing: %s%n", ids.get(killed), atKill.path("diff"));
            assertThat(atKill.path("phase").asText()).isEqualTo("diffing");
            assertThat(atKill.path("diff").path("chunks_total").asLong()).as("chunks left to resume").isGreaterThan(chunksAtKill);
            Await.until("the other proxy takes the job", Duration.ofSeconds(60),
                    () -> survivor.job(id).path("runner").asText().equals(ids.get(alive)));
            System.out.printf("[reshard-cluster] %s took the job %d ms after the kill%n", ids.get(alive),
                    (System.nanoTime() - killedAt) / 1_000_000);
            long[] lowest = {Long.MAX_VALUE};
            Await.until("the resumed diff finishes", Duration.ofMinutes(2), () -> {
                JsonNode job = survivor.job(id);
                String phase = job.path("phase").asText();
                assertThat(phase).as(job.toString()).isIn("diffing", "ready");
                lowest[0] = Math.min(lowest[0], job.path("diff").path("chunks_done").asLong());
                return phase.equals("ready");
            });
            JsonNode ready = survivor.job(id);
            System.out.printf("[reshard-cluster] ready on %s: diff %s%n", ids.get(alive), ready.path("diff"));
            assertThat(lowest[0]).as("the diff resumed at its checkpoint, never back to an earlier chunk").isGreaterThanOrEqualTo(chunksAtKill);
            assertThat(ready.path("diff").path("chunks_done").asLong()).as("chunks compared after the takeover").isGreaterThan(chunksAtKill);
            assertThat(ready.path("diff").path("mismatches").asLong()).isZero();
            assertThat(ready.path("checkpoints").path("diff/shop.customers").path("finished").asBoolean()).isTrue();
            assertThat(survivor.act(id, "cutover")).isEqualTo(200);
            survivor.completeAfterSwitch(id);
            long after = client.writes.get();
            Await.until("writes go on after the cutover", Duration.ofSeconds(20), () -> client.writes.get() > after + 100);
        }
        assertThat(client.errors).as("no write failed").isEmpty();
        Map<String, Node> owners = new LinkedHashMap<>();
        owners.put("-80", topology.shard("s0").primary());
        owners.put("80-a0", s6);
        owners.put("a0-c0", s7);
        owners.put("c0-", topology.shard("s3").primary());
        ReshardIT.assertOwned(owners, client.model);
    }

    @Test
    @Order(4)
    void aJobCancelledWhileStreamingDiffingReadyOrCuttingOverLeavesTheSourceServingAndItsTargetsDroppable() throws Exception {
        startKilledAgain();
        Node s3 = topology.shard("s3").primary();
        // A cancelled job's targets stay in the topology owning no keys until removed, so each cancel here has targets of its
        // own; the test removes them all at its end.
        Map<String, List<String>> targetsIn = Map.of("streaming", List.of("s12", "s13"), "diffing", List.of("s8", "s9"),
                "ready", List.of("s10", "s11"), "cutting_over", List.of("s16", "s17"));
        for (String phase : List.of("streaming", "diffing", "ready", "cutting_over")) {
            List<String> names = targetsIn.get(phase);
            List<Node> targets = List.of(topology.shard(names.get(0)).primary(), topology.shard(names.get(1)).primary());
            Jobs jobs = jobs(0);
            StreamingHold hold = phase.equals("streaming") ? new StreamingHold(0, "c0-e0") : null;
            String id = jobs.reshard(phase.equals("diffing") ? RATE : 0, "s3", names.get(0) + "=" + targets.get(0).address()
                    + "@innodb:c0-e0", names.get(1) + "=" + targets.get(1).address() + "@innodb:e0-");
            if (hold != null) {
                hold.once(targets.get(0), jobs, id);
            }
            Connection open = null;
            if (phase.equals("cutting_over")) {
                // A transaction open on the source keeps the cutover in cutting_over for its 2 s drain timeout.
                jobs.await(id, "ready", Duration.ofSeconds(90));
                open = connect(0);
                open.setAutoCommit(false);
                try (Statement statement = open.createStatement()) {
                    statement.executeUpdate("INSERT INTO shop.customers VALUES (" + idIn("c0-", 70_000_000L) + ", 'open', 1)");
                }
                assertThat(jobs.act(id, "cutover")).isEqualTo(200);
            }
            Await.until("the job is " + phase, Duration.ofSeconds(90), () -> {
                JsonNode job = jobs.job(id);
                assertThat(job.path("phase").asText()).as(job.toString()).isNotIn("failed", "cancelled", "done");
                return job.path("phase").asText().equals(phase)
                        && (!phase.equals("diffing") || job.path("diff").path("chunks_done").asLong() >= 1);
            });
            long asked = System.nanoTime();
            assertThat(jobs.act(id, "cancel")).isEqualTo(200);
            JsonNode cancelled = jobs.await(id, "cancelled", Duration.ofSeconds(60));
            System.out.printf("[reshard-cluster] cancelled in %s after %d ms%n", phase, (System.nanoTime() - asked) / 1_000_000);
            if (hold != null) {
                hold.close();
            }
            if (open != null) {
                assertThat(cancelled.path("error").asText()).contains("cutover aborted");
                open.commit();
                open.close();
            }
            assertThat(cancelled.path("history").toString()).contains(phase);
            assertSourceServes("s3", "c0-", s3, names, targets);
            for (Node target : targets) {
                target.execute("DROP DATABASE shop", "DROP DATABASE IF EXISTS _shardgate");
            }
            assertSourceServes("s3", "c0-", s3, names, List.of());
        }
        // The cancelled jobs' targets leave the topology (DELETE /api/v1/shards/{shard}): both proxies drop their backends.
        List<String> dropped = targetsIn.values().stream().flatMap(List::stream).sorted().toList();
        long version = 0;
        for (int i = 0; i < dropped.size(); i++) {
            version = new AdminApi(proxies.get(i % 2).adminPort()).change("DELETE", "/api/v1/shards/" + dropped.get(i), null);
        }
        long removed = version;
        Await.until("both proxies serve the topology without them", Duration.ofSeconds(10), () -> appliedVersion(0) >= removed
                && appliedVersion(1) >= removed);
        for (int p = 0; p < proxies.size(); p++) {
            JsonNode document = new AdminApi(proxies.get(p).adminPort()).get("/api/v1/topology").json().path("document");
            assertThat(document.path("shards").findValuesAsText("name")).as("proxy %d's topology", p).doesNotContainAnyElementsOf(dropped);
            try (Connection connection = connect(p); Statement statement = connection.createStatement();
                 var rows = statement.executeQuery("SHOW SHARDGATE BACKENDS")) {
                while (rows.next()) {
                    assertThat(rows.getString("shard")).as("proxy %d's backends", p).isNotIn(dropped);
                }
            }
        }
        assertSourceServes("s3", "c0-", s3, dropped, List.of());
    }

    private long appliedVersion(int proxy) {
        return new AdminApi(proxies.get(proxy).adminPort()).get("/api/v1/topology").json().path("applied_version").asLong();
    }

    @Test
    @Order(5)
    void aJobWhoseProxyIsKilledWhileStreamingIsTakenInStreamingByTheOtherAndFinishes() throws Exception {
        startKilledAgain();
        Node s14 = topology.shard("s14").primary();
        Node s15 = topology.shard("s15").primary();
        Jobs any = jobs(0);
        StreamingHold hold = new StreamingHold(0, "-40");
        String id = any.reshard("s0", "s14=" + s14.address() + "@innodb:-40", "s15=" + s15.address() + "@innodb:40-80");
        hold.once(s14, any, id);
        int killed = ids.indexOf(any.job(id).path("runner").asText());
        int alive = 1 - killed;
        Jobs survivor = jobs(alive);
        ModelClient client = new ModelClient(() -> connect(alive), present(alive), ROWS, 60_000_000);
        try (client) {
            Await.until("the job streams", Duration.ofSeconds(90), () -> {
                JsonNode job = survivor.job(id);
                assertThat(job.path("phase").asText()).as(job.toString()).isIn("created", "copying", "streaming");
                return job.path("phase").asText().equals("streaming");
            });
            long before = client.writes.get();
            Await.until("writes go on while the job streams", Duration.ofSeconds(20), () -> client.writes.get() > before + 20);
            proxies.get(killed).kill();
            long killedAt = System.nanoTime();
            survivorIndex = alive;
            assertThat(survivor.phase(id)).isEqualTo("streaming");
            Await.until("the other proxy takes the job", Duration.ofSeconds(60),
                    () -> survivor.job(id).path("runner").asText().equals(ids.get(alive)));
            System.out.printf("[reshard-cluster] %s took the streaming job %d ms after the kill%n", ids.get(alive),
                    (System.nanoTime() - killedAt) / 1_000_000);
            assertThat(survivor.phase(id)).as("resumed in streaming (its backlog is still held back)").isEqualTo("streaming");
            hold.close();
            JsonNode ready = survivor.await(id, "ready", Duration.ofMinutes(2));
            assertThat(ready.path("diff").path("mismatches").asLong()).isZero();
            assertThat(ready.path("history").toString()).contains(ids.get(killed)).contains(ids.get(alive));
            assertThat(survivor.act(id, "cutover")).isEqualTo(200);
            survivor.completeAfterSwitch(id);
            long after = client.writes.get();
            Await.until("writes go on after the cutover", Duration.ofSeconds(20), () -> client.writes.get() > after + 100);
        }
        assertThat(client.errors).as("no write failed").isEmpty();
        client.model.putIfAbsent(hold.y, StreamingHold.N); // written before the client started; the client may have changed it since
        Map<String, Node> owners = new LinkedHashMap<>();
        owners.put("-40", s14);
        owners.put("40-80", s15);
        owners.put("80-a0", topology.shard("s6").primary());
        owners.put("a0-c0", topology.shard("s7").primary());
        owners.put("c0-", topology.shard("s3").primary());
        ReshardIT.assertOwned(owners, client.model);
    }

    /**
     * Holds a job in {@code streaming}, with nothing slowed or faked in the proxy: a row the copy already passed is
     * written again on the source, and a gap lock on the target keeps the stream from applying it, so the streams cannot
     * reach the source's position. Before the job, row {@code y} (the 7th of the target's range) is deleted; once the
     * copy wrote the rows around it, the test locks the gap between them on the target and inserts {@code y} again
     * through a proxy, while an uncommitted row further on (on the target) keeps the copy from finishing first.
     */
    private final class StreamingHold implements AutoCloseable {
        static final int N = 7;
        final long y;
        private final long below;
        private final long above;
        private final long far;
        private final int proxy;
        private Connection gap;

        StreamingHold(int proxy, String targetRange) throws SQLException {
            this.proxy = proxy;
            io.shardgate.router.shard.KeyRange range = io.shardgate.router.shard.KeyRange.parse(targetRange);
            List<Long> in = present(proxy).keySet().stream().filter(id -> id <= ROWS && range.contains(ReshardIT.keyspaceId(id)))
                    .sorted().toList();
            below = in.get(5);
            y = in.get(6);
            above = in.get(7);
            far = in.get(in.size() - 20);
            try (Connection connection = connect(proxy); Statement statement = connection.createStatement()) {
                assertThat(statement.executeUpdate("DELETE FROM shop.customers WHERE id = " + y)).isEqualTo(1);
            }
        }

        /** Once the copy to {@code target} passed {@code y}: the gap lock, and {@code y} inserted again while the job copies. */
        void once(Node target, Jobs jobs, String id) throws SQLException {
            Await.until("the copy wrote row " + above + " to " + target.address(), Duration.ofSeconds(60), () -> {
                try {
                    return target.queryString("SELECT COUNT(*) FROM shop.customers WHERE id = " + above).equals("1");
                } catch (RuntimeException e) {
                    return false; // the copy has not created the table yet
                }
            });
            gap = target.connect();
            gap.setAutoCommit(false);
            Connection stall = target.connect();
            try (Statement locks = gap.createStatement(); Statement stalls = stall.createStatement()) {
                locks.execute("SET SESSION TRANSACTION ISOLATION LEVEL REPEATABLE READ");
                locks.executeQuery("SELECT id FROM shop.customers WHERE id > " + below + " AND id < " + above + " FOR UPDATE").close();
                stall.setAutoCommit(false);
                stalls.executeUpdate("INSERT INTO shop.customers VALUES (" + far + ", 'stall', 0)"); // the copy waits at row `far`
                try (Connection client = connect(proxy); Statement statement = client.createStatement()) {
                    assertThat(statement.executeUpdate("INSERT INTO shop.customers VALUES (" + y + ", 'gap', " + N + ")")).isEqualTo(1);
                }
                assertThat(jobs.phase(id)).as("row %d went to the source while the job copied", y).isEqualTo("copying");
                stall.rollback();
            } finally {
                stall.close();
            }
        }

        @Override
        public void close() throws SQLException {
            if (gap != null) {
                gap.rollback();
                gap.close();
                gap = null;
            }
        }
    }

    /** After a cancel: no write hold, the targets own no keys, and both proxies read and write the source's range there alone. */
    private void assertSourceServes(String source, String range, Node sourceNode, List<String> targetNames, List<Node> targets)
            throws Exception {
        for (int p = 0; p < proxies.size(); p++) {
            JsonNode document = new AdminApi(proxies.get(p).adminPort()).get("/api/v1/topology").json().path("document");
            assertThat(document.path("write_holds")).as("no write hold left").isEmpty();
            for (JsonNode shard : document.path("shards")) {
                String name = shard.path("name").asText();
                if (targetNames.contains(name)) {
                    assertThat(shard.path("key_range").asText()).as(name).isEqualTo("none");
                } else if (name.equals(source)) {
                    assertThat(shard.path("key_range").asText()).as(name).isEqualTo(range);
                }
            }
            long id = idIn(range, 50_000_000L + System.nanoTime() % 1_000_000 * 100);
            try (Connection connection = connect(p); Statement statement = connection.createStatement()) {
                assertThat(statement.executeUpdate("INSERT INTO shop.customers VALUES (" + id + ", 'after cancel', 3)")).isEqualTo(1);
                assertThat(statement.executeUpdate("UPDATE shop.customers SET n = 4 WHERE id = " + id)).isEqualTo(1);
                try (var rows = statement.executeQuery("SELECT n FROM shop.customers WHERE id = " + id)) {
                    assertThat(rows.next()).isTrue();
                    assertThat(rows.getInt(1)).isEqualTo(4);
                }
            }
            assertThat(ModelClient.rowsOn(sourceNode)).containsEntry(id, 4);
            for (Node target : targets) {
                assertThat(ModelClient.rowsOn(target)).as("the cancelled job's streams stopped").doesNotContainKey(id);
            }
        }
    }

    /** Starts the proxy killed by an earlier test again, from its config: the cluster has two proxies again. */
    private void startKilledAgain() {
        for (int i = 0; i < proxies.size(); i++) {
            if (!proxies.get(i).isAlive()) {
                proxies.set(i, JarProxy.start(configs.get(i)));
            }
        }
    }

    /** {@code shop.customers} as it is now (id to n), read through a proxy. */
    private Map<Long, Integer> present(int proxy) throws SQLException {
        Map<Long, Integer> rows = new java.util.HashMap<>();
        try (Connection connection = connect(proxy); Statement statement = connection.createStatement();
             var result = statement.executeQuery("SELECT id, n FROM shop.customers")) {
            while (result.next()) {
                rows.put(result.getLong(1), result.getInt(2));
            }
        }
        return rows;
    }

    private static long idIn(String range, long from) {
        return ReshardIT.idIn(range, from);
    }
}
