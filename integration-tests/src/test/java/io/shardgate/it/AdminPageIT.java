package io.shardgate.it;

import com.fasterxml.jackson.databind.JsonNode;
import io.shardgate.replication.topology.Node;
import io.shardgate.replication.topology.Topology;
import io.shardgate.replication.topology.TopologySpec;
import io.shardgate.storage.Engine;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The admin page ({@code GET /ui}) in a real browser, Debian's headless Chromium, against the packaged proxy in front
 * of two shards (s0 with a replica): it shows the topology, the replica's lag chart and the refresh time, with the
 * token from the URL fragment; without it, or with a wrong one, it asks for the token. Its job rendering runs on a
 * canned job in a test page that inlines the page's own script and style. Screenshots land in integration-tests/target.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class AdminPageIT {
    private static final String CONFIG = """
            schemas:
              - name: pg
                tables:
                  items: { shard_key: id, vindex: hash }
            """;
    /** Enough virtual time for the first load and two refreshes (every 2 s). */
    private static final Duration BUDGET = Duration.ofSeconds(6);
    private static final Path TARGET = JarProxy.HOME.resolve("integration-tests/target");
    /** A running reshard as the jobs API will describe it, plus one throttled and failed, with a value that looks like markup. */
    private static final String JOBS = """
            {"jobs": [
              {"id": "reshard-s1-7f3a", "kind": "reshard", "phase": "copying", "created_by": "alice",
               "created_at": "2026-11-26T12:00:00Z", "updated_at": "2026-11-26T12:00:20Z", "runner": "proxy-a",
               "throttle_reason": null, "stream_lag_seconds": 0.4, "error": null,
               "tables": [{"table": "shop.customers", "rows_copied": 12000, "rows_total": 1000000,
                           "rate_rows_per_s": 52000, "eta_s": 19}],
               "diff": {"chunks_done": 3, "chunks_total": 20, "rows_compared": 150000, "mismatches": 0}},
              {"id": "move-orders-1", "kind": "move", "phase": "catching_up", "runner": "proxy-b",
               "throttle_reason": "replica 10.0.0.12:3306 lags 2.1 s (> 1 s)", "error": "<img src=x onerror=alert(1)>",
               "tables": [{"table": "shop.orders", "rows_copied": 500, "rows_total": 500}]}
            ]}
            """;

    private Topology topology;
    private ProxyFixture proxy;
    private Node replica;
    private HeadlessChromium chromium;

    @BeforeAll
    void start() {
        chromium = HeadlessChromium.find();
        topology = Topology.start(TopologySpec.builder()
                .shard("s0", Engine.INNODB, 1)
                .shard("s1", Engine.INNODB, 0)
                .build());
        topology.shard("s0").primary().execute("CREATE DATABASE pg");
        topology.shard("s1").primary().execute("CREATE DATABASE pg");
        replica = topology.shard("s0").replica(0);
        proxy = ProxyFixture.start(topology, ProxyFixture.HALVES, CONFIG);
    }

    @AfterAll
    void stop() {
        ProxyFixture.stop(proxy, topology);
    }

    private String pageUrl() {
        return "http://127.0.0.1:" + proxy.adminPort() + "/ui";
    }

    @Test
    void thePageIsServedWithoutTheTokenButItsDataIsNot() throws Exception {
        HttpClient http = HttpClient.newHttpClient();
        HttpResponse<String> page = http.send(HttpRequest.newBuilder(URI.create(pageUrl() + "/")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(page.statusCode()).isEqualTo(200);
        assertThat(page.headers().firstValue("Content-Type")).hasValue("text/html; charset=utf-8");
        assertThat(page.headers().firstValue("Content-Security-Policy")).get().asString().contains("connect-src 'self'");
        assertThat(page.body()).contains("<title>Shardgate admin</title>");
        HttpResponse<String> history = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + proxy.adminPort()
                + "/api/v1/lag/history")).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(history.statusCode()).isEqualTo(401);
    }

    @Test
    void theLagHistoryHasASampleASecondForTheReplica() {
        AdminApi admin = new AdminApi(proxy.adminPort());
        Await.until("the replica's lag history holds 3 samples", Duration.ofSeconds(30),
                () -> admin.get("/api/v1/lag/history").json().path("replicas").path(0).path("samples").size() >= 3);
        JsonNode replicas = admin.get("/api/v1/lag/history").json().get("replicas");
        assertThat(replicas).hasSize(1);
        assertThat(replicas.get(0).get("shard").asText()).isEqualTo("s0");
        assertThat(replicas.get(0).get("address").asText()).isEqualTo(replica.address());
        JsonNode samples = replicas.get(0).get("samples");
        for (int i = 1; i < samples.size(); i++) {
            assertThat(samples.get(i).get(0).asLong() / 1000).as("one sample a second, oldest first")
                    .isGreaterThan(samples.get(i - 1).get(0).asLong() / 1000);
        }
        JsonNode newest = samples.get(samples.size() - 1);
        assertThat(newest.get(0).asLong()).isCloseTo(System.currentTimeMillis(), org.assertj.core.data.Offset.offset(10_000L));
        assertThat(newest.get(1).isNumber()).as("a healthy replica's lag is measured: %s", newest).isTrue();
    }

    /** With the replica's SQL thread stopped behind a write, so the chart has a slope and its axis counts seconds. */
    @Test
    void chromiumShowsTheTopologyTheReplicasLagChartAndTheRefreshTime() throws IOException {
        AdminApi admin = new AdminApi(proxy.adminPort());
        Node primary = topology.shard("s0").primary();
        primary.execute("CREATE TABLE IF NOT EXISTS pg.lag_probe (id INT PRIMARY KEY)");
        assertThat(replica.awaitGtid(primary.gtidBinlogPos(), Duration.ofSeconds(30))).as("the replica has the table").isTrue();
        String url = pageUrl() + "#token=" + ProxyFixture.ADMIN_TOKEN;
        String dom;
        replica.stopSqlThread();
        try {
            primary.execute("INSERT INTO pg.lag_probe VALUES (" + System.nanoTime() % 1_000_000 + ")");
            Await.until("the replica's lag history shows it 2 s behind", Duration.ofSeconds(30),
                    () -> newestLag(admin.get("/api/v1/lag/history").json()) >= 2000);

            dom = chromium.dumpDom(url, BUDGET);

            Path png = TARGET.resolve("admin-page.png");
            chromium.screenshot(url, BUDGET, png, 1280, 900);
            assertPng(png);
        } finally {
            replica.startSqlThread();
        }
        assertThat(dom).contains("data-shard=\"s0\"").contains("data-shard=\"s1\"");
        assertThat(dom).contains("<td>-80</td>").contains("<td>80-</td>");
        assertThat(dom).contains(primary.address()).contains(replica.address() + " serving");
        assertThat(dom).containsPattern("updated \\d\\d:\\d\\d:\\d\\d");
        assertThat(dom).contains("no jobs");
        assertThat(dom).doesNotContain("id=\"panels\" hidden");
        Matcher chart = Pattern.compile("<div class=\"chart\" data-address=\"" + Pattern.quote(replica.address())
                + "\">.*?<polyline class=\"line\" points=\"([^\"]+)\"", Pattern.DOTALL).matcher(dom);
        assertThat(chart.find()).as("an SVG polyline charts %s's lag in:\n%s", replica.address(), dom).isTrue();
        String[] points = chart.group(1).trim().split(" ");
        assertThat(points).as("points").hasSizeGreaterThanOrEqualTo(2).allMatch(point -> point.matches("\\d+(\\.\\d)?,\\d+(\\.\\d)?"));
        assertThat(Arrays.stream(points).map(point -> point.split(",")[1]).distinct().count()).as("the lag rose: %s", chart.group(1))
                .isGreaterThan(1);
        assertThat(dom).as("the lag axis is labelled in ms and s").contains(">0 ms</text>").containsPattern(">\\d+(\\.\\d)? s</text>");
    }

    /** The lag of the first replica's newest sample, -1 when none or unknown. */
    private static long newestLag(JsonNode history) {
        JsonNode samples = history.path("replicas").path(0).path("samples");
        return samples.size() == 0 || !samples.get(samples.size() - 1).get(1).isNumber() ? -1
                : samples.get(samples.size() - 1).get(1).asLong();
    }

    @Test
    void withoutATokenOrWithAWrongOneThePageAsksForIt() {
        String none = chromium.dumpDom(pageUrl(), BUDGET);
        assertThat(none).contains("<section id=\"login\">").contains("id=\"panels\" hidden=\"\"").doesNotContain("data-shard=\"");

        String wrong = chromium.dumpDom(pageUrl() + "#token=not-the-token", BUDGET);
        assertThat(wrong).contains("<section id=\"login\">").contains("the admin API refused this token")
                .doesNotContain("data-shard=\"").doesNotContain("not-the-token");
    }

    /** The page as served, opened where no admin API answers (a file): every section says why, and so does the header. */
    @Test
    void whenTheApiDoesNotAnswerThePageSaysTheRefreshFailed() throws Exception {
        Path page = TARGET.resolve("admin-page-offline.html");
        Files.write(page, HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(pageUrl())).build(),
                HttpResponse.BodyHandlers.ofByteArray()).body());

        String dom = chromium.dumpDom(page.toUri() + "#token=t", BUDGET);

        assertThat(dom).containsPattern("<span id=\"updated\" class=\"failed\">refresh failed at \\d\\d:\\d\\d:\\d\\d</span>");
        assertThat(dom).contains("<div id=\"topology\" class=\"\"><p class=\"bad\">")
                .contains("<div id=\"lag\" class=\"\"><p class=\"bad\">").doesNotContainPattern(">updated \\d");
    }

    /** The page's job rendering, from its own script, on a canned job list (the jobs API is another change). */
    @Test
    void theJobRenderingShowsPhaseProgressBarsDiffThrottleAndErrorAsText() throws Exception {
        String html = new String(HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(pageUrl())).build(),
                HttpResponse.BodyHandlers.ofByteArray()).body(), StandardCharsets.UTF_8);
        String style = between(html, "<style>", "</style>");
        String script = between(html, "<script>", "</script>");
        Path page = TARGET.resolve("admin-page-jobs.html");
        Files.writeString(page, "<!DOCTYPE html><html><head><meta charset=\"utf-8\"><style>" + style + "</style></head><body>"
                + "<main><section><h2>Jobs</h2><div id=\"jobs\"></div></section></main><script>" + script + "</script>"
                + "<script>renderJobs(document.getElementById('jobs'), " + JOBS + ");</script></body></html>");

        String dom = chromium.dumpDom(page.toUri().toString(), Duration.ofSeconds(1));

        assertThat(dom).contains("reshard-s1-7f3a").contains(">copying<").contains("runner proxy-a");
        assertThat(dom).contains("12,000 / 1,000,000 rows · 52,000 rows/s · ETA 19 s");
        assertThat(dom).contains("<div class=\"fill\" style=\"width: 1.2%;\"></div>");
        assertThat(dom).contains("3 / 20 chunks · 150,000 rows compared").contains("0 mismatches")
                .contains("<div class=\"fill diff\" style=\"width: 15%;\"></div>");
        assertThat(dom).contains("stream lag 400 ms");
        assertThat(dom).contains(">catching_up<").contains("500 / 500 rows").contains("style=\"width: 100%;\"");
        assertThat(dom).contains("throttled: replica 10.0.0.12:3306 lags 2.1 s (&gt; 1 s)");
        assertThat(dom).contains("<div class=\"bad error\">error: &lt;img src=x onerror=alert(1)&gt;</div>")
                .doesNotContain("<img src=\"x\"");

        Path png = TARGET.resolve("admin-page-jobs.png");
        chromium.screenshot(page.toUri().toString(), Duration.ofSeconds(1), png, 1280, 500);
        assertPng(png);
    }

    private static String between(String text, String open, String close) {
        int start = text.indexOf(open);
        int end = text.indexOf(close);
        assertThat(start).as("%s in the page", open).isNotNegative();
        return text.substring(start + open.length(), end);
    }

    private static void assertPng(Path png) throws IOException {
        byte[] bytes = Files.readAllBytes(png);
        System.out.printf("[admin-page] screenshot %s (%,d bytes)%n", png, bytes.length);
        assertThat(Arrays.copyOf(bytes, 8)).as("PNG signature").containsExactly(0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n');
        assertThat(bytes.length).as("a rendered page, not a blank one").isGreaterThan(10_000);
    }
}
