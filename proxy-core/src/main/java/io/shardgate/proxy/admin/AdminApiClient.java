package io.shardgate.proxy.admin;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

import static java.util.Objects.requireNonNull;

/**
 * The HTTP side of {@code shardgate admin}: one request to a proxy's admin API with the bearer token, the actor
 * ({@code X-Shardgate-Actor}) and an optional {@code If-Match}, over HTTP/1.1 with one timeout for connecting and
 * one for the answer. What the API answered, whatever its status, is a {@link Reply}; not getting an answer is an
 * {@link UnreachableException} whose message names the URL.
 */
final class AdminApiClient {
    private final String baseUrl;
    private final String token;
    private final String actor;
    private final Duration timeout;
    private final HttpClient http;

    /**
     * @param baseUrl the admin listener, e.g. {@code http://127.0.0.1:8307}, without a trailing slash
     * @param actor   who makes the changes, or null to send no {@code X-Shardgate-Actor}
     */
    AdminApiClient(String baseUrl, String token, String actor, Duration timeout) {
        this.baseUrl = requireNonNull(baseUrl, "baseUrl is null");
        this.token = requireNonNull(token, "token is null");
        this.actor = actor;
        this.timeout = requireNonNull(timeout, "timeout is null");
        this.http = HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(timeout)
                .followRedirects(HttpClient.Redirect.NEVER)
                .build();
    }

    /** The API's answer: its status and body (as text; empty when there was none). */
    record Reply(int status, String body) {
        boolean ok() {
            return status >= 200 && status < 300;
        }

        /**
         * An error answer's message: the {@code error} of its JSON body, with the {@code current_version} a 409
         * carries; else the body's text (the read endpoints answer 401 and 404 in plain text), else "no message".
         */
        String error(ObjectMapper json) {
            String text = body.strip();
            try {
                JsonNode parsed = json.readTree(text);
                if (parsed != null && parsed.isObject() && parsed.hasNonNull("error")) {
                    JsonNode current = parsed.path("current_version");
                    return parsed.get("error").asText()
                            + (current.isMissingNode() || current.isNull() ? "" : " (current version " + current.asText() + ")");
                }
            } catch (JsonProcessingException e) {
                // plain text: as it came
            }
            if (text.isEmpty()) {
                return "no message";
            }
            return text.length() > 1000 ? text.substring(0, 1000) + "..." : text;
        }
    }

    /**
     * The admin API did not answer: nothing listens there, or the answer took longer than the timeout. An
     * {@link IOException}, so {@code Main.guarded} prints its message and exits 1.
     */
    static final class UnreachableException extends IOException {
        UnreachableException(String message, Throwable cause) {
            super(message, cause);
        }
    }

    /**
     * Sends {@code method path} with a JSON {@code body} (null for none) and, unless null, {@code If-Match: ifMatch}.
     *
     * @param path the request's path from {@code /api/...}, its segments already percent-encoded
     */
    Reply send(String method, String path, String body, Long ifMatch) throws UnreachableException, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(baseUrl + path))
                .timeout(timeout)
                .header("Authorization", "Bearer " + token)
                .header("Accept", "application/json");
        if (actor != null) {
            request.header("X-Shardgate-Actor", actor);
        }
        if (ifMatch != null) {
            request.header("If-Match", Long.toString(ifMatch));
        }
        if (body != null) {
            request.header("Content-Type", "application/json");
            request.method(method, HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8));
        } else {
            request.method(method, HttpRequest.BodyPublishers.noBody());
        }
        try {
            HttpResponse<String> response = http.send(request.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
            return new Reply(response.statusCode(), response.body() == null ? "" : response.body());
        } catch (ConnectException e) {
            // The JDK's client often gives a ConnectException no message: a refused connection is by far the usual cause.
            throw new UnreachableException("cannot connect to " + baseUrl + " (" + (e.getMessage() == null ? "connection refused" : e.getMessage())
                    + "): is a proxy's admin listener there? --url or SHARDGATE_ADMIN_URL names it", e);
        } catch (HttpTimeoutException e) {
            throw new UnreachableException("no answer from " + baseUrl + " within " + timeout.toMillis() + " ms", e);
        } catch (IOException e) {
            throw new UnreachableException(method + " " + baseUrl + path + " failed: " + e, e);
        }
    }

    /**
     * One path segment (a shard's name, a {@code host:port}) percent-encoded as UTF-8: letters, digits,
     * {@code - . _ ~} and {@code :} stay as they are, everything else (a {@code /} too) is escaped.
     */
    static String segment(String value) {
        StringBuilder encoded = new StringBuilder();
        for (byte b : value.getBytes(StandardCharsets.UTF_8)) {
            int c = b & 0xff;
            if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || "-._~:".indexOf(c) >= 0) {
                encoded.append((char) c);
            } else {
                encoded.append('%').append(Character.toUpperCase(Character.forDigit(c >> 4, 16)))
                        .append(Character.toUpperCase(Character.forDigit(c & 0xf, 16)));
            }
        }
        return encoded.toString();
    }
}
