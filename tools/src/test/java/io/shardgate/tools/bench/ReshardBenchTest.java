package io.shardgate.tools.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.shardgate.router.shard.KeyRange;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ReshardBenchTest {
    @Test
    void defaultsAreAMillionRowsTenSecondsBeforeAndTwoThreadsPerProxy() {
        assertThat(ReshardBench.Options.parse(List.of())).isEqualTo(new ReshardBench.Options(1_000_000, 10, 2, false, null));
        assertThat(ReshardBench.Options.parse(List.of("--rows", "50000", "--time-before", "3", "--threads", "1", "--skip-trx",
                "--proxy-jar", "p.jar"))).isEqualTo(new ReshardBench.Options(50_000, 3, 1, true, Path.of("p.jar")));
    }

    @Test
    void refusesUnknownArgumentsAndNonPositiveNumbers() {
        assertThatThrownBy(() -> ReshardBench.Options.parse(List.of("--time", "1"))).hasMessage("unknown argument '--time'");
        assertThatThrownBy(() -> ReshardBench.Options.parse(List.of("--rows", "0")))
                .hasMessage("--rows needs a positive whole number, not '0'");
        assertThatThrownBy(() -> ReshardBench.Options.parse(List.of("--threads"))).hasMessage("--threads needs a number");
    }

    @Test
    void theListeningLineGivesTheAdminPort() {
        assertThat(ProxyProcess.adminPort("Shardgate listening on 127.0.0.1:40123 (epoll), admin on 127.0.0.1:40124\n")).hasValue(40124);
        assertThat(ProxyProcess.adminPort("Shardgate listening on 127.0.0.1:40123 (epoll)\n")).isEmpty();
    }

    @Test
    void theReshardRequestNamesEachTargetsAddressEngineAndRange() throws Exception {
        JsonNode body = new ObjectMapper().readTree(JobsApi.reshardRequest("s1", List.of(
                new JobsApi.Target("s2", "127.0.0.1:4001", "innodb", "80-c0"), new JobsApi.Target("s3", "127.0.0.1:4002", "rocksdb", "c0-"))));
        assertThat(body.path("kind").asText()).isEqualTo("reshard");
        assertThat(body.path("spec").path("source").asText()).isEqualTo("s1");
        assertThat(body.path("spec").path("targets").get(1).toString())
                .isEqualTo("{\"name\":\"s3\",\"primary\":\"127.0.0.1:4002\",\"engine\":\"rocksdb\",\"key_range\":\"c0-\"}");
    }

    @Test
    void theCopyAndDiffTimesComeFromTheJobsHistory() throws Exception {
        JsonNode job = new ObjectMapper().readTree("""
                {"history": [{"phase": "created", "at": "2026-11-26T19:00:00Z"}, {"phase": "copying", "at": "2026-11-26T19:00:01Z"},
                 {"phase": "streaming", "at": "2026-11-26T19:00:11.500Z"}, {"phase": "diffing", "at": "2026-11-26T19:00:12Z"},
                 {"phase": "ready", "at": "2026-11-26T19:00:14Z"}],
                 "tables": {"sbtest.sbtest1": {"rows_copied": 500000}, "sbtest.probe": {"rows_copied": 300}}}
                """);
        assertThat(JobsApi.seconds(job, "copying", "streaming")).isEqualTo(10.5);
        assertThat(JobsApi.seconds(job, "diffing", "ready")).isEqualTo(2.0);
        assertThat(JobsApi.seconds(job, "cutting_over", "done")).isNaN();
        assertThat(JobsApi.rowsCopied(job)).isEqualTo(500_300);
        assertThat(JobsApi.phases(job)).isEqualTo("created 1.0 s, copying 10.5 s, streaming 0.5 s, diffing 2.0 s, ready");
    }

    @Test
    void sysbenchTotalsAddUpItsPerSecondLines() {
        String output = """
                [ 1s ] thds: 2 tps: 100.00 qps: 2000.00 (r/w/o: 1400.00/400.00/200.00) lat (ms,95%): 30.00 err/s: 0.00 reconn/s: 0.00
                [ 2s ] thds: 2 tps: 50.00 qps: 1000.00 (r/w/o: 700.00/200.00/100.00) lat (ms,95%): 90.00 err/s: 2.00 reconn/s: 0.00
                [ 4s ] thds: 2 tps: 60.00 qps: 1200.00 (r/w/o: 840.00/240.00/120.00) lat (ms,95%): 50.00 err/s: 0.50 reconn/s: 1.00
                """;
        SysbenchLoad.Totals totals = SysbenchLoad.totals(output);
        assertThat(totals).isEqualTo(new SysbenchLoad.Totals(4, 270, 5400, 3, 2));
        assertThat(totals.tps()).isEqualTo(67.5);
        assertThat(SysbenchLoad.errorLines(output + "FATAL: mysql_drv_query() returned error 1105 (boom)\n"))
                .containsExactly("FATAL: mysql_drv_query() returned error 1105 (boom)");
    }

    @Test
    void theLongestGapCountsOnlyGapsTouchingTheWindow() {
        List<Long> acks = List.of(0L, 10L, 20L, 300L, 310L, 900L);
        assertThat(WriteProbe.longestGap(acks, 250, 305)).isEqualTo(280);
        assertThat(WriteProbe.longestGap(acks, 0, 25)).isEqualTo(280);
        assertThat(WriteProbe.longestGap(acks, 250, 320)).isEqualTo(590);
        assertThat(WriteProbe.longestGap(acks, 0, Long.MAX_VALUE)).isEqualTo(590);
        assertThat(WriteProbe.longestGap(List.of(5L), 0, 10)).isZero();
    }

    @Test
    void probeIdsAreInTheMovingRange() {
        KeyRange moving = KeyRange.parse("80-");
        long id = WriteProbe.nextIn(moving, 1_000_000_000L);
        assertThat(moving.contains(WriteProbe.keyspaceId(id))).isTrue();
        assertThat(id).isGreaterThanOrEqualTo(1_000_000_000L);
        assertThat(WriteProbe.nextIn(moving, id)).isEqualTo(id);
    }

    @Test
    void everyAcknowledgedIdMustBeOnItsOwnerOnce() {
        KeyRange low = KeyRange.parse("-80");
        long lowId = WriteProbe.nextIn(low, 1);
        long highId = WriteProbe.nextIn(KeyRange.parse("c0-"), 1);
        long missing = WriteProbe.nextIn(KeyRange.parse("80-c0"), 1);
        Map<String, List<Long>> rows = new LinkedHashMap<>();
        rows.put("-80", List.of(lowId));
        rows.put("80-c0", List.of());
        rows.put("c0-", List.of(highId));
        assertThat(ReshardReport.probeProblems(rows, List.of(lowId, highId))).isEmpty();
        assertThat(ReshardReport.probeProblems(rows, List.of(lowId, missing))).containsExactly("acknowledged id " + missing + " is on no shard");
        rows.put("80-c0", List.of(highId));
        assertThat(ReshardReport.probeProblems(rows, List.of(highId))).containsExactly(
                "id " + highId + " is on the owner of 80-c0, which does not own its key",
                "id " + highId + " is on the owners of both 80-c0 and c0-");
    }

    @Test
    void theChunkedCrcRangesHoldAboutFiftyThousandRows() {
        assertThat(ReshardBaselines.rangeSpan(1, 1_000_000, 500_000)).isEqualTo(100_000);
        assertThat(ReshardBaselines.rangeSpan(1, 10, 10)).isEqualTo(50_000);
        assertThat(ReshardBaselines.rangeSpan(5, 5, 0)).isEqualTo(1);
    }

    @Test
    void theTableComparesTheJobWithTheBaselines() {
        ReshardReport report = new ReshardReport(1_000, 500, 500, 2.0, new ReshardBaselines.Rate(500, 1.0), 500, 0.5,
                new ReshardBaselines.Rate(500, 0.25), 0, List.of(120L, 80L), 95, List.of(900, 910), 1, 42.0);
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        report.print(new PrintStream(bytes, true, StandardCharsets.UTF_8));
        String table = bytes.toString(StandardCharsets.UTF_8);
        assertThat(table).contains("| copy | 500 rows in 2.0 s: 250 rows/s | dump \\| load of s1's 500 rows: 1.0 s, 500 rows/s | 0.50x");
        assertThat(table).contains("| 0.50x | >= 0.5x |");
        assertThat(table).contains("| cutover pause, proxy-0 (p100 of its probe, 900 acknowledged writes) | 120 ms |");
        assertThat(table).contains("| cutover pause, proxy-1 (p100 of its probe, 910 acknowledged writes) | 80 ms |");
        assertThat(table).contains("| writes held (checkpoints.cutover.writes_held_ms) | 95 ms |");
    }

    @Test
    void theLoadPutsEachRowOnTheOwnerOfItsIdWithSysbenchsKindOfValues() throws Exception {
        List<String> low = new java.util.ArrayList<>();
        List<String> high = new java.util.ArrayList<>();
        ShardedLoad.inserts(KeyRange.parse("-80"), 2_500, 1, low::add);
        ShardedLoad.inserts(KeyRange.parse("80-"), 2_500, 2, high::add);
        java.util.regex.Matcher row = java.util.regex.Pattern.compile("\\((\\d+),(\\d+),'([0-9-]+)','([0-9-]+)'\\)")
                .matcher(String.join(" ", low) + " " + String.join(" ", high));
        java.util.Set<Long> ids = new java.util.HashSet<>();
        while (row.find()) {
            long id = Long.parseLong(row.group(1));
            assertThat(ids.add(id)).isTrue();
            assertThat(Long.parseLong(row.group(2))).isBetween(1L, 2_500L);
            assertThat(row.group(3)).hasSize(119);
            assertThat(row.group(4)).hasSize(59);
        }
        assertThat(ids).hasSize(2_500);
        assertThat(String.join(" ", low)).doesNotContain("(" + WriteProbe.nextIn(KeyRange.parse("80-"), 1) + ",");
        assertThat(low.get(0)).startsWith("INSERT INTO sbtest.sbtest1 (id, k, c, pad) VALUES (" + WriteProbe.nextIn(KeyRange.parse("-80"), 1) + ",");
        assertThat(low.size() + high.size()).isBetween(3, 4);
    }
}
