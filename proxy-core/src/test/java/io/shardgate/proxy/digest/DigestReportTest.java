package io.shardgate.proxy.digest;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.shardgate.proxy.config.DigestsConfig;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class DigestReportTest {
    private final QueryDigests digests = new QueryDigests(new DigestsConfig(true, 100, 2), () -> 1_700_000_000_000L);

    private void run(String sql, int times, long rows) {
        DigestRecorder recorder = new DigestRecorder(digests);
        for (int i = 0; i < times; i++) {
            recorder.start(sql, false, "shop");
            recorder.finish(false, rows, 0, 1);
        }
    }

    @Test
    void jsonOrderedAndLimited() throws Exception {
        run("SELECT * FROM orders WHERE id = 1", 3, 1);
        run("SELECT * FROM items WHERE id = 1", 1, 50);
        DigestReport report = new DigestReport(digests);
        JsonNode byCount = new ObjectMapper().readTree(report.json(Map.of("order", List.of("count"), "limit", List.of("1"))));
        assertThat(byCount.get("order").asText()).isEqualTo("count");
        assertThat(byCount.get("digests").asInt()).isEqualTo(2);
        assertThat(byCount.get("queries")).hasSize(1);
        JsonNode first = byCount.get("queries").get(0);
        assertThat(first.get("digest_text").asText()).isEqualTo("SELECT * FROM orders WHERE id = ?");
        assertThat(first.get("count").asLong()).isEqualTo(3);
        assertThat(first.get("schema").asText()).isEqualTo("shop");
        assertThat(first.get("first_seen").asText()).isEqualTo("2023-11-14T22:13:20Z");
        for (String field : List.of("digest", "errors", "rows_sent", "rows_affected", "shards_touched", "sharded_count",
                "total_us", "p50_us", "p95_us", "p99_us", "last_seen")) {
            assertThat(first.has(field)).as(field).isTrue();
        }
        JsonNode byRows = new ObjectMapper().readTree(report.json(Map.of("order", List.of("rows_sent"))));
        assertThat(byRows.get("queries").get(0).get("digest_text").asText()).isEqualTo("SELECT * FROM items WHERE id = ?");
        assertThat(byRows.get("queries")).hasSize(2);
    }

    @Test
    void badParametersSayWhatIsExpected() {
        DigestReport report = new DigestReport(digests);
        assertThatThrownBy(() -> report.json(Map.of("order", List.of("speed"))))
                .hasMessage("order: 'speed' (expected: count, total_time, p99, errors or rows_sent)");
        assertThatThrownBy(() -> report.json(Map.of("limit", List.of("0")))).hasMessage("limit: '0' (expected: 1 to 100000)");
        assertThatThrownBy(() -> report.json(Map.of("limit", List.of("x")))).hasMessage("limit: 'x' (expected: 1 to 100000)");
    }

    @Test
    void showRowsMatchTheColumns() {
        run("SELECT 1", 2, 1);
        List<List<String>> rows = new DigestReport(digests).rows();
        assertThat(rows).singleElement().satisfies(row -> {
            assertThat(row).hasSameSizeAs(DigestReport.COLUMNS);
            assertThat(row.get(DigestReport.COLUMNS.indexOf("digest_text"))).isEqualTo("SELECT ?");
            assertThat(row.get(DigestReport.COLUMNS.indexOf("count"))).isEqualTo("2");
            assertThat(row.get(DigestReport.COLUMNS.indexOf("rows_sent"))).isEqualTo("2");
        });
    }

    @Test
    void metricsKeepOnlyTheTopDigests() {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        DigestMetrics metrics = new DigestMetrics(digests, registry);
        for (int i = 0; i < 50; i++) {
            run("SELECT * FROM t" + i, 1, 0);
            metrics.refresh();
        }
        assertThat(metrics.digestsWithMeters()).isEqualTo(2);
        assertThat(registry.find("shardgate_query_digest_statements").meters()).hasSize(2);
        assertThat(registry.find("shardgate_query_digest_latency_seconds").tag("quantile", "0.99").gauges()).hasSize(2);
        assertThat(registry.find("shardgate_query_digest_latency_seconds").meters()).hasSize(6);
        assertThat(registry.find("shardgate_query_digest_statements").functionCounters())
                .allSatisfy(counter -> assertThat(counter.count()).isEqualTo(1.0));
    }
}
