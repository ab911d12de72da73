package io.shardgate.proxy.admin;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code shardgate job} against a fake admin API: the request each command makes, and what it prints and exits with. */
class JobCommandTest {
    private static final String COPYING = """
            {"id":"reshard-s1-20261126-1532-ab12","kind":"reshard","phase":"copying","runner":"proxy-a","live_runner":"proxy-a",
             "tables":{"shop.orders":{"rows_copied":500,"rows_total":1000,"rows_per_second":250.0,"eta_seconds":2},
                       "shop.customers":{"rows_copied":0,"rows_total":0,"rows_per_second":0,"eta_seconds":null}},
             "diff":{"chunks_done":0,"chunks_total":0,"rows_compared":0,"mismatches":0},
             "stream_lag_seconds":0.4,"throttle_reason":"replica 10.0.0.2:3306 lags 1.3 s","error":null}
            """;
    private static final String DIFFING = COPYING.replace("\"copying\"", "\"diffing\"").replace("\"rows_copied\":500", "\"rows_copied\":1000")
            .replace("\"chunks_total\":0", "\"chunks_total\":20").replace("\"chunks_done\":0", "\"chunks_done\":3")
            .replace("\"replica 10.0.0.2:3306 lags 1.3 s\"", "null");
    private static final String READY = DIFFING.replace("\"diffing\"", "\"ready\"");

    private final ObjectMapper json = new ObjectMapper();
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();
    private final FakeAdminApi api;

    JobCommandTest() throws IOException {
        api = new FakeAdminApi();
    }

    @AfterEach
    void stop() {
        api.close();
    }

    private int job(boolean terminal, String... args) {
        List<String> line = new ArrayList<>(List.of("--url", api.url(), "--token", "secret"));
        line.addAll(Arrays.asList(args));
        return new JobCommand(Map.of(), "osuser", new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8), terminal, Duration.ofSeconds(10)).run(line);
    }

    private int job(String... args) {
        return job(false, args);
    }

    private String out() {
        return out.toString(StandardCharsets.UTF_8);
    }

    private String err() {
        return err.toString(StandardCharsets.UTF_8);
    }

    @Test
    void startReshardPostsTheTargetsAsTheApiWantsThem() throws IOException {
        api.answer(201, COPYING);
        assertThat(job("start", "reshard", "--source", "s1", "--target", "s1a=10.0.0.7:3306,10.0.0.8:3306@innodb:-c0",
                "--target", "s1b=10.0.0.9:3306@:c0-")).as(err()).isZero();
        FakeAdminApi.Recorded request = api.only();
        assertThat(request.method()).isEqualTo("POST");
        assertThat(request.rawPath()).isEqualTo("/api/v1/jobs");
        assertThat(request.authorization()).isEqualTo("Bearer secret");
        assertThat(request.actor()).isEqualTo("osuser");
        assertThat(json.readTree(request.body())).isEqualTo(json.readTree("""
                {"kind":"reshard","spec":{"source":"s1","targets":[
                  {"name":"s1a","primary":"10.0.0.7:3306","replicas":["10.0.0.8:3306"],"engine":"innodb","key_range":"-c0"},
                  {"name":"s1b","primary":"10.0.0.9:3306","replicas":[],"key_range":"c0-"}]}}
                """));
        assertThat(json.readTree(out()).get("id").asText()).isEqualTo("reshard-s1-20261126-1532-ab12");
    }

    @Test
    void startMoveSplitsTheTablesAndSendsWhatWasGiven() throws IOException {
        api.answer(201, COPYING);
        assertThat(job("start", "move", "--tables", "shop.orders,shop.items", "--to", "s2", "--engine", "rocksdb")).as(err()).isZero();
        assertThat(json.readTree(api.only().body())).isEqualTo(json.readTree("""
                {"kind":"move","spec":{"tables":["shop.orders","shop.items"],"target":"s2","engine":"rocksdb"}}
                """));
    }

    @Test
    void startSendsMaxRowsPerSecondAsANumber() throws IOException {
        api.answer(201, COPYING);
        assertThat(job("start", "move", "--tables", "shop.orders", "--to", "s2", "--max-rows-per-second", "5000")).as(err()).isZero();
        assertThat(json.readTree(api.only().body())).isEqualTo(json.readTree("""
                {"kind":"move","spec":{"tables":["shop.orders"],"target":"s2","max_rows_per_second":5000}}
                """));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "start|start needs reshard or move",
            "start split|start needs reshard or move, not 'split'",
            "start reshard --target s1a=h:1@:-80|start reshard needs --source SHARD",
            "start reshard --source s1|start reshard needs --target",
            "start reshard --source s1 --target s1a=h:1|--target needs NAME=PRIMARY[,REPLICA...]@ENGINE:KEY_RANGE, got 's1a=h:1'",
            "start reshard --source s1 --target s1a=h@innodb:-80|expected HOST:PORT, got 'h'",
            "start move --to s2|start move needs --tables",
            "start move --tables shop.t --to s2 --max-rows-per-second fast|--max-rows-per-second needs a whole number of rows, got 'fast'",
            "start move --tables shop.t --source s0|--source does not apply to start",
            "show|show needs ID",
            "watch x --interval-ms 0|--interval-ms needs 1..3600000, not '0'",
            "explode x|unknown command 'explode'",
    })
    void badArgumentsSendNothingAndExitTwo(String args, String message) {
        assertThat(job(args.split(" "))).isEqualTo(2);
        assertThat(err()).contains("shardgate job: " + message).contains("usage: shardgate job");
        assertThat(api.requests()).isEmpty();
    }

    @Test
    void listPrintsATable() {
        api.answer(200, "{\"jobs\":[" + COPYING + "]}");
        assertThat(job("list")).as(err()).isZero();
        assertThat(api.only().rawPath()).isEqualTo("/api/v1/jobs");
        assertThat(out()).startsWith("ID ").contains("reshard-s1-20261126-1532-ab12  reshard  copying  50.0%   proxy-a");
    }

    @ParameterizedTest
    @CsvSource({"cutover", "cancel", "reverse"})
    void actionsPostToTheJobsPath(String action) {
        api.answer(200, READY);
        assertThat(job(action, "reshard-s1-20261126-1532-ab12")).as(err()).isZero();
        assertThat(api.only().method()).isEqualTo("POST");
        assertThat(api.only().rawPath()).isEqualTo("/api/v1/jobs/reshard-s1-20261126-1532-ab12/" + action);
    }

    @Test
    void aRefusedActionPrintsTheApisErrorAndExitsOne() {
        api.answer(409, "{\"error\":\"job x is in phase copying: cutover is valid in ready\",\"phase\":\"copying\"}");
        assertThat(job("cutover", "x")).isEqualTo(1);
        assertThat(err()).isEqualTo("shardgate job: HTTP 409: job x is in phase copying: cutover is valid in ready\n");
    }

    @Test
    void watchIntoAPipePrintsOneLinePerChangeAndEndsWhenReady() {
        api.answerInTurn(COPYING, COPYING, DIFFING, READY);
        assertThat(job("watch", "reshard-s1-20261126-1532-ab12", "--interval-ms", "5")).as(err()).isZero();
        assertThat(api.requests()).hasSize(4);
        List<String> lines = out().lines().toList();
        assertThat(lines).hasSize(3);
        assertThat(lines.get(0)).isEqualTo("reshard-s1-20261126-1532-ab12 copying | shop.orders 50.0% 500/1000 250 rows/s ETA 0:02"
                + " | shop.customers 0.0% 0/0 0 rows/s ETA - | stream lag 0.4 s | throttled: replica 10.0.0.2:3306 lags 1.3 s");
        assertThat(lines.get(1)).startsWith("reshard-s1-20261126-1532-ab12 diffing | shop.orders 100.0%")
                .endsWith("| stream lag 0.4 s   diff 3/20 chunks, 0 rows compared, 0 mismatches");
        assertThat(lines.get(2)).startsWith("reshard-s1-20261126-1532-ab12 ready");
    }

    @Test
    void watchOnATerminalDrawsBarsAndRedrawsInPlace() {
        api.answerInTurn(COPYING, READY);
        assertThat(job(true, "watch", "reshard-s1-20261126-1532-ab12", "--interval-ms", "5")).as(err()).isZero();
        String screen = out();
        assertThat(screen).startsWith("job reshard-s1-20261126-1532-ab12  reshard  phase copying  runner proxy-a\n"
                + "  shop.orders    [############------------]  50.0%  500 / 1,000 rows  250 rows/s  ETA 0:02\n");
        assertThat(screen).contains("  throttled: replica 10.0.0.2:3306 lags 1.3 s\n");
        assertThat(screen).contains("\033[5F\033[J" + "job reshard-s1-20261126-1532-ab12  reshard  phase ready");
        assertThat(screen).contains("  shop.orders    [########################] 100.0%  1,000 / 1,000 rows");
    }

    @Test
    void watchOfAFailedJobExitsOne() {
        api.answerInTurn(COPYING.replace("\"copying\"", "\"failed\"").replace("\"error\":null", "\"error\":\"boom\""));
        assertThat(job("watch", "j", "--interval-ms", "5")).isEqualTo(1);
        assertThat(out()).contains("| error: boom");
    }

    @Test
    void showPrintsTheJobPretty() throws IOException {
        api.answer(200, COPYING);
        assertThat(job("show", "a/b")).as(err()).isZero();
        assertThat(api.only().rawPath()).isEqualTo("/api/v1/jobs/a%2Fb");
        JsonNode shown = json.readTree(out());
        assertThat(shown.get("phase").asText()).isEqualTo("copying");
        assertThat(out()).contains("\n  \"kind\" : \"reshard\"");
    }
}
