package io.shardgate.it;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/** A client of one proxy's admin API, as an operator's script would use it. */
final class AdminApi {
    /** A response: its status and its body, parsed as JSON when it is JSON. */
    record Response(int status, String body) {
        JsonNode json() {
            try {
                return new ObjectMapper().readTree(body);
            } catch (IOException e) {
                throw new AssertionError("not JSON (HTTP " + status + "): " + body, e);
            }
        }
    }

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final String base;

    AdminApi(int adminPort) {
        this.base = "http://127.0.0.1:" + adminPort;
    }

    Response get(String path) {
        return send("GET", path, null, -1);
    }

    Response send(String method, String path, String json, long ifMatch) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(30))
                .header("Authorization", "Bearer " + ProxyFixture.ADMIN_TOKEN).header("X-Shardgate-Actor", "it")
                .method(method, json == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(json));
        if (ifMatch >= 0) {
            request.header("If-Match", Long.toString(ifMatch));
        }
        try {
            HttpResponse<String> response = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
            return new Response(response.statusCode(), response.body());
        } catch (IOException e) {
            throw new AssertionError(method + " " + base + path + ": " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    /** A write that must succeed: returns the version it made. */
    long change(String method, String path, String json) {
        Response response = send(method, path, json, -1);
        if (response.status() != 200) {
            throw new AssertionError(method + " " + path + " " + json + ": HTTP " + response.status() + " " + response.body());
        }
        return response.json().get("version").asLong();
    }

    long addReplica(String shard, String address) {
        return change("POST", "/api/v1/shards/" + shard + "/replicas", "{\"address\": \"" + address + "\"}");
    }

    long removeReplica(String shard, String address) {
        return change("DELETE", "/api/v1/shards/" + shard + "/replicas/" + address, null);
    }

    long state(String address, String state) {
        return change("PUT", "/api/v1/backends/" + address + "/state", "{\"state\": \"" + state + "\"}");
    }

    /** {@code GET /health}'s body (no token needed). */
    String health() {
        try {
            return http.send(HttpRequest.newBuilder(URI.create(base + "/health")).timeout(Duration.ofSeconds(5)).build(),
                    HttpResponse.BodyHandlers.ofString()).body();
        } catch (IOException e) {
            throw new AssertionError("GET /health: " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }
}
