package io.shardgate.proxy.admin;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code shardgate admin} against a fake admin API: the request each command makes, and what it prints and exits with. */
class AdminCommandTest {
    private static final String TOPOLOGY = """
            {"version":7,"store":"etcd http://127.0.0.1:2379","state":"OK","applied_version":7,
             "document":{"shards":[{"name":"s0","primary":"10.0.0.1:3306"}]},
             "proxies":[{"id":"proxy-a","address":"10.0.0.9:3307","admin_address":"10.0.0.9:8307","version":7,"started":"2026-11-26T12:00:00Z"},
                        {"id":"proxy-b","address":"10.0.0.10:3307","admin_address":"10.0.0.10:8307","version":6,"started":"2026-11-26T12:01:00Z"}]}
            """;

    private final ObjectMapper json = new ObjectMapper();
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();
    private final FakeAdminApi api;

    AdminCommandTest() throws IOException {
        api = new FakeAdminApi();
    }

    @AfterEach
    void stop() {
        api.close();
    }

    /** Runs {@code shardgate admin --url <the fake> --token secret ARGS} as OS user "osuser", with no environment. */
    private int admin(String... args) {
        List<String> line = new ArrayList<>(List.of("--url", api.url(), "--token", "secret"));
        line.addAll(Arrays.asList(args));
        return run(Map.of(), Duration.ofSeconds(10), line);
    }

    private int run(Map<String, String> environment, Duration timeout, List<String> args) {
        return new AdminCommand(environment, "osuser", new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8), timeout).run(args);
    }

    private String out() {
        return out.toString(StandardCharsets.UTF_8);
    }

    private String err() {
        return err.toString(StandardCharsets.UTF_8);
    }

    private JsonNode body(FakeAdminApi.Recorded request) throws IOException {
        assertThat(request.contentType()).isEqualTo("application/json");
        return json.readTree(request.body());
    }

    @Test
    void topologyGetsItWithTheTokenAndTheActorAndPrintsItPretty() throws IOException {
        api.answer(200, TOPOLOGY);
        assertThat(admin("topology")).as(err()).isZero();
        FakeAdminApi.Recorded request = api.only();
        assertThat(request.method()).isEqualTo("GET");
        assertThat(request.rawPath()).isEqualTo("/api/v1/topology");
        assertThat(request.authorization()).isEqualTo("Bearer secret");
        assertThat(request.actor()).isEqualTo("osuser");
        assertThat(request.ifMatch()).isNull();
        assertThat(request.body()).isEmpty();
        assertThat(json.readTree(out())).isEqualTo(json.readTree(TOPOLOGY));
        assertThat(out()).contains("\n  \"version\" : 7,\n").endsWith("}\n");
        assertThat(err()).isEmpty();
    }

    @Test
    void theUrlAndTheTokenComeFromTheEnvironmentAndAsNamesTheActor() {
        api.answer(200, "[]");
        int status = run(Map.of("SHARDGATE_ADMIN_URL", api.url() + "/", "SHARDGATE_ADMIN_TOKEN", "from-env"),
                Duration.ofSeconds(10), List.of("history", "--as", "alice"));
        assertThat(status).as(err()).isZero();
        FakeAdminApi.Recorded request = api.only();
        assertThat(request.method()).isEqualTo("GET");
        assertThat(request.rawPath()).isEqualTo("/api/v1/topology/history");
        assertThat(request.authorization()).isEqualTo("Bearer from-env");
        assertThat(request.actor()).isEqualTo("alice");
        assertThat(out()).isEqualTo("[ ]\n");
    }

    @Test
    void theTokenOptionWinsOverTheEnvironment() {
        api.answer(200, "[]");
        int status = run(Map.of("SHARDGATE_ADMIN_TOKEN", "from-env"), Duration.ofSeconds(10),
                List.of("--url", api.url(), "--token", "given", "history"));
        assertThat(status).as(err()).isZero();
        assertThat(api.only().authorization()).isEqualTo("Bearer given");
    }

    @Test
    void historyIsPrintedPretty() throws IOException {
        String history = "[{\"version\":7,\"at\":\"2026-11-26T13:00:00Z\",\"by\":\"alice\",\"what\":\"add replica 10.0.0.5:3306 to s0\"}]";
        api.answer(200, history);
        assertThat(admin("history")).as(err()).isZero();
        assertThat(json.readTree(out())).isEqualTo(json.readTree(history));
        assertThat(out()).contains("\n  \"by\" : \"alice\",\n");
    }

    @Test
    void proxiesIsATableThatSaysWhoServesTheNewestVersion() {
        api.answer(200, TOPOLOGY);
        assertThat(admin("proxies")).as(err()).isZero();
        assertThat(api.only().rawPath()).isEqualTo("/api/v1/topology");
        assertThat(out()).isEqualTo("""
                ID       ADDRESS         VERSION  STARTED               NEWEST
                proxy-a  10.0.0.9:3307   7        2026-11-26T12:00:00Z  yes
                proxy-b  10.0.0.10:3307  6        2026-11-26T12:01:00Z  no
                """);
    }

    @Test
    void getDocumentPrintsTheDocumentAloneAndItsVersionOnStderr() throws IOException {
        api.answer(200, TOPOLOGY);
        assertThat(admin("get-document")).as(err()).isZero();
        assertThat(api.only().method()).isEqualTo("GET");
        assertThat(json.readTree(out())).isEqualTo(json.readTree(TOPOLOGY).get("document"));
        assertThat(err()).isEqualTo("version 7\n");
    }

    @Test
    void putDocumentSendsTheFileWithIfMatch(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("topology.json");
        String document = "{\"shards\":[{\"name\":\"s0\",\"primary\":\"10.0.0.1:3306\",\"replicas\":[\"10.0.0.2:3306\"]}]}";
        Files.writeString(file, document);
        assertThat(admin("put-document", file.toString(), "--if-match", "7")).as(err()).isZero();
        FakeAdminApi.Recorded request = api.only();
        assertThat(request.method()).isEqualTo("PUT");
        assertThat(request.rawPath()).isEqualTo("/api/v1/topology");
        assertThat(request.ifMatch()).isEqualTo("7");
        assertThat(request.actor()).isEqualTo("osuser");
        assertThat(body(request)).isEqualTo(json.readTree(document));
        assertThat(json.readTree(out())).isEqualTo(json.readTree("{\"version\":8}"));
    }

    @Test
    void putDocumentRefusesAFileThatIsNotJsonWithoutSendingIt(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("topology.json");
        Files.writeString(file, "shards: [s0]\n");
        assertThat(admin("put-document", file.toString(), "--if-match", "7")).isEqualTo(1);
        assertThat(err()).contains("shardgate admin: " + file + " is not JSON");
        assertThat(api.requests()).isEmpty();
        assertThat(admin("put-document", dir.resolve("missing.json").toString(), "--if-match", "7")).isEqualTo(1);
        assertThat(err()).contains("cannot read " + dir.resolve("missing.json"));
        assertThat(api.requests()).isEmpty();
    }

    @Test
    void addReplicaPostsTheAddressAndPassesIfMatch() throws IOException {
        assertThat(admin("add-replica", "s0", "10.0.0.5:3306", "--if-match", "4")).as(err()).isZero();
        FakeAdminApi.Recorded request = api.only();
        assertThat(request.method()).isEqualTo("POST");
        assertThat(request.rawPath()).isEqualTo("/api/v1/shards/s0/replicas");
        assertThat(request.ifMatch()).isEqualTo("4");
        assertThat(body(request)).isEqualTo(json.readTree("{\"address\":\"10.0.0.5:3306\"}"));
        assertThat(out()).isEqualTo("{\n  \"version\" : 8\n}\n");
    }

    @Test
    void removeReplicaDeletesItsPathWithoutABody() {
        assertThat(admin("--as", "bob", "remove-replica", "s0", "10.0.0.5:3306")).as(err()).isZero();
        FakeAdminApi.Recorded request = api.only();
        assertThat(request.method()).isEqualTo("DELETE");
        assertThat(request.rawPath()).isEqualTo("/api/v1/shards/s0/replicas/10.0.0.5:3306");
        assertThat(request.ifMatch()).isNull();
        assertThat(request.actor()).isEqualTo("bob");
        assertThat(request.body()).isEmpty();
    }

    @Test
    void aShardNameIsPercentEncodedInThePath() {
        assertThat(admin("add-replica", "a/b c", "h:1")).as(err()).isZero();
        assertThat(api.only().rawPath()).isEqualTo("/api/v1/shards/a%2Fb%20c/replicas");
    }

    @ParameterizedTest
    @CsvSource({"drain,draining", "serve,serving", "offline,offline"})
    void backendStatesPutTheState(String command, String state) throws IOException {
        assertThat(admin(command, "10.0.0.2:3306")).as(err()).isZero();
        FakeAdminApi.Recorded request = api.only();
        assertThat(request.method()).isEqualTo("PUT");
        assertThat(request.rawPath()).isEqualTo("/api/v1/backends/10.0.0.2:3306/state");
        assertThat(body(request)).isEqualTo(json.readTree("{\"state\":\"" + state + "\"}"));
    }

    @Test
    void routingSendsNumbersAsNumbersAndTheRestAsStrings() throws IOException {
        assertThat(admin("routing", "max_replica_lag_ms=500", "fallback=error", "ratio=0.25", "code=007", "neg=-3",
                "empty=", "expr=1+1")).as(err()).isZero();
        FakeAdminApi.Recorded request = api.only();
        assertThat(request.method()).isEqualTo("PATCH");
        assertThat(request.rawPath()).isEqualTo("/api/v1/routing");
        JsonNode body = body(request);
        assertThat(body).isEqualTo(json.readTree(
                "{\"max_replica_lag_ms\":500,\"fallback\":\"error\",\"ratio\":0.25,\"code\":\"007\",\"neg\":-3,\"empty\":\"\",\"expr\":\"1+1\"}"));
        assertThat(body.get("max_replica_lag_ms").isIntegralNumber()).isTrue();
        assertThat(body.get("code").isTextual()).isTrue();
    }

    @Test
    void addShardPostsTheShard() throws IOException {
        assertThat(admin("add-shard", "s2", "--primary", "10.0.0.7:3306", "--replica", "10.0.0.8:3306",
                "--replica", "10.0.0.9:3306", "--engine", "innodb")).as(err()).isZero();
        FakeAdminApi.Recorded request = api.only();
        assertThat(request.method()).isEqualTo("POST");
        assertThat(request.rawPath()).isEqualTo("/api/v1/shards");
        assertThat(body(request)).isEqualTo(json.readTree(
                "{\"name\":\"s2\",\"primary\":\"10.0.0.7:3306\",\"replicas\":[\"10.0.0.8:3306\",\"10.0.0.9:3306\"],\"engine\":\"innodb\"}"));
    }

    @Test
    void addShardWithoutReplicasOrEngineSendsNoEngine() throws IOException {
        assertThat(admin("add-shard", "s2", "--primary", "10.0.0.7:3306")).as(err()).isZero();
        assertThat(body(api.only())).isEqualTo(json.readTree("{\"name\":\"s2\",\"primary\":\"10.0.0.7:3306\",\"replicas\":[]}"));
    }

    @Test
    void aStaleVersionExitsOneWithTheCurrentVersion() {
        api.answer(409, "{\"error\":\"version 6 is not the current version\",\"current_version\":7}");
        assertThat(admin("drain", "10.0.0.2:3306", "--if-match", "6")).isEqualTo(1);
        assertThat(api.only().ifMatch()).isEqualTo("6");
        assertThat(err()).isEqualTo("shardgate admin: HTTP 409: version 6 is not the current version (current version 7)\n");
        assertThat(out()).isEmpty();
    }

    @Test
    void aWrongTokenExitsOneWithTheApisPlainTextMessage() {
        api.answer(401, "text/plain", "missing or wrong admin token (Authorization: Bearer ...)\n");
        assertThat(admin("topology")).isEqualTo(1);
        assertThat(err()).isEqualTo("shardgate admin: HTTP 401: missing or wrong admin token (Authorization: Bearer ...)\n");
        assertThat(out()).isEmpty();
    }

    @Test
    void anUnreachableStoreExitsOneWithTheApisError() {
        api.answer(503, "{\"error\":\"topology store etcd http://127.0.0.1:2379 is unreachable\"}");
        assertThat(admin("add-replica", "s0", "10.0.0.5:3306")).isEqualTo(1);
        assertThat(err()).isEqualTo("shardgate admin: HTTP 503: topology store etcd http://127.0.0.1:2379 is unreachable\n");
    }

    @Test
    void anErrorWithoutABodySaysSo() {
        api.answer(500, "");
        assertThat(admin("topology")).isEqualTo(1);
        assertThat(err()).isEqualTo("shardgate admin: HTTP 500: no message\n");
    }

    @Test
    void aRefusedConnectionNamesTheUrl() throws IOException {
        String url;
        try (FakeAdminApi gone = new FakeAdminApi()) {
            url = gone.url();
        }
        int status = run(Map.of("SHARDGATE_ADMIN_TOKEN", "t"), Duration.ofSeconds(10), List.of("--url", url, "topology"));
        assertThat(status).isEqualTo(1);
        assertThat(err()).startsWith("shardgate admin: cannot connect to " + url + " (").contains("SHARDGATE_ADMIN_URL");
        assertThat(out()).isEmpty();
    }

    @Test
    void noAnswerWithinTheTimeoutExitsOne() {
        api.holdAnswers();
        int status = run(Map.of(), Duration.ofMillis(300), List.of("--url", api.url(), "--token", "t", "topology"));
        assertThat(status).isEqualTo(1);
        assertThat(err()).isEqualTo("shardgate admin: no answer from " + api.url() + " within 300 ms\n");
    }

    @Test
    void aMissingTokenNamesTheOptionAndTheVariable() {
        assertThat(run(Map.of(), Duration.ofSeconds(10), List.of("--url", api.url(), "topology"))).isEqualTo(2);
        assertThat(err()).contains("--token TOKEN").contains("SHARDGATE_ADMIN_TOKEN").contains("usage: shardgate admin");
        assertThat(api.requests()).isEmpty();
    }

    @Test
    void badArgumentsAreReportedBeforeAMissingToken() {
        assertThat(run(Map.of(), Duration.ofSeconds(10), List.of("--url", api.url(), "drain", "nohost"))).isEqualTo(2);
        assertThat(err()).startsWith("shardgate admin: expected HOST:PORT, got 'nohost'");
        assertThat(run(Map.of(), Duration.ofSeconds(10), List.of("--url", api.url(), "put-document", "f.json"))).isEqualTo(2);
        assertThat(err()).contains("shardgate admin: put-document needs --if-match N");
        assertThat(api.requests()).isEmpty();
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "''|give a command",
            "--as Zoë topology|the actor 'Zoë' must be printable ASCII",
            "frobnicate|unknown command 'frobnicate'",
            "topology extra|topology takes no arguments",
            "add-replica s0|add-replica needs SHARD HOST:PORT",
            "add-replica s0 nohost|expected HOST:PORT, got 'nohost'",
            "drain 10.0.0.2:99999|expected HOST:PORT, got '10.0.0.2:99999'",
            "drain 10.0.0.2:3306 --primary h:1|--primary does not apply to drain",
            "topology --if-match 3|--if-match does not apply to topology",
            "drain 10.0.0.2:3306 --if-match x|--if-match needs a version number, not 'x'",
            "drain 10.0.0.2:3306 --frob 1|unknown option '--frob'",
            "drain 10.0.0.2:3306 --if-match|--if-match needs a value",
            "routing|routing needs KEY=VALUE...",
            "routing max_replica_lag_ms|expected KEY=VALUE, got 'max_replica_lag_ms'",
            "routing a=1 a=2|routing key 'a' given twice",
            "add-shard s2|add-shard needs --primary HOST:PORT",
            "add-shard s2 --primary h:1 --primary h:2|--primary given more than once",
            "put-document f.json|put-document needs --if-match N",
            "--url ftp://x topology|bad admin URL 'ftp://x'",
    })
    void badArgumentsPrintTheUsageOnStderrAndExitTwo(String args, String message) {
        List<String> line = new ArrayList<>(List.of("--token", "secret"));
        if (!args.contains("--url")) {
            line.addAll(List.of("--url", api.url()));
        }
        if (!args.isEmpty()) {
            line.addAll(Arrays.asList(args.split(" ")));
        }
        assertThat(run(Map.of(), Duration.ofSeconds(10), line)).isEqualTo(2);
        assertThat(err()).startsWith("shardgate admin: " + message).contains("usage: shardgate admin [--url URL]");
        assertThat(out()).isEmpty();
        assertThat(api.requests()).isEmpty();
    }

    @Test
    void helpPrintsTheUsageOnStdoutAndExitsZero() {
        assertThat(run(Map.of(), Duration.ofSeconds(10), List.of("drain", "--help"))).isZero();
        assertThat(out()).isEqualTo(AdminCommand.USAGE);
        assertThat(err()).isEmpty();
        for (String command : List.of("topology", "proxies", "history", "add-replica", "remove-replica", "drain", "serve",
                "offline", "routing", "add-shard", "get-document", "put-document")) {
            assertThat(AdminCommand.USAGE).contains("  " + command + " ");
        }
    }

    @Test
    void removeShardDeletesTheShardsPathWithoutABody() {
        assertThat(admin("remove-shard", "s12", "--if-match", "9")).as(err()).isZero();
        FakeAdminApi.Recorded request = api.only();
        assertThat(request.method()).isEqualTo("DELETE");
        assertThat(request.rawPath()).isEqualTo("/api/v1/shards/s12");
        assertThat(request.ifMatch()).isEqualTo("9");
        assertThat(request.body()).isEmpty();
        assertThat(AdminCommand.USAGE).contains("  remove-shard NAME ");
    }

    @Test
    void aShardThatOwnsKeysIsNotRemovedAndTheApisReasonIsPrinted() {
        api.answer(400, "{\"error\":\"shard s0 owns keys (key_range -80): move its keys first (a reshard job), then remove it\"}");
        assertThat(admin("remove-shard", "s0")).isEqualTo(1);
        assertThat(err()).isEqualTo("shardgate admin: HTTP 400: shard s0 owns keys (key_range -80): move its keys first"
                + " (a reshard job), then remove it\n");
        assertThat(out()).isEmpty();
    }

    @Test
    void removeShardNeedsOneName() {
        assertThat(run(Map.of(), Duration.ofSeconds(10), List.of("--token", "secret", "--url", api.url(), "remove-shard"))).isEqualTo(2);
        assertThat(err()).startsWith("shardgate admin: remove-shard needs NAME");
        assertThat(api.requests()).isEmpty();
    }
}
