package io.shardgate.it;

import io.shardgate.replication.topology.Topology;
import io.shardgate.replication.topology.TopologySpec;
import io.shardgate.storage.Engine;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A 1 GiB result read by a slow client through a proxy running in its own JVM: the proxy must
 * stop reading from the backend instead of buffering, so its heap and its Netty buffers stay small.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class StreamingIT {
    private static final Path HOME = Path.of(System.getProperty("shardgate.home", "..")).toAbsolutePath().normalize();
    private static final long LIMIT = 64L * 1024 * 1024;
    private static final Pattern LISTENING = Pattern.compile("listening on 127\\.0\\.0\\.1:(\\d+) .*admin on 127\\.0\\.0\\.1:(\\d+)");
    private Topology topology;
    private Process proxy;
    private Path config;
    private int port;
    private int adminPort;

    @BeforeAll
    void start() throws Exception {
        topology = Topology.start(TopologySpec.builder().shard("s0", Engine.INNODB, 0).build());
        topology.shard("s0").primary().execute("CREATE DATABASE stream");
        config = Files.createTempFile("streaming", ".yaml");
        Files.writeString(config, """
                listen: { host: 127.0.0.1, port: 0 }
                admin: { host: 127.0.0.1, port: 0, token: %s }
                users: [ { name: app, password: app } ]
                backend_user: { name: %s, password: "%s" }
                shards: [ { name: s0, primary: "%s" } ]
                """.formatted(ProxyFixture.ADMIN_TOKEN, topology.accounts().user(), topology.accounts().password(),
                topology.shard("s0").primary().address()));
        proxy = new ProcessBuilder("java", "-Xmx128m", "-jar", HOME.resolve("proxy-core/target/shardgate.jar").toString(),
                "run", "--config", config.toString()).redirectErrorStream(true).start();
        BufferedReader out = new BufferedReader(new InputStreamReader(proxy.getInputStream(), StandardCharsets.UTF_8));
        String line;
        StringBuilder seen = new StringBuilder();
        while ((line = out.readLine()) != null) {
            seen.append(line).append('\n');
            Matcher m = LISTENING.matcher(line);
            if (m.find()) {
                port = Integer.parseInt(m.group(1));
                adminPort = Integer.parseInt(m.group(2));
                break;
            }
        }
        assertThat(port).as("proxy started:\n" + seen).isPositive();
        Thread drain = new Thread(() -> {
            try (InputStream rest = proxy.getInputStream()) {
                rest.transferTo(System.out);
            } catch (Exception ignored) {
                // The proxy exited.
            }
        }, "proxy-output");
        drain.setDaemon(true);
        drain.start();
    }

    @AfterAll
    void stop() throws Exception {
        if (proxy != null) {
            proxy.destroy();
            assertThat(proxy.waitFor(30, TimeUnit.SECONDS)).as("proxy stops on SIGTERM").isTrue();
        }
        if (topology != null) {
            topology.close();
        }
        if (config != null) {
            Files.deleteIfExists(config);
        }
    }

    @Test
    void oneGigabyteToASlowClientKeepsProxyMemoryBounded() throws Exception {
        long heapBefore = metric("jvm_memory_used_bytes\\{area=\"heap\"[^}]*}");
        long nettyBefore = metric("shardgate_netty_memory_used_bytes\\{kind=\"direct\"}");
        AtomicLong heapPeak = new AtomicLong(heapBefore);
        AtomicLong nettyPeak = new AtomicLong(nettyBefore);
        AtomicBoolean reading = new AtomicBoolean(true);
        CompletableFuture<Void> sampler = CompletableFuture.runAsync(() -> {
            while (reading.get()) {
                try {
                    heapPeak.accumulateAndGet(metric("jvm_memory_used_bytes\\{area=\"heap\"[^}]*}"), Math::max);
                    nettyPeak.accumulateAndGet(metric("shardgate_netty_memory_used_bytes\\{kind=\"direct\"}"), Math::max);
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(50));
            }
        });
        long rows = 0;
        long bytes = 0;
        long started = System.nanoTime();
        try (Connection c = DriverManager.getConnection("jdbc:mariadb://127.0.0.1:" + port + "/stream", "app", "app");
             Statement s = c.createStatement()) {
            s.setFetchSize(1);
            try (ResultSet r = s.executeQuery("SELECT seq, REPEAT('x', 1048576) FROM seq_1_to_1024")) {
                while (r.next()) {
                    rows++;
                    bytes += r.getString(2).length();
                    // A slow reader: about 3 ms per MiB, far slower than the backend can send.
                    LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(3));
                }
            }
        } finally {
            reading.set(false);
        }
        sampler.get(10, TimeUnit.SECONDS);
        double seconds = (System.nanoTime() - started) / 1e9;
        long heapGrowth = heapPeak.get() - heapBefore;
        long nettyGrowth = nettyPeak.get() - nettyBefore;
        System.out.printf("StreamingIT: %d MiB in %.1f s; proxy heap %d -> peak %d MiB, Netty direct %d -> peak %d MiB%n",
                bytes >> 20, seconds, heapBefore >> 20, heapPeak.get() >> 20, nettyBefore >> 20, nettyPeak.get() >> 20);
        assertThat(rows).isEqualTo(1024);
        assertThat(bytes).isEqualTo(1024L * 1024 * 1024);
        assertThat(heapGrowth).as("proxy heap growth").isLessThan(LIMIT);
        assertThat(nettyGrowth).as("proxy Netty buffer growth").isLessThan(LIMIT);
    }

    /** Sum of every series of a metric family on the proxy's /metrics page. */
    private long metric(String series) throws Exception {
        String body = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                        URI.create("http://127.0.0.1:" + adminPort + "/metrics"))
                .header("Authorization", "Bearer " + ProxyFixture.ADMIN_TOKEN).build(),
                HttpResponse.BodyHandlers.ofString()).body();
        Matcher m = Pattern.compile("(?m)^" + series + " (\\S+)").matcher(body);
        double total = 0;
        boolean found = false;
        while (m.find()) {
            total += Double.parseDouble(m.group(1));
            found = true;
        }
        assertThat(found).as(series + " on /metrics").isTrue();
        return (long) total;
    }
}
