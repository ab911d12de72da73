package io.shardgate.it;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.shardgate.replication.topology.Node;
import io.shardgate.replication.topology.Topology;
import io.shardgate.replication.topology.TopologySpec;
import io.shardgate.router.shard.KeyRange;
import io.shardgate.router.vindex.XxHash64;
import io.shardgate.storage.Engine;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;

import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A cutover's write hold and key switch through a packaged proxy, driven the way a job drives it (through the topology
 * document): s1's keys move to s2 and s3 while clients write every few milliseconds. The new shards start as replicas
 * of s1 (real GTID replication stands in for the job's filtered copy here), joined with {@code key_range: none}.
 * Every acknowledged write is then found on the shard that owns its key, writes after the switch never reach s1, and
 * none of them failed. A transaction left open on a held shard keeps the proxy from reporting its writes done, so that
 * cutover is abandoned, writes flow again, and a later one succeeds.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class CutoverIT {
    private static final String JOB = "it-split";
    private Topology topology;
    private JarProxy proxy;
    private AdminApi admin;
    private Node s1;
    private Node s2;
    private Node s3;

    @BeforeAll
    void start() throws Exception {
        topology = Topology.start(TopologySpec.builder().shard("s0", Engine.INNODB, 0).shard("s1", Engine.INNODB, 2).build());
        s1 = topology.shard("s1").primary();
        s2 = topology.shard("s1").replica(0);
        s3 = topology.shard("s1").replica(1);
        String yaml = ProxyFixture.config(topology, new java.util.LinkedHashMap<>(Map.of("s0", Map.of("key_range", "-80"),
                        "s1", Map.of("key_range", "80-"))),
                "schemas:\n  - name: shop\n    tables:\n      customers: { shard_key: id, vindex: hash }\n")
                .replace("    replicas: [" + s2.address() + ", " + s3.address() + "]\n", "");
        yaml = yaml.replace("users:\n", "  - { name: s2, primary: \"" + s2.address() + "\", key_range: none }\n"
                + "  - { name: s3, primary: \"" + s3.address() + "\", key_range: none }\nusers:\n");
        proxy = JarProxy.start(yaml);
        admin = new AdminApi(proxy.adminPort());
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            statement.execute("CREATE DATABASE shop");
            statement.execute("CREATE TABLE shop.customers (id BIGINT PRIMARY KEY, note VARCHAR(40) NOT NULL)");
        }
        String position = s1.gtidBinlogPos();
        assertThat(s2.awaitGtid(position, Duration.ofSeconds(30))).isTrue();
        assertThat(s3.awaitGtid(position, Duration.ofSeconds(30))).isTrue();
    }

    @AfterAll
    void stop() {
        try {
            if (proxy != null) {
                proxy.close();
            }
        } finally {
            if (topology != null) {
                topology.close();
            }
        }
    }

    private Connection connect() throws SQLException {
        return DriverManager.getConnection("jdbc:mariadb://127.0.0.1:" + proxy.port() + "/?connectTimeout=5000",
                ProxyFixture.USER, ProxyFixture.PASSWORD);
    }

    private static long keyspaceId(long id) {
        return XxHash64.hash(Long.toString(id).getBytes(StandardCharsets.US_ASCII));
    }

    private static long idIn(String range, long from) {
        KeyRange keys = KeyRange.parse(range);
        long id = from;
        while (!keys.contains(keyspaceId(id))) {
            id++;
        }
        return id;
    }

    /** Writers that insert through the proxy every few milliseconds and record what was acknowledged, and when. */
    private final class Writers implements AutoCloseable {
        final ConcurrentLinkedQueue<long[]> acknowledged = new ConcurrentLinkedQueue<>(); // {id, ack nanos}
        final ConcurrentLinkedQueue<String> errors = new ConcurrentLinkedQueue<>();
        final AtomicLong longestPauseNanos = new AtomicLong();
        private final AtomicBoolean stop = new AtomicBoolean();
        private final List<Thread> threads = new ArrayList<>();

        Writers(int count, long firstId) {
            for (int t = 0; t < count; t++) {
                long base = firstId + t * 1_000_000L;
                Thread thread = new Thread(() -> write(base), "cutover-writer-" + t);
                threads.add(thread);
                thread.start();
            }
        }

        private void write(long base) {
            try (Connection connection = connect();
                 PreparedStatement insert = connection.prepareStatement("INSERT INTO shop.customers VALUES (?, 'w')")) {
                long last = System.nanoTime();
                for (long id = base; !stop.get(); id++) {
                    try {
                        insert.setLong(1, id);
                        insert.executeUpdate();
                        long now = System.nanoTime();
                        acknowledged.add(new long[]{id, now});
                        longestPauseNanos.accumulateAndGet(now - last, Math::max);
                        last = now;
                    } catch (SQLException e) {
                        errors.add(id + ": " + e.getErrorCode() + " " + e.getMessage());
                    }
                    Thread.sleep(3);
                }
            } catch (SQLException | InterruptedException e) {
                errors.add("writer: " + e);
            }
        }

        @Override
        public void close() throws InterruptedException {
            stop.set(true);
            for (Thread thread : threads) {
                thread.join(30_000);
            }
        }
    }

    private JsonNode topologyNow() {
        AdminApi.Response response = admin.get("/api/v1/topology");
        assertThat(response.status()).as(response.body()).isEqualTo(200);
        return response.json();
    }

    /** Writes the document with {@code edit} applied, on the version it read: returns the new version. */
    private long write(java.util.function.Consumer<ObjectNode> edit) {
        JsonNode now = topologyNow();
        ObjectNode document = (ObjectNode) now.get("document").deepCopy();
        edit.accept(document);
        AdminApi.Response response = admin.send("PUT", "/api/v1/topology", document.toString(), now.get("version").asLong());
        assertThat(response.status()).as(response.body()).isEqualTo(200);
        return response.json().get("version").asLong();
    }

    private static void hold(ObjectNode document, String job, String shard) {
        ObjectNode hold = document.withArray("write_holds").addObject().put("job", job).put("max_hold_ms", 5000)
                .put("since", Instant.now().toString());
        hold.putArray("shards").add(shard);
    }

    private boolean drained(String job, long version) {
        JsonNode proxyNow = topologyNow().get("proxies").get(0);
        if (proxyNow.get("version").asLong() < version || !proxyNow.has("holds_drained")) {
            return false;
        }
        for (JsonNode drainedJob : proxyNow.get("holds_drained")) {
            if (drainedJob.asText().equals(job)) {
                return true;
            }
        }
        return false;
    }

    private static void setRange(ObjectNode document, String shard, String range) {
        for (JsonNode node : (ArrayNode) document.get("shards")) {
            if (node.get("name").asText().equals(shard)) {
                ((ObjectNode) node).put("key_range", range);
            }
        }
    }

    private static long count(Node node, long id) throws SQLException {
        try (Connection connection = node.connect(); Statement statement = connection.createStatement();
             ResultSet rows = statement.executeQuery("SELECT COUNT(*) FROM shop.customers WHERE id = " + id)) {
            rows.next();
            return rows.getLong(1);
        }
    }

    @Test
    @Order(1)
    void keysMoveUnderLoadAndEveryAcknowledgedWriteLandsOnItsOwner() throws Exception {
        long switchedAt;
        Writers writers = new Writers(3, 1);
        try (writers) {
            Await.until("the writers are under way", Duration.ofSeconds(20), () -> writers.acknowledged.size() > 100);
            long holdVersion = write(document -> hold(document, JOB, "s1"));
            long heldAt = System.nanoTime();
            Await.until("the proxy reports its writes to s1 done", Duration.ofSeconds(5), () -> drained(JOB, holdVersion));
            String position = s1.gtidBinlogPos(); // covers every write the proxy acknowledged on s1
            assertThat(s2.awaitGtid(position, Duration.ofSeconds(5))).isTrue();
            assertThat(s3.awaitGtid(position, Duration.ofSeconds(5))).isTrue();
            long switchVersion = write(document -> {
                setRange(document, "s1", "none");
                setRange(document, "s2", "80-c0");
                setRange(document, "s3", "c0-");
                document.remove("write_holds");
            });
            Await.until("the proxy serves the new shard map", Duration.ofSeconds(5),
                    () -> topologyNow().get("applied_version").asLong() >= switchVersion);
            switchedAt = System.nanoTime();
            System.out.printf("[cutover] writes to s1 held for %d ms (hold %d, switch %d)%n",
                    (switchedAt - heldAt) / 1_000_000, holdVersion, switchVersion);
            s2.execute("STOP SLAVE");
            s3.execute("STOP SLAVE");
            int before = writers.acknowledged.size();
            Await.until("the writers go on after the switch", Duration.ofSeconds(20), () -> writers.acknowledged.size() > before + 100);
        }
        System.out.printf("[cutover] %d writes acknowledged, longest pause between two of one writer %d ms%n",
                writers.acknowledged.size(), writers.longestPauseNanos.get() / 1_000_000);
        assertThat(writers.errors).as("no write failed").isEmpty();
        assertThat(writers.longestPauseNanos.get()).as("no write waited past the hold's bound").isLessThan(5_000_000_000L);
        int afterSwitch = 0;
        try (Connection connection = connect();
             PreparedStatement find = connection.prepareStatement("SELECT COUNT(*) FROM shop.customers WHERE id = ?")) {
            for (long[] write : writers.acknowledged) {
                long id = write[0];
                find.setLong(1, id);
                try (ResultSet rows = find.executeQuery()) {
                    rows.next();
                    assertThat(rows.getLong(1)).as("write %d through the proxy", id).isEqualTo(1);
                }
                long keyspace = keyspaceId(id);
                Node owner = KeyRange.parse("-80").contains(keyspace) ? topology.shard("s0").primary()
                        : KeyRange.parse("80-c0").contains(keyspace) ? s2 : s3;
                assertThat(count(owner, id)).as("write %d on its owner %s", id, owner.address()).isEqualTo(1);
                if (write[1] > switchedAt && owner != topology.shard("s0").primary()) {
                    afterSwitch++;
                    assertThat(count(s1, id)).as("write %d after the switch is not on s1", id).isZero();
                }
            }
        }
        assertThat(afterSwitch).as("writes to the moved keys after the switch").isPositive();
    }

    @Test
    @Order(2)
    void aTransactionOpenOnTheHeldShardAbortsTheCutoverAndWritesGoOn() throws Exception {
        long inS2 = idIn("80-c0", 50_000_000L);
        long another = idIn("80-c0", inS2 + 1);
        try (Connection open = connect(); Statement statement = open.createStatement()) {
            open.setAutoCommit(false);
            statement.executeUpdate("INSERT INTO shop.customers VALUES (" + inS2 + ", 'open')");
            long holdVersion = write(document -> hold(document, "it-abort", "s2"));
            long deadline = System.nanoTime() + Duration.ofMillis(1500).toNanos();
            while (System.nanoTime() < deadline) {
                assertThat(drained("it-abort", holdVersion)).as("a write of an open transaction is under way on s2").isFalse();
                Thread.sleep(20);
            }
            // The cutover gives up: it lifts the hold, and writes to s2 flow again.
            write(document -> document.remove("write_holds"));
            try (Connection other = connect(); Statement insert = other.createStatement()) {
                assertThat(insert.executeUpdate("INSERT INTO shop.customers VALUES (" + another + ", 'after')")).isEqualTo(1);
            }
            open.commit();
        }
        assertThat(count(s2, inS2)).isEqualTo(1);
        assertThat(count(s2, another)).isEqualTo(1);
        // A later attempt, with no transaction open, is reported drained.
        long retry = write(document -> hold(document, "it-retry", "s2"));
        Await.until("the retry's hold drains", Duration.ofSeconds(5), () -> drained("it-retry", retry));
        write(document -> document.remove("write_holds"));
    }
}
