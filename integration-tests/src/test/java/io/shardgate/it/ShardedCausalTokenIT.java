package io.shardgate.it;

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

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import static io.shardgate.it.ShopData.firstKeyOn;
import static io.shardgate.it.ShopData.shardOf;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Read-your-writes across connections in a sharded deployment (issue 16, part 4): shard s0 on
 * InnoDB and s1 on MyRocks, each a primary and a replica, both in GTID domain 0 (so a position means
 * nothing without its shard), {@code causal_reads: token}, a freshness budget so large that a
 * replica whose SQL thread is stopped still takes reads.
 *
 * <p>With both replicas' SQL threads stopped, 1,000 pairs: a new connection A writes (one row on
 * s0, one on s1, or a row on each in one transaction: BEGIN … COMMIT, or one autocommit INSERT over
 * both shards, both XA), and takes its token, which must name exactly the shards A wrote; a new
 * connection B presents it and reads A's rows back by point reads (one shard, the direct relay) and
 * a scatter read (every shard). No read misses. A control connection without a token reads the same
 * rows from the replicas and misses each of them, so the replicas really were behind. Then, with the
 * replicas applying again, tokens keep working and the replicas serve the token holders' reads (the
 * token does not just send everything to the primaries).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ShardedCausalTokenIT {
    private static final int PAIRS = 1000;
    private static final int LIVE_PAIRS = 100;
    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final String CONFIG = """
            schemas:
              - name: tok
                tables:
                  t: { shard_key: id, vindex: hash }
            transactions: { cross_shard: xa }
            routing: { causal_reads: token, max_replica_lag_ms: 3600000 }
            """;

    private Topology topology;
    private ProxyFixture proxy;
    private final List<String> measurements = new ArrayList<>();
    /** The last token of the held-back phase: it names both shards. */
    private String lastBothShardsToken;
    private List<Long> lastBothShardsKeys;
    private long nextKey = 1_000_000;

    @BeforeAll
    void start() {
        long begin = System.nanoTime();
        topology = Topology.start(TopologySpec.builder()
                .shard("s0", Engine.INNODB, 1)
                .shard("s1", Engine.ROCKSDB, 1)
                .build());
        for (String shard : List.of("s0", "s1")) {
            topology.shard(shard).primary().execute("CREATE DATABASE tok",
                    "CREATE TABLE tok.t (id BIGINT PRIMARY KEY, tag VARCHAR(32), v VARCHAR(64), KEY (tag))");
        }
        assertThat(topology.shard("s1").primary().queryString("SELECT ENGINE FROM information_schema.TABLES"
                + " WHERE TABLE_SCHEMA = 'tok' AND TABLE_NAME = 't'")).isEqualTo("ROCKSDB");
        awaitCaughtUp();
        proxy = ProxyFixture.start(topology, ProxyFixture.HALVES, CONFIG);
        measurements.add(String.format("topology and Shardgate up in %.1f s", (System.nanoTime() - begin) / 1e9));
    }

    @AfterAll
    void stop() {
        measurements.forEach(line -> System.out.println("[sharded-causal-token-it] " + line));
        ProxyFixture.stop(proxy, topology);
    }

    @Test
    @Order(1)
    void aTokenMakesAnotherConnectionSeeEveryShardsWritesWhileTheReplicasAreHeldBack() throws Exception {
        for (Node replica : replicas()) {
            replica.stopSqlThread();
        }
        long begin = System.nanoTime();
        int misses = 0;
        int controlHits = 0;
        int reads = 0;
        Map<String, Integer> kinds = new HashMap<>();
        try (Connection control = proxy.mariadb("tok", "")) {
            for (int pair = 0; pair < PAIRS; pair++) {
                Written written = write(pair);
                kinds.merge(written.kind(), 1, Integer::sum);
                assertThat(shardsNamedBy(written.token())).as("pair %d (%s): the token %s names the shards written",
                        pair, written.kind(), written.token()).isEqualTo(written.shards());
                try (Connection b = proxy.mariadb("tok", "")) {
                    execute(b, "SET @@session.shardgate_causal_token = '" + written.token() + "'");
                    for (long key : written.keys()) {
                        reads++;
                        if (!pointRead(b, key).equals("pair " + pair)) {
                            misses++;
                        }
                    }
                    reads++;
                    if (!scatterRead(b, written.tag()).equals(written.keys())) {
                        misses++;
                    }
                }
                // The control: without a token the replicas answer, and they have not applied the write.
                for (long key : written.keys()) {
                    if (!pointRead(control, key).isEmpty()) {
                        controlHits++;
                    }
                }
                if (!scatterRead(control, written.tag()).isEmpty()) {
                    controlHits++;
                }
                if (written.shards().size() == 2) {
                    lastBothShardsToken = written.token();
                    lastBothShardsKeys = written.keys();
                }
            }
        }
        double seconds = (System.nanoTime() - begin) / 1e9;
        measurements.add(String.format("held back: %d pairs %s, %d reads with a token, %d misses; control reads"
                + " without a token that saw the write: %d; %.1f s", PAIRS, kinds, reads, misses, controlHits, seconds));
        assertThat(misses).as("reads with a token that missed the write").isZero();
        assertThat(controlHits).as("reads without a token that saw the write (the replicas must be behind)").isZero();
        assertThat(kinds).as("every kind of write ran").hasSize(4);
    }

    @Test
    @Order(2)
    void withTheReplicasCaughtUpTokenHoldersReadFromTheReplicas() throws Exception {
        for (Node replica : replicas()) {
            replica.startSqlThread();
        }
        awaitCaughtUp();
        awaitReplicas(proxy, (state, lag) -> state.equals("HEALTHY"));
        // A token of the held-back phase, now applied everywhere: the replicas serve it.
        Map<Integer, Integer> servedBy = new HashMap<>();
        try (Connection b = proxy.mariadb("tok", "")) {
            execute(b, "SET @@session.shardgate_causal_token = '" + lastBothShardsToken + "'");
            for (int i = 0; i < 20; i++) {
                for (long key : lastBothShardsKeys) {
                    servedBy.merge(serverOf(b, key), 1, Integer::sum);
                }
            }
        }
        measurements.add("an applied token's 40 point reads, by server_id: " + servedBy);
        for (Node replica : replicas()) {
            assertThat(servedBy.getOrDefault(replica.serverId(), 0)).as("reads of an applied token served by %s; by server_id: %s",
                    replica, servedBy).isPositive();
        }
        // New pairs while the replicas apply: no miss, and the replicas take token holders' reads.
        Set<Integer> replicaIds = new java.util.HashSet<>();
        replicas().forEach(replica -> replicaIds.add(replica.serverId()));
        long begin = System.nanoTime();
        int misses = 0;
        int reads = 0;
        int pointReads = 0;
        int onReplicas = 0;
        for (int pair = PAIRS; pair < PAIRS + LIVE_PAIRS; pair++) {
            Written written = write(pair);
            try (Connection b = proxy.mariadb("tok", "")) {
                execute(b, "SET @@session.shardgate_causal_token = '" + written.token() + "'");
                for (long key : written.keys()) {
                    reads++;
                    pointReads++;
                    try (Statement s = b.createStatement();
                         ResultSet r = s.executeQuery("SELECT v, @@server_id FROM t WHERE id = " + key)) {
                        if (!r.next() || !r.getString(1).equals("pair " + pair)) {
                            misses++;
                        } else if (replicaIds.contains(r.getInt(2))) {
                            onReplicas++;
                        }
                    }
                }
                reads++;
                if (!scatterRead(b, written.tag()).equals(written.keys())) {
                    misses++;
                }
            }
        }
        measurements.add(String.format("replicas applying: %d pairs, %d reads with a token, %d misses; %d of %d point reads"
                + " served by a replica; %.1f s", LIVE_PAIRS, reads, misses, onReplicas, pointReads, (System.nanoTime() - begin) / 1e9));
        assertThat(misses).as("reads with a token that missed the write").isZero();
        assertThat(onReplicas).as("point reads of token holders served by a replica").isPositive();
    }

    @Test
    @Order(3)
    void aSessionReadsItsOwnTransactionsAndTokensOfPlainCommitsAndMalformedTokensAreRefused() throws Exception {
        // A second proxy on the same shards, without XA (cross_shard: reject). Started while the
        // replicas apply, so that its lag monitor measures them before they fall behind.
        try (ProxyFixture plain = ProxyFixture.start(topology, ProxyFixture.HALVES,
                CONFIG.replace("cross_shard: xa", "cross_shard: reject"))) {
            awaitReplicas(plain, (state, lag) -> state.equals("HEALTHY"));
            awaitReplicas(proxy, (state, lag) -> state.equals("HEALTHY"));
            for (Node replica : replicas()) {
                replica.stopSqlThread();
            }
            try (Connection a = proxy.mariadb("tok", "")) {
                long single = key("s1");
                execute(a, "INSERT INTO t (id, tag, v) VALUES (" + single + ", 'own single', 'own single')");
                assertThat(pointRead(a, single)).as("own autocommit write").isEqualTo("own single");
                long k0 = key("s0");
                long k1 = key("s1");
                execute(a, "BEGIN");
                execute(a, "INSERT INTO t (id, tag, v) VALUES (" + k0 + ", 'own', 'own')");
                execute(a, "INSERT INTO t (id, tag, v) VALUES (" + k1 + ", 'own', 'own')");
                execute(a, "COMMIT");
                // The same connection, after a two-phase commit, with both replicas behind.
                assertThat(pointRead(a, k0)).isEqualTo("own");
                assertThat(pointRead(a, k1)).isEqualTo("own");
                assertThat(scatterRead(a, "own")).containsExactlyInAnyOrder(k0, k1);
                String token = token(a);
                assertThat(token).startsWith("sg2:mariadb:s0=0-").contains(";s1=0-");
                try (Statement s = a.createStatement()) {
                    for (String bad : List.of("nonsense", "sg2:mariadb:s0", "sg2:mariadb:s0=x")) {
                        org.assertj.core.api.Assertions.assertThatThrownBy(() -> s.execute(
                                "SET @@session.shardgate_causal_token = '" + bad + "'")).as(bad)
                                .hasMessageContaining("shardgate_causal_token");
                    }
                }
                assertThat(token(a)).as("a refused token changes nothing").isEqualTo(token);
            }
            // Without XA, a transaction's plain COMMIT feeds the token too.
            try (Connection a = plain.mariadb("tok", ""); Connection b = plain.mariadb("tok", "");
                 Connection control = plain.mariadb("tok", "")) {
                long k1 = key("s1");
                execute(a, "BEGIN");
                execute(a, "INSERT INTO t (id, tag, v) VALUES (" + k1 + ", 'plain', 'plain')");
                execute(a, "COMMIT");
                String token = token(a);
                assertThat(shardsNamedBy(token)).containsExactly("s1");
                assertThat(pointRead(control, k1)).as("without a token, from the held-back replica").isEmpty();
                execute(b, "SET @@session.shardgate_causal_token = '" + token + "'");
                assertThat(pointRead(b, k1)).isEqualTo("plain");
                assertThat(scatterRead(b, "plain")).containsExactly(k1);
            }
        } finally {
            for (Node replica : replicas()) {
                replica.startSqlThread();
            }
        }
    }

    /** What connection A wrote in one pair. */
    private record Written(String kind, String tag, List<Long> keys, Set<String> shards, String token) {
    }

    /** A new connection writes the rows of pair {@code pair}, tagged with it, and hands over its token. */
    private Written write(int pair) throws SQLException {
        String tag = "pair-" + pair;
        String value = "'pair " + pair + "'";
        String kind;
        List<Long> keys;
        try (Connection a = proxy.mariadb("tok", "")) {
            switch (pair % 6) {
                case 0, 1, 2, 3 -> {
                    String shard = pair % 2 == 0 ? "s0" : "s1";
                    kind = "single " + shard;
                    keys = List.of(key(shard));
                    execute(a, "INSERT INTO t (id, tag, v) VALUES (" + keys.get(0) + ", '" + tag + "', " + value + ")");
                }
                case 4 -> {
                    kind = "transaction";
                    keys = List.of(key("s0"), key("s1"));
                    execute(a, "BEGIN");
                    for (long key : keys) {
                        execute(a, "INSERT INTO t (id, tag, v) VALUES (" + key + ", '" + tag + "', " + value + ")");
                    }
                    execute(a, "COMMIT");
                }
                default -> {
                    kind = "multi-shard insert";
                    keys = List.of(key("s0"), key("s1"));
                    execute(a, "INSERT INTO t (id, tag, v) VALUES (" + keys.get(0) + ", '" + tag + "', " + value + "), ("
                            + keys.get(1) + ", '" + tag + "', " + value + ")");
                }
            }
            Set<String> shards = new TreeSet<>();
            keys.forEach(key -> shards.add(shardOf(key)));
            return new Written(kind, tag, keys.stream().sorted().toList(), shards, token(a));
        }
    }

    private long key(String shard) {
        long key = firstKeyOn(shard, nextKey);
        nextKey = key + 1;
        return key;
    }

    /** The shard names a version 2 token names. */
    private static Set<String> shardsNamedBy(String token) {
        assertThat(token).startsWith("sg2:mariadb:");
        Set<String> shards = new TreeSet<>();
        for (String entry : token.substring("sg2:mariadb:".length()).split(";")) {
            if (!entry.isEmpty()) {
                shards.add(entry.substring(0, entry.indexOf('=')));
            }
        }
        return shards;
    }

    private static String token(Connection c) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet r = s.executeQuery("SELECT @@shardgate_causal_token")) {
            assertThat(r.next()).isTrue();
            return r.getString(1);
        }
    }

    /** A read by shard key (one shard); the row's value, or "" when the row is not there. */
    private static String pointRead(Connection c, long key) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet r = s.executeQuery("SELECT v FROM t WHERE id = " + key)) {
            return r.next() ? r.getString(1) : "";
        }
    }

    /** A read of every shard: the keys of the rows tagged {@code tag}, in order. */
    private static List<Long> scatterRead(Connection c, String tag) throws SQLException {
        List<Long> keys = new ArrayList<>();
        try (Statement s = c.createStatement(); ResultSet r = s.executeQuery("SELECT id FROM t WHERE tag = '" + tag + "' ORDER BY id")) {
            while (r.next()) {
                keys.add(r.getLong(1));
            }
        }
        return keys;
    }

    private static void execute(Connection c, String sql) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute(sql);
        }
    }

    private List<Node> replicas() {
        return List.of(topology.shard("s0").replica(0), topology.shard("s1").replica(0));
    }

    private void awaitCaughtUp() {
        for (String shard : List.of("s0", "s1")) {
            String position = topology.shard(shard).primary().gtidBinlogPos();
            Node replica = topology.shard(shard).replica(0);
            assertThat(replica.awaitGtid(position, WAIT)).as("%s caught up with %s", replica, position).isTrue();
        }
    }

    /** Until {@code proxy}'s lag monitor reports both replicas as {@code wanted} (state, lag_ms or null). */
    private static void awaitReplicas(ProxyFixture proxy, java.util.function.BiPredicate<String, String> wanted) throws Exception {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (true) {
            Map<String, String> seen = new HashMap<>();
            boolean all = true;
            try (Connection c = proxy.mariadb("tok", ""); Statement s = c.createStatement();
                 ResultSet r = s.executeQuery("SHOW SHARDGATE BACKENDS")) {
                while (r.next()) {
                    if (r.getString("role").equals("replica")) {
                        seen.put(r.getString("address"), r.getString("state") + " lag " + r.getString("lag_ms"));
                        all &= wanted.test(r.getString("state"), r.getString("lag_ms"));
                    }
                }
            }
            if (seen.size() == 2 && all) {
                return;
            }
            assertThat(System.nanoTime()).as("replicas as wanted; now %s", seen).isLessThan(deadline);
            Thread.sleep(50); // the lag monitor's poll interval
        }
    }

    /** The server_id of the backend that answers a point read of {@code key}. */
    private static int serverOf(Connection c, long key) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet r = s.executeQuery("SELECT @@server_id, v FROM t WHERE id = " + key)) {
            assertThat(r.next()).as("row %d", key).isTrue();
            return r.getInt(1);
        }
    }
}
