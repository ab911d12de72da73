package io.shardgate.it;

import com.fasterxml.jackson.databind.JsonNode;

import java.time.Duration;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/** The jobs API of one proxy, as an operator's script uses it. */
final class Jobs {
    private final AdminApi admin;

    Jobs(AdminApi admin) {
        this.admin = admin;
    }

    /** A reshard of {@code source} over {@code targets} ({@code name=address@engine:range}); returns the job's id. */
    String reshard(String source, String... targets) {
        return reshard(0, source, targets);
    }

    /** The same, reading at most {@code maxRowsPerSecond} rows a second from the source (0: no limit). */
    String reshard(long maxRowsPerSecond, String source, String... targets) {
        StringBuilder spec = new StringBuilder("{\"kind\": \"reshard\", \"spec\": {\"source\": \"" + source + "\", "
                + (maxRowsPerSecond > 0 ? "\"max_rows_per_second\": " + maxRowsPerSecond + ", " : "") + "\"targets\": [");
        for (int i = 0; i < targets.length; i++) {
            String[] nameRest = targets[i].split("=", 2);
            String[] addressRest = nameRest[1].split("@", 2);
            String[] engineRange = addressRest[1].split(":", 2);
            spec.append(i == 0 ? "" : ",").append("{\"name\": \"").append(nameRest[0]).append("\", \"primary\": \"")
                    .append(addressRest[0]).append("\", \"engine\": \"").append(engineRange[0]).append("\", \"key_range\": \"")
                    .append(engineRange[1]).append("\"}");
        }
        AdminApi.Response created = admin.send("POST", "/api/v1/jobs", spec.append("]}}").toString(), -1);
        assertThat(created.status()).as(created.body()).isEqualTo(201);
        return unwrap(created.json()).get("id").asText();
    }

    /** A move of {@code tables} from {@code source} to {@code target} on {@code engine}; returns the job's id. */
    String move(String source, String target, String engine, String... tables) {
        StringBuilder spec = new StringBuilder("{\"kind\": \"move\", \"spec\": {\"source\": \"" + source + "\", \"target\": \""
                + target + "\", \"engine\": \"" + engine + "\", \"tables\": [");
        for (int i = 0; i < tables.length; i++) {
            spec.append(i == 0 ? "" : ",").append('"').append(tables[i]).append('"');
        }
        AdminApi.Response created = admin.send("POST", "/api/v1/jobs", spec.append("]}}").toString(), -1);
        assertThat(created.status()).as(created.body()).isEqualTo(201);
        return unwrap(created.json()).get("id").asText();
    }

    JsonNode job(String id) {
        AdminApi.Response response = admin.get("/api/v1/jobs/" + id);
        assertThat(response.status()).as(response.body()).isEqualTo(200);
        return unwrap(response.json());
    }

    String phase(String id) {
        return job(id).path("phase").asText();
    }

    /** Waits for {@code phase}; fails at once when the job fails or reaches another end. */
    JsonNode await(String id, String phase, Duration timeout) {
        Await.until("job " + id + " " + phase, timeout, () -> {
            JsonNode job = job(id);
            String now = job.path("phase").asText();
            assertThat(now).as(job.toString()).isNotIn(Set.of("failed", "cancelled", "done", "reversed").stream()
                    .filter(end -> !end.equals(phase)).toList());
            return now.equals(phase);
        });
        return job(id);
    }

    /** {@code POST /api/v1/jobs/{id}/{action}}; returns the status. */
    /** Once the cutover switched, completes the job (its reverse streams stop) and waits for {@code done}. */
    void completeAfterSwitch(String id) {
        await(id, "switched", Duration.ofMinutes(1));
        assertThat(act(id, "complete")).isEqualTo(200);
        await(id, "done", Duration.ofMinutes(1));
    }

    int act(String id, String action) {
        AdminApi.Response response = admin.send("POST", "/api/v1/jobs/" + id + "/" + action, null, -1);
        return response.status();
    }

    private static JsonNode unwrap(JsonNode body) {
        return body.has("job") ? body.get("job") : body;
    }
}
