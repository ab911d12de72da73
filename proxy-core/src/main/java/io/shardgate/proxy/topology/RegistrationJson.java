package io.shardgate.proxy.topology;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.time.Instant;
import java.time.format.DateTimeParseException;

/**
 * A proxy's registration as the store keeps it:
 * {@code {"id":"p1","address":"10.0.0.5:3307","admin_address":"10.0.0.5:8080","version":7,"started":"2026-11-26T12:00:00Z"}}.
 */
final class RegistrationJson {
    private final ObjectMapper mapper = new ObjectMapper();

    String write(ProxyRegistration registration) {
        ObjectNode node = mapper.createObjectNode()
                .put("id", registration.id())
                .put("address", registration.address())
                .put("admin_address", registration.adminAddress())
                .put("version", registration.version())
                .put("started", registration.started().toString());
        if (!registration.holdsDrained().isEmpty()) {
            registration.holdsDrained().forEach(node.putArray("holds_drained")::add);
        }
        return node.toString();
    }

    /** The registration {@code json} holds; IllegalArgumentException naming what is wrong when it holds none. */
    ProxyRegistration read(String json) {
        try {
            JsonNode node = mapper.readTree(json);
            if (node == null || !node.isObject()) {
                throw new IllegalArgumentException("not a JSON object: " + json);
            }
            java.util.List<String> drained = new java.util.ArrayList<>();
            node.path("holds_drained").forEach(job -> drained.add(job.asText()));
            return new ProxyRegistration(text(node, "id"), text(node, "address"), text(node, "admin_address"),
                    node.path("version").asLong(0), Instant.parse(text(node, "started")), drained);
        } catch (JsonProcessingException | DateTimeParseException e) {
            throw new IllegalArgumentException("not a proxy registration: " + e.getMessage(), e);
        }
    }

    private static String text(JsonNode node, String field) {
        JsonNode value = node.get(field);
        if (value == null || !value.isTextual()) {
            throw new IllegalArgumentException("proxy registration without \"" + field + "\"");
        }
        return value.asText();
    }
}
