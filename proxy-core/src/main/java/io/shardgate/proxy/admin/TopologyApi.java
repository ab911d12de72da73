package io.shardgate.proxy.admin;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.shardgate.proxy.topology.BackendState;
import io.shardgate.proxy.topology.ShardUse;
import io.shardgate.proxy.topology.TopologyAdmin;
import io.shardgate.proxy.topology.TopologyEdits;

import java.util.List;

import static java.util.Objects.requireNonNull;

/**
 * The topology endpoints of the admin API (docs/operations.md), on {@link TopologyAdmin}:
 * <pre>
 * GET    /api/v1/topology                          version, document, this proxy's state, every proxy's version
 * GET    /api/v1/topology/history                  who changed what, when
 * PUT    /api/v1/topology                          the whole document; If-Match: VERSION required
 * POST   /api/v1/shards/{shard}/replicas           {"address": "host:port"}
 * DELETE /api/v1/shards/{shard}/replicas/{address}
 * PUT    /api/v1/backends/{address}/state          {"state": "serving" | "draining" | "offline"}
 * PATCH  /api/v1/routing                           keys of the routing section
 * POST   /api/v1/shards                            {"name", "primary", "replicas", "engine"}: key_range none
 * DELETE /api/v1/shards/{shard}                    a shard that owns no keys and nothing uses (no job that has not ended)
 * </pre>
 * Every write takes an optional {@code If-Match} (the version it was made to) and records its actor.
 */
public final class TopologyApi implements AdminRoutes {
    private final TopologyAdmin admin;
    private final ShardUse shardUse;
    private final ObjectMapper mapper = new ObjectMapper();

    /** Without jobs: nothing outside the document uses a shard. */
    public TopologyApi(TopologyAdmin admin) {
        this(admin, ShardUse.NONE);
    }

    /** {@code shardUse}: what outside the document uses a shard (the jobs), which a shard's removal waits for. */
    public TopologyApi(TopologyAdmin admin, ShardUse shardUse) {
        this.admin = requireNonNull(admin, "admin is null");
        this.shardUse = requireNonNull(shardUse, "shardUse is null");
    }

    @Override
    public boolean handles(String method, String path) {
        return path.equals("/api/v1/topology") || path.startsWith("/api/v1/topology/") || path.equals("/api/v1/routing")
                || path.equals("/api/v1/shards") || path.startsWith("/api/v1/shards/") || path.startsWith("/api/v1/backends/");
    }

    @Override
    public Reply handle(AdminRequest request) {
        List<String> parts = List.of(request.path().substring(1).split("/"));
        String method = request.method();
        long ifMatch;
        try {
            ifMatch = request.ifMatch().map(Long::parseLong).orElse(-1L);
        } catch (NumberFormatException e) {
            return error(400, "If-Match must be a topology version (a number), got '" + request.ifMatch().get() + "'");
        }
        String route = method + " " + String.join("/", parts.subList(0, Math.min(parts.size(), 3)));
        return switch (route) {
            case "GET api/v1/topology" -> parts.size() == 3 ? admin.topology()
                    : parts.size() == 4 && parts.get(3).equals("history") ? admin.history() : notFound(request);
            case "PUT api/v1/topology" -> parts.size() != 3 ? notFound(request)
                    : ifMatch < 0 ? error(428, "PUT /api/v1/topology needs If-Match: the version the document was read at")
                    : admin.replace(request.actor(), ifMatch, request.body());
            case "PATCH api/v1/routing" -> withBody(request, body -> body.isObject(), "a JSON object of routing keys",
                    body -> admin.change(request.actor(), "routing: " + body, ifMatch,
                            tree -> TopologyEdits.patchRouting(tree, (ObjectNode) body)));
            case "POST api/v1/shards" -> parts.size() == 3 ? addShard(request, ifMatch)
                    : parts.size() == 5 && parts.get(4).equals("replicas") ? addReplica(request, parts.get(3), ifMatch)
                    : notFound(request);
            case "DELETE api/v1/shards" -> parts.size() == 6 && parts.get(4).equals("replicas")
                    ? admin.change(request.actor(), "removed replica " + parts.get(5) + " from shard " + parts.get(3), ifMatch,
                    tree -> TopologyEdits.removeReplica(tree, parts.get(3), parts.get(5)))
                    : parts.size() == 4 ? removeShard(request, parts.get(3), ifMatch) : notFound(request);
            case "PUT api/v1/backends" -> parts.size() == 5 && parts.get(4).equals("state") ? setState(request, parts.get(3), ifMatch)
                    : notFound(request);
            default -> error(405, method + " " + request.path() + " is not a topology endpoint");
        };
    }

    private Reply addReplica(AdminRequest request, String shard, long ifMatch) {
        return withBody(request, body -> body.path("address").isTextual(), "{\"address\": \"host:port\"}",
                body -> admin.change(request.actor(), "added replica " + body.get("address").asText() + " to shard " + shard, ifMatch,
                        tree -> TopologyEdits.addReplica(tree, shard, body.get("address").asText())));
    }

    /**
     * The document's refusals first (400), then what uses the shard outside it, a job (409); both checked again on each
     * attempt, so a job created meanwhile is seen.
     */
    private Reply removeShard(AdminRequest request, String shard, long ifMatch) {
        java.util.concurrent.atomic.AtomicBoolean inUse = new java.util.concurrent.atomic.AtomicBoolean();
        Reply reply = admin.change(request.actor(), "removed shard " + shard, ifMatch, tree -> {
            TopologyEdits.removeShard(tree, shard);
            String use = shardUse.usedBy(shard).orElse(null);
            inUse.set(use != null);
            if (use != null) {
                throw new IllegalArgumentException("shard " + shard + " is in use: " + use);
            }
        });
        return inUse.get() && reply.status() == 400 ? new Reply(409, reply.json()) : reply;
    }

    private Reply setState(AdminRequest request, String address, long ifMatch) {
        return withBody(request, body -> body.path("state").isTextual(), "{\"state\": \"serving\" | \"draining\" | \"offline\"}",
                body -> {
                    BackendState state;
                    try {
                        state = BackendState.parse(body.get("state").asText());
                    } catch (IllegalArgumentException e) {
                        return error(400, "state: " + e.getMessage());
                    }
                    return admin.change(request.actor(), "set " + address + " " + state.configName(), ifMatch,
                            tree -> TopologyEdits.setState(tree, address, state));
                });
    }

    private Reply addShard(AdminRequest request, long ifMatch) {
        return withBody(request, body -> body.path("name").isTextual() && body.path("primary").isTextual(),
                "{\"name\": \"s2\", \"primary\": \"host:port\", \"replicas\": [\"host:port\"], \"engine\": \"innodb\"}",
                body -> admin.change(request.actor(), "added shard " + body.get("name").asText(), ifMatch, tree -> {
                    ObjectNode shard = tree.withArray("shards").addObject();
                    shard.put("name", body.get("name").asText());
                    shard.put("engine", body.path("engine").asText("innodb"));
                    shard.put("primary", body.get("primary").asText());
                    shard.set("replicas", body.has("replicas") ? body.get("replicas") : mapper.createArrayNode());
                    shard.put("key_range", io.shardgate.proxy.config.ShardConfig.NO_KEYS);
                }));
    }

    private Reply withBody(AdminRequest request, java.util.function.Predicate<JsonNode> valid, String expected,
                           java.util.function.Function<JsonNode, Reply> then) {
        JsonNode body;
        try {
            body = mapper.readTree(request.body());
        } catch (JsonProcessingException e) {
            return error(400, "the body is not JSON (expected " + expected + "): " + e.getOriginalMessage());
        }
        if (body == null || !valid.test(body)) {
            return error(400, "expected a body like " + expected);
        }
        return then.apply(body);
    }

    private Reply notFound(AdminRequest request) {
        return error(404, "no such endpoint: " + request.method() + " " + request.path());
    }

    private Reply error(int status, String message) {
        return new Reply(status, mapper.createObjectNode().put("error", message).toPrettyString() + "\n");
    }

}
