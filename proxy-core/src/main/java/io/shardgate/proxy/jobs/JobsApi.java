package io.shardgate.proxy.jobs;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.shardgate.proxy.admin.AdminRequest;
import io.shardgate.proxy.admin.AdminRoutes;
import io.shardgate.proxy.topology.TopologyDocument;
import io.shardgate.proxy.topology.TopologyStoreUnavailableException;

import java.time.Clock;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;
import java.util.random.RandomGenerator;

import static java.util.Objects.requireNonNull;

/**
 * The jobs endpoints of the admin API (docs/operations.md, "Jobs"), behind the admin token:
 * <pre>
 * POST /api/v1/jobs                  {"kind": "reshard" | "move", "spec": {...}}: 201 and the job; 400 naming the field
 * GET  /api/v1/jobs                  every job
 * GET  /api/v1/jobs/{id}             one job, with its version and live runner
 * POST /api/v1/jobs/{id}/cutover     record an operator's request; 409 naming the phase when it is not valid there
 * POST /api/v1/jobs/{id}/cancel
 * POST /api/v1/jobs/{id}/reverse
 * POST /api/v1/jobs/{id}/complete
 * </pre>
 * 503 while the store cannot be reached. A cancel of a job no proxy has started yet cancels it at once.
 */
public final class JobsApi implements AdminRoutes {
    private static final String ROOT = "/api/v1/jobs";
    private static final int ATTEMPTS = 8;
    private static final DateTimeFormatter ID_TIME = DateTimeFormatter.ofPattern("yyyyMMdd-HHmm").withZone(ZoneOffset.UTC);

    private final JobStore store;
    private final JobSpecs specs;
    private final Supplier<TopologyDocument> topology;
    private final Clock clock;
    private final RandomGenerator random;
    private final JobJson json = new JobJson();
    private final ObjectMapper mapper = json.mapper();

    public JobsApi(JobStore store, JobSpecs specs, Supplier<TopologyDocument> topology, Clock clock, RandomGenerator random) {
        this.store = requireNonNull(store, "store is null");
        this.specs = requireNonNull(specs, "specs is null");
        this.topology = requireNonNull(topology, "topology is null");
        this.clock = requireNonNull(clock, "clock is null");
        this.random = requireNonNull(random, "random is null");
    }

    @Override
    public boolean handles(String method, String path) {
        return path.equals(ROOT) || path.startsWith(ROOT + "/");
    }

    @Override
    public Reply handle(AdminRequest request) {
        List<String> parts = request.path().equals(ROOT) ? List.of()
                : List.of(request.path().substring(ROOT.length() + 1).split("/", -1));
        try {
            return switch (request.method() + " " + parts.size()) {
                case "POST 0" -> create(request);
                case "GET 0" -> list();
                case "GET 1" -> show(parts.get(0));
                case "POST 2" -> act(request, parts.get(0), parts.get(1));
                default -> error(parts.size() <= 2 ? 405 : 404, "no such endpoint: " + request.method() + " " + request.path());
            };
        } catch (TopologyStoreUnavailableException e) {
            return error(503, "the job store (" + store.describe() + ") cannot be reached; jobs cannot be read or changed until it is back: "
                    + e.getMessage());
        }
    }

    private Reply create(AdminRequest request) {
        JsonNode body;
        try {
            body = mapper.readTree(request.body());
        } catch (JsonProcessingException e) {
            return error(400, "the body is not JSON: " + e.getOriginalMessage());
        }
        if (body == null || !body.isObject() || !body.path("kind").isTextual()) {
            return error(400, "kind: expected a body like {\"kind\": \"reshard\" | \"move\", \"spec\": {...}}");
        }
        JobKind kind;
        ObjectNode spec;
        try {
            kind = JobKind.parse(body.get("kind").asText());
        } catch (IllegalArgumentException e) {
            return error(400, "kind: " + e.getMessage());
        }
        try {
            spec = specs.check(kind, body.get("spec"), topology.get());
        } catch (InvalidSpecException e) {
            return error(400, "spec." + e.getMessage());
        }
        // No check of store.available() first: the write itself finds out, and a store just back answers it.
        for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
            String source = spec.path("source").asText();
            String id = kind.json() + "-" + source + "-" + ID_TIME.format(clock.instant()) + "-"
                    + HexFormat.of().toHexDigits((short) random.nextInt(1 << 16));
            Job job = Job.create(id, kind, spec, request.actor(), clock.instant());
            JobWrite write = store.create(job);
            if (write instanceof JobWrite.Written written) {
                return new Reply(201, body(new StoredJob(job, written.version()), Optional.empty()));
            }
        }
        return error(409, "could not find a free job id; try again");
    }

    private Reply list() {
        ArrayNode jobs = mapper.createArrayNode();
        for (StoredJob stored : store.list()) {
            jobs.add(tree(stored, Optional.empty()));
        }
        return new Reply(200, pretty(mapper.createObjectNode().set("jobs", jobs)));
    }

    private Reply show(String id) {
        Optional<StoredJob> stored = store.read(id);
        if (stored.isEmpty()) {
            return error(404, "no job " + id);
        }
        return new Reply(200, body(stored.get(), Optional.of(store.runner(id).orElse(""))));
    }

    private Reply act(AdminRequest request, String id, String actionName) {
        JobAction action;
        try {
            action = JobAction.parse(actionName);
        } catch (IllegalArgumentException e) {
            return error(404, "no such endpoint: POST " + request.path() + " (" + e.getMessage() + ")");
        }
        for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
            Optional<StoredJob> stored = store.read(id);
            if (stored.isEmpty()) {
                return error(404, "no job " + id);
            }
            Job job = stored.get().job();
            if (!action.validIn(job.phase())) {
                return new Reply(409, pretty(mapper.createObjectNode()
                        .put("error", "job " + id + " is in phase " + job.phase().json() + ": " + action.json() + " is valid in "
                                + String.join(", ", action.validIn().stream().map(JobPhase::json).toList()))
                        .put("phase", job.phase().json())));
            }
            Job next = job.withRequestedAction(new Job.ActionRequest(action, request.actor(), clock.instant().toString()))
                    .withUpdatedAt(clock.instant());
            if (action == JobAction.CANCEL && job.phase() == JobPhase.CREATED && store.runner(id).isEmpty()) {
                next = next.withPhase(JobPhase.CANCELLED, request.actor(), clock.instant()); // nothing was started
            }
            JobWrite write = store.compareAndSet(stored.get().version(), next, Optional.empty());
            if (write instanceof JobWrite.Written written) {
                return new Reply(200, body(new StoredJob(next, written.version()), Optional.empty()));
            }
        }
        return error(409, "job " + id + " kept changing under this request; try again");
    }

    private ObjectNode tree(StoredJob stored, Optional<String> liveRunner) {
        try {
            ObjectNode node = (ObjectNode) mapper.readTree(json.write(stored.job()));
            node.put("version", stored.version());
            liveRunner.ifPresent(runner -> {
                if (runner.isEmpty()) {
                    node.putNull("live_runner");
                } else {
                    node.put("live_runner", runner);
                }
            });
            return node;
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    private String body(StoredJob stored, Optional<String> liveRunner) {
        return pretty(tree(stored, liveRunner));
    }

    private Reply error(int status, String message) {
        return new Reply(status, pretty(mapper.createObjectNode().put("error", message)));
    }

    private String pretty(JsonNode node) {
        try {
            return mapper.writerWithDefaultPrettyPrinter().writeValueAsString(node) + "\n";
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}
