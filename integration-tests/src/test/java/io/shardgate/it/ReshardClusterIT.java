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
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ReshardClusterIT {
    private static final int ROWS = 30_000;
    private EtcdCluster etcd;
    private Topology topology;
    private final List<JarProxy> proxies = new ArrayList<>();
    private final List<String> ids = new ArrayList<>();
    private int survivorIndex = 1;

    @BeforeAll
    void start() throws Exception {
        etcd = EtcdCluster.start(1);
        topology = Topology.start(TopologySpec.builder().shard("s0", Engine.INNODB, 0).shard("s1", Engine.INNODB, 0)
                .shard("s2", Engine.INNODB, 0).shard("s3", Engine.INNODB, 0).shard("s4", Engine.INNODB, 0).shard("s5", Engine.INNODB, 0).build());
        Path work = Files.createTempDirectory("reshard-cluster-it");
        String prefix = "/shardgate/reshard-" + System.nanoTime();
        Map<String, Map<String, String>> keys = new LinkedHashMap<>();
        keys.put("s0", Map.of("key_range", "-80"));
        keys.put("s1", Map.of("key_range", "80-"));
        for (int i = 0; i < 2; i++) {
            ids.add("proxy-" + i);
            proxies.add(JarProxy.start(ProxyFixture.config(topology, keys, """
                    schemas:
                      - name: shop
                        tables:
                          customers: { shard_key: id, vindex: hash }
                    topology:
                      store: etcd
                      etcd: { endpoints: [%s], prefix: %s, dial_timeout_ms: 1000 }
                      proxy_id: proxy-%d
                      local_copy: %s
                    """.formatted(String.join(", ", etcd.endpoints()), prefix, i, work.resolve("proxy-" + i + ".json")))));
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
                JsonNode back = survivor.await(id, "ready", Duration.ofSeconds(30));
                Await.until("the cutover gave up", Duration.ofSeconds(30),
                        () -> survivor.job(id).path("error").asText().contains("cutover aborted"));
                System.out.printf("[reshard-cluster] cutover gave up after %d ms: %s%n", (System.nanoTime() - asked) / 1_000_000,
                        survivor.job(id).path("error").asText());
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

    private static long idIn(String range, long from) {
        io.shardgate.router.shard.KeyRange keys = io.shardgate.router.shard.KeyRange.parse(range);
        long id = from;
        while (!keys.contains(ReshardIT.keyspaceId(id))) {
            id++;
        }
        return id;
    }
}
