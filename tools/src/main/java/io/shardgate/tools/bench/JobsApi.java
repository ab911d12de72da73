package io.shardgate.tools.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/** The jobs API of one proxy ({@code /api/v1/jobs}, docs/operations.md), as an operator's script uses it. */
final class JobsApi {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Set<String> ENDS = Set.of("failed", "cancelled", "done", "reversed");

    /** A reshard target: its shard name, primary {@code host:port}, engine ({@code innodb}, {@code rocksdb}) and key range. */
    record Target(String name, String primary, String engine, String keyRange) {
    }

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final String base;
    private final String token;

    JobsApi(int adminPort, String token) {
        this.base = "http://127.0.0.1:" + adminPort;
        this.token = token;
    }

    /** The body of {@code POST /api/v1/jobs} for a reshard of {@code source} over {@code targets}. */
    static String reshardRequest(String source, List<Target> targets) {
        ObjectNode body = JSON.createObjectNode().put("kind", "reshard");
        ObjectNode spec = body.putObject("spec").put("source", source);
        ArrayNode list = spec.putArray("targets");
        for (Target target : targets) {
            list.addObject().put("name", target.name()).put("primary", target.primary()).put("engine", target.engine())
                    .put("key_range", target.keyRange());
        }
        return body.toString();
    }

    /** Starts a reshard job; returns its id. */
    String reshard(String source, List<Target> targets) throws IOException, InterruptedException {
        JsonNode created = send("POST", "/api/v1/jobs", reshardRequest(source, targets), 201);
        return unwrap(created).path("id").asText();
    }

    /** The body of {@code POST /api/v1/jobs} for a move of {@code tables} from {@code source} to {@code target} on {@code engine}. */
    static String moveRequest(String source, String target, String engine, List<String> tables) {
        ObjectNode body = JSON.createObjectNode().put("kind", "move");
        ObjectNode spec = body.putObject("spec").put("source", source).put("target", target).put("engine", engine);
        ArrayNode list = spec.putArray("tables");
        tables.forEach(list::add);
        return body.toString();
    }

    /** Starts a move job; returns its id. */
    String move(String source, String target, String engine, List<String> tables) throws IOException, InterruptedException {
        JsonNode created = send("POST", "/api/v1/jobs", moveRequest(source, target, engine, tables), 201);
        return unwrap(created).path("id").asText();
    }

    JsonNode job(String id) throws IOException, InterruptedException {
        return unwrap(send("GET", "/api/v1/jobs/" + id, null, 200));
    }

    /** {@code POST /api/v1/jobs/{id}/{action}}, which must answer 200. */
    void act(String id, String action) throws IOException, InterruptedException {
        send("POST", "/api/v1/jobs/" + id + "/" + action, null, 200);
    }

    /**
     * Polls the job every 250 ms until its phase is one of {@code phases}; returns it then. Throws
     * IllegalStateException when it reaches another end (failed, cancelled, ...) or {@code timeout} passes.
     */
    JsonNode await(String id, Set<String> phases, Duration timeout) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            JsonNode job = job(id);
            String phase = job.path("phase").asText();
            if (phases.contains(phase)) {
                return job;
            }
            if (ENDS.contains(phase) || System.nanoTime() > deadline) {
                throw new IllegalStateException("job " + id + " is " + phase + (ENDS.contains(phase) ? "" : " after "
                        + timeout.toSeconds() + " s") + ", not " + phases + (job.path("error").isTextual()
                        ? " (error: " + job.path("error").asText() + ")" : "") + ": " + job);
            }
            TimeUnit.MILLISECONDS.sleep(250);
        }
    }

    /** When the job first entered {@code phase} (its history), or null. */
    static Instant entered(JsonNode job, String phase) {
        for (JsonNode change : job.path("history")) {
            if (change.path("phase").asText().equals(phase)) {
                return Instant.parse(change.path("at").asText());
            }
        }
        return null;
    }

    /** Seconds from entering {@code from} to entering {@code to} (history), or NaN when either is missing. */
    static double seconds(JsonNode job, String from, String to) {
        Instant start = entered(job, from);
        Instant end = entered(job, to);
        return start == null || end == null ? Double.NaN : Duration.between(start, end).toNanos() / 1e9;
    }

    /** Each phase of the job's history and how long it lasted ("copying 8.3 s, streaming 0.4 s, ..."); the last one open. */
    static String phases(JsonNode job) {
        StringBuilder text = new StringBuilder();
        JsonNode history = job.path("history");
        for (int i = 0; i < history.size(); i++) {
            text.append(i == 0 ? "" : ", ").append(history.get(i).path("phase").asText());
            if (i + 1 < history.size()) {
                Duration lasted = Duration.between(Instant.parse(history.get(i).path("at").asText()),
                        Instant.parse(history.get(i + 1).path("at").asText()));
                text.append(String.format(java.util.Locale.ROOT, " %.1f s", lasted.toMillis() / 1000.0));
            }
        }
        return text.toString();
    }

    /** Rows copied over all tables. */
    static long rowsCopied(JsonNode job) {
        long rows = 0;
        for (JsonNode table : job.path("tables")) {
            rows += table.path("rows_copied").asLong();
        }
        return rows;
    }

    private JsonNode send(String method, String path, String body, int expected) throws IOException, InterruptedException {
        HttpRequest request = HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(30))
                .header("Authorization", "Bearer " + token).header("X-Shardgate-Actor", "bench-reshard")
                .header("Content-Type", "application/json")
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body))
                .build();
        HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != expected) {
            throw new IllegalStateException(method + " " + base + path + (body == null ? "" : " " + body) + ": HTTP "
                    + response.statusCode() + " " + response.body());
        }
        return JSON.readTree(response.body());
    }

    private static JsonNode unwrap(JsonNode body) {
        return body.has("job") ? body.get("job") : body;
    }

    /** The job once a cutover switched it, and how many cutover requests that took. */
    record Switched(JsonNode job, int attempts) {
    }

    /**
     * Asks for the cutover of {@code id} until it switches ({@code switched}, or {@code done}): again when it aborts back
     * to {@code ready}, at most {@code attempts} times; saying so on {@code out}.
     */
    Switched cutover(String id, int attempts, java.io.PrintStream out) throws IOException, InterruptedException {
        for (int attempt = 1; attempt <= attempts; attempt++) {
            String errorBefore = job(id).path("error").asText();
            act(id, "cutover");
            JsonNode after = awaitCutover(id, errorBefore, out);
            if (after != null) {
                return new Switched(after, attempt);
            }
        }
        throw new IllegalStateException("the cutover aborted " + attempts + " times: " + job(id));
    }

    /** The job once the cutover switched it, or null when it aborted back to ready (a new error). */
    private JsonNode awaitCutover(String id, String errorBefore, java.io.PrintStream out) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(5);
        while (System.nanoTime() < deadline) {
            JsonNode job = job(id);
            String phase = job.path("phase").asText();
            String error = job.path("error").asText();
            if (phase.equals("done") || phase.equals("switched")) {
                return job;
            }
            if (phase.equals("ready") && !error.equals(errorBefore) && error.contains("cutover aborted")) {
                out.println("the cutover aborted (" + error + "); asking again");
                return null;
            }
            if (Set.of("failed", "cancelled", "reversed").contains(phase)) {
                throw new IllegalStateException("job " + id + " is " + phase + " after the cutover was asked: " + job);
            }
            TimeUnit.MILLISECONDS.sleep(100);
        }
        throw new IllegalStateException("the cutover of " + id + " did not end within 5 minutes: " + job(id));
    }
}
