package io.shardgate.it;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.shardgate.proxy.topology.EtcdStoreCrash;
import io.shardgate.proxy.topology.EtcdStoreSettings;
import io.shardgate.proxy.topology.EtcdTopologyStore;
import io.shardgate.proxy.topology.ProxyRegistration;
import io.shardgate.proxy.topology.StoredTopology;
import io.shardgate.proxy.topology.TopologyStoreUnavailableException;
import io.shardgate.proxy.topology.TopologyWrite;
import io.shardgate.replication.topology.EtcdCluster;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The etcd topology store against a real 3-member etcd cluster, leader kill and full outage included. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class EtcdTopologyStoreIT {
    private static final Duration DIAL = Duration.ofSeconds(1);
    private static final Duration LEASE = Duration.ofSeconds(2);

    private EtcdCluster etcd;
    private String prefix;
    private final List<EtcdTopologyStore> stores = new ArrayList<>();

    @BeforeAll
    void startCluster() {
        long begin = System.nanoTime();
        etcd = EtcdCluster.start(3);
        System.out.printf("EtcdTopologyStoreIT: 3 etcd members up in %d ms: %s%n",
                (System.nanoTime() - begin) / 1_000_000, etcd.endpoints());
    }

    @AfterAll
    void stopCluster() {
        if (etcd != null) {
            etcd.close();
        }
    }

    @AfterEach
    void closeStores() {
        stores.forEach(EtcdTopologyStore::close);
        stores.clear();
    }

    private EtcdTopologyStore store() {
        EtcdTopologyStore store = new EtcdTopologyStore(new EtcdStoreSettings(etcd.endpoints(), prefix, DIAL, LEASE));
        stores.add(store);
        return store;
    }

    @BeforeEach
    void prefixPerTest(TestInfo test) {
        prefix = "/shardgate/it-" + test.getTestMethod().orElseThrow().getName();
    }

    @Test
    @Order(1)
    void compareAndSetCreatesFromZeroThenFollowsVersions() {
        EtcdTopologyStore store = store();
        assertThat(store.read()).isEqualTo(new StoredTopology(0, ""));
        assertThat(store.available()).isTrue();
        assertThat(store.describe()).isEqualTo("etcd " + String.join(",", etcd.endpoints()));

        TopologyWrite first = store.compareAndSet(0, "{\"n\":1}");
        assertThat(first).isInstanceOf(TopologyWrite.Written.class);
        long v1 = ((TopologyWrite.Written) first).version();
        assertThat(v1).isPositive();
        assertThat(store.read()).isEqualTo(new StoredTopology(v1, "{\"n\":1}"));

        assertThat(store.compareAndSet(0, "{\"n\":\"again\"}"))
                .isEqualTo(new TopologyWrite.Conflict(new StoredTopology(v1, "{\"n\":1}")));
        assertThat(store.compareAndSet(v1 + 1000, "{\"n\":\"future\"}"))
                .isEqualTo(new TopologyWrite.Conflict(new StoredTopology(v1, "{\"n\":1}")));

        TopologyWrite second = store.compareAndSet(v1, "{\"n\":2}");
        long v2 = ((TopologyWrite.Written) second).version();
        assertThat(v2).isGreaterThan(v1);
        assertThat(store().read()).as("another client reads the newest").isEqualTo(new StoredTopology(v2, "{\"n\":2}"));
    }

    @Test
    @Order(2)
    void twoWritersRacingOnOneVersionExactlyOneWins() throws Exception {
        EtcdTopologyStore a = store();
        EtcdTopologyStore b = store();
        long version = ((TopologyWrite.Written) a.compareAndSet(0, "{\"round\":0}")).version();
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            for (int round = 1; round <= 50; round++) {
                long expected = version;
                CyclicBarrier together = new CyclicBarrier(2);
                String docA = "{\"round\":" + round + ",\"by\":\"a\"}";
                String docB = "{\"round\":" + round + ",\"by\":\"b\"}";
                Future<TopologyWrite> byA = pool.submit(() -> {
                    together.await();
                    return a.compareAndSet(expected, docA);
                });
                Future<TopologyWrite> byB = pool.submit(() -> {
                    together.await();
                    return b.compareAndSet(expected, docB);
                });
                TopologyWrite ra = byA.get();
                TopologyWrite rb = byB.get();
                List<TopologyWrite> results = List.of(ra, rb);
                assertThat(results).as("round " + round).filteredOn(r -> r instanceof TopologyWrite.Written).hasSize(1);
                TopologyWrite.Written won = (TopologyWrite.Written) results.stream()
                        .filter(r -> r instanceof TopologyWrite.Written).findFirst().orElseThrow();
                TopologyWrite.Conflict lost = (TopologyWrite.Conflict) results.stream()
                        .filter(r -> r instanceof TopologyWrite.Conflict).findFirst().orElseThrow();
                String winnerDoc = ra instanceof TopologyWrite.Written ? docA : docB;
                assertThat(lost.current()).as("round " + round).isEqualTo(new StoredTopology(won.version(), winnerDoc));
                version = won.version();
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    @Order(3)
    void watchDeliversEveryWrittenVersionInOrder() {
        EtcdTopologyStore writer = store();
        EtcdTopologyStore watcher = store();
        long start = ((TopologyWrite.Written) writer.compareAndSet(0, "{\"i\":0}")).version();
        List<StoredTopology> seen = new CopyOnWriteArrayList<>();
        List<String> threads = new CopyOnWriteArrayList<>();
        watcher.watch(start, topology -> {
            seen.add(topology);
            threads.add(Thread.currentThread().getName());
        });
        List<StoredTopology> written = new ArrayList<>();
        long version = start;
        for (int i = 1; i <= 20; i++) {
            String doc = "{\"i\":" + i + "}";
            version = ((TopologyWrite.Written) writer.compareAndSet(version, doc)).version();
            written.add(new StoredTopology(version, doc));
        }
        long last = version;
        Await.until("the watcher sees version " + last, Duration.ofSeconds(10),
                () -> !seen.isEmpty() && seen.get(seen.size() - 1).version() == last);
        assertThat(seen).containsExactlyElementsOf(written);
        assertThat(threads).as("one thread").containsOnly(threads.get(0));

        List<StoredTopology> fromZero = new CopyOnWriteArrayList<>();
        watcher.watch(0, fromZero::add);
        Await.until("a watch from 0 delivers the newest", Duration.ofSeconds(10),
                () -> !fromZero.isEmpty() && fromZero.get(fromZero.size() - 1).version() == last);
        assertThat(fromZero).as("in order, no repeats").isSortedAccordingTo((x, y) -> Long.compare(x.version(), y.version()))
                .doesNotHaveDuplicates();
    }

    @Test
    @Order(4)
    void registrationLivesWithItsStore() {
        EtcdTopologyStore observer = store();
        EtcdTopologyStore proxyA = store();
        Instant started = Instant.now().truncatedTo(ChronoUnit.MILLIS);
        ProxyRegistration a = new ProxyRegistration("proxy-a", "127.0.0.1:3307", "127.0.0.1:8080", 0, started);
        proxyA.register(a);
        assertThat(observer.registrations()).containsExactly(a);
        proxyA.register(a.withVersion(7));
        assertThat(observer.registrations()).containsExactly(a.withVersion(7));

        proxyA.close();
        assertThat(observer.registrations()).as("revoked on close").isEmpty();

        EtcdTopologyStore proxyB = store();
        ProxyRegistration b = new ProxyRegistration("proxy-b", "127.0.0.1:3308", "127.0.0.1:8081", 3, started);
        proxyB.register(b);
        assertThat(observer.registrations()).containsExactly(b);
        long died = System.nanoTime();
        EtcdStoreCrash.die(proxyB);
        assertThat(observer.registrations()).as("still there until the lease expires").containsExactly(b);
        Await.until("the registration of a dead proxy expires", Duration.ofSeconds(10), () -> observer.registrations().isEmpty());
        System.out.printf("EtcdTopologyStoreIT: a dead proxy's registration (lease %d s) gone after %d ms%n",
                LEASE.toSeconds(), (System.nanoTime() - died) / 1_000_000);
    }

    @Test
    @Order(5)
    void leaderKilledWritesResumeAndTheWatchGoesOn() {
        EtcdTopologyStore writer = store();
        EtcdTopologyStore watcher = store();
        long version = ((TopologyWrite.Written) writer.compareAndSet(0, "{\"before\":true}")).version();
        List<StoredTopology> seen = new CopyOnWriteArrayList<>();
        watcher.watch(0, seen::add);
        long first = version;
        Await.until("the watcher sees the first version", Duration.ofSeconds(10),
                () -> !seen.isEmpty() && seen.get(seen.size() - 1).version() == first);

        int leader = etcd.leader();
        long killed = System.nanoTime();
        etcd.kill(leader);
        TopologyWrite after = null;
        int failures = 0;
        while (after == null) {
            try {
                after = writer.compareAndSet(version, "{\"after\":true}");
            } catch (TopologyStoreUnavailableException e) {
                failures++;
                assertThat(e.getMessage()).contains("etcd http://127.0.0.1:");
                assertThat(System.nanoTime() - killed).as("writes resume within 10 s").isLessThan(Duration.ofSeconds(10).toNanos());
            }
        }
        long resumedMillis = (System.nanoTime() - killed) / 1_000_000;
        assertThat(after).isInstanceOf(TopologyWrite.Written.class);
        long written = ((TopologyWrite.Written) after).version();
        Await.until("the watcher sees the write after the kill", Duration.ofSeconds(10),
                () -> seen.get(seen.size() - 1).version() == written);
        System.out.printf("EtcdTopologyStoreIT: leader etcd%d killed; a write succeeded after %d ms (%d failed tries), "
                + "new leader etcd%d%n", leader, resumedMillis, failures, etcd.leader());
        assertThat(seen).extracting(StoredTopology::version).containsExactly(first, written);

        etcd.restart(leader);
        etcd.awaitHealthy(Duration.ofSeconds(15));
        long third = ((TopologyWrite.Written) writer.compareAndSet(written, "{\"rejoined\":true}")).version();
        Await.until("the watcher sees the write after the rejoin", Duration.ofSeconds(10),
                () -> seen.get(seen.size() - 1).version() == third);
    }

    @Test
    @Order(6)
    void allMembersStoppedThenBack() {
        EtcdTopologyStore store = store();
        EtcdTopologyStore watcher = store();
        long version = ((TopologyWrite.Written) store.compareAndSet(0, "{\"outage\":false}")).version();
        ProxyRegistration proxy = new ProxyRegistration("proxy-c", "127.0.0.1:3309", "127.0.0.1:8082", version,
                Instant.now().truncatedTo(ChronoUnit.MILLIS));
        store.register(proxy);
        List<StoredTopology> seen = new CopyOnWriteArrayList<>();
        watcher.watch(version, seen::add);
        etcd.awaitHealthy(Duration.ofSeconds(15));

        long stopping = System.nanoTime();
        etcd.stopAll();
        long stopped = System.nanoTime();
        long stopAllMillis = (stopped - stopping) / 1_000_000;
        Await.until("available() turns false within 2 dial timeouts", DIAL.multipliedBy(2).plusMillis(500),
                () -> !store.available());
        long unavailableMillis = (System.nanoTime() - stopped) / 1_000_000;
        long callStarted = System.nanoTime();
        assertThatThrownBy(store::read).isInstanceOf(TopologyStoreUnavailableException.class)
                .hasMessageContaining("etcd http://127.0.0.1:");
        assertThatThrownBy(() -> store.compareAndSet(version, "{\"outage\":true}"))
                .isInstanceOf(TopologyStoreUnavailableException.class).hasMessageContaining("etcd http://127.0.0.1:");
        long twoCallsMillis = (System.nanoTime() - callStarted) / 1_000_000;
        assertThat(twoCallsMillis).as("each call ends by its deadline").isLessThan(DIAL.multipliedBy(2).toMillis() + 1000);
        assertThat(watcher.available()).isFalse();
        assertThatThrownBy(() -> store.register(proxy.withVersion(99)))
                .isInstanceOf(TopologyStoreUnavailableException.class).hasMessageContaining("etcd http://127.0.0.1:");

        long restarting = System.nanoTime();
        etcd.startAll();
        long restarted = System.nanoTime();
        long startAllMillis = (restarted - restarting) / 1_000_000;
        Await.until("available() again", Duration.ofSeconds(10), store::available);
        long availableMillis = (System.nanoTime() - restarted) / 1_000_000;
        EtcdTopologyStore other = store();
        long next = ((TopologyWrite.Written) other.compareAndSet(version, "{\"outage\":\"over\"}")).version();
        Await.until("the watcher gets the write made after the outage", Duration.ofSeconds(10),
                () -> !seen.isEmpty() && seen.get(seen.size() - 1).version() == next);
        assertThat(seen).containsExactly(new StoredTopology(next, "{\"outage\":\"over\"}"));
        Await.until("the registration refused during the outage is made once etcd is back", Duration.ofSeconds(10),
                () -> other.registrations().contains(proxy.withVersion(99)));
        System.out.printf("EtcdTopologyStoreIT: all members stopped (in %d ms): unavailable %d ms later, two calls failed "
                + "in %d ms; started again (healthy in %d ms): available %d ms later%n", stopAllMillis, unavailableMillis,
                twoCallsMillis, startAllMillis, availableMillis);
    }

    @Test
    @Order(7)
    void watchFromACompactedVersionReadsAndWatchesAgain() throws Exception {
        EtcdTopologyStore writer = store();
        EtcdTopologyStore watcher = store();
        long first = ((TopologyWrite.Written) writer.compareAndSet(0, "{\"c\":0}")).version();
        long version = first;
        for (int i = 1; i <= 5; i++) {
            version = ((TopologyWrite.Written) writer.compareAndSet(version, "{\"c\":" + i + "}")).version();
        }
        compact(version);
        List<StoredTopology> seen = new CopyOnWriteArrayList<>();
        watcher.watch(first, seen::add);
        long newest = version;
        Await.until("the watcher gets the newest version although its start was compacted", Duration.ofSeconds(10),
                () -> !seen.isEmpty() && seen.get(seen.size() - 1).version() == newest);
        assertThat(seen).as("the versions in between are gone with the compaction")
                .containsExactly(new StoredTopology(newest, "{\"c\":5}"));
        long next = ((TopologyWrite.Written) writer.compareAndSet(newest, "{\"c\":6}")).version();
        Await.until("the watcher goes on after the compaction", Duration.ofSeconds(10),
                () -> seen.get(seen.size() - 1).version() == next);
        assertThat(seen).extracting(StoredTopology::version).containsExactly(newest, next);
    }

    @Test
    @Order(8)
    void aRegistrationWhoseLeaseIsLostIsRenewed() throws Exception {
        EtcdTopologyStore proxy = store();
        EtcdTopologyStore observer = store();
        ProxyRegistration registration = new ProxyRegistration("proxy-d", "127.0.0.1:3310", "127.0.0.1:8083", 1,
                Instant.now().truncatedTo(ChronoUnit.MILLIS));
        proxy.register(registration);
        String key = prefix + "/proxies/proxy-d";
        long lease = lease(key);
        assertThat(lease).isNotZero();
        long revoked = System.nanoTime();
        gateway("/v3/lease/revoke", "{\"ID\":\"" + lease + "\"}");
        assertThat(observer.registrations()).as("gone with its lease").isEmpty();
        Await.until("the proxy registers again under a new lease", Duration.ofSeconds(10),
                () -> observer.registrations().contains(registration));
        assertThat(lease(key)).isNotZero().isNotEqualTo(lease);
        System.out.printf("EtcdTopologyStoreIT: a revoked lease was replaced after %d ms%n",
                (System.nanoTime() - revoked) / 1_000_000);
    }

    /** The lease a key is attached to, through etcd's JSON gateway. */
    private long lease(String key) throws Exception {
        String encoded = Base64.getEncoder().encodeToString(key.getBytes(StandardCharsets.UTF_8));
        JsonNode range = new ObjectMapper().readTree(gateway("/v3/kv/range", "{\"key\":\"" + encoded + "\"}"));
        return range.path("kvs").path(0).path("lease").asLong(0);
    }

    /** Compacts etcd's history up to {@code revision}, through its JSON gateway. */
    private void compact(long revision) throws Exception {
        gateway("/v3/kv/compaction", "{\"revision\":\"" + revision + "\",\"physical\":true}");
    }

    private String gateway(String path, String body) throws Exception {
        HttpResponse<String> response = HttpClient.newHttpClient().send(
                HttpRequest.newBuilder(URI.create(etcd.endpoint(etcd.leader()) + path))
                        .POST(HttpRequest.BodyPublishers.ofString(body))
                        .timeout(Duration.ofSeconds(5)).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as(path + ": " + response.body()).isEqualTo(200);
        return response.body();
    }

}
