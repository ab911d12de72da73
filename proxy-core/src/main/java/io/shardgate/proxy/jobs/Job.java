package io.shardgate.proxy.jobs;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * One reshard or table move, as the job store keeps it (JSON, snake_case keys; docs/operations.md, "Jobs"). Immutable:
 * each change is a {@code with…} copy, written back by compare-and-set. Times are ISO-8601 instants.
 *
 * @param spec             what to do: {@link ReshardSpec} or {@link MoveSpec} as JSON, checked when the job was created
 * @param tables           per-table copy progress, by {@code schema.table}
 * @param streamLagSeconds how far the change stream to the targets is behind the source (null: not streaming)
 * @param throttleReason   why the copy waits now (a source replica lags, the history list is long), else null
 * @param error            why the job failed, else null
 * @param requestedAction  what an operator asked for last (cutover, cancel, reverse), else null
 * @param runner           the proxy that last ran the job (the live runner is the store's lease, not this field)
 * @param history          every phase the job entered, oldest first
 * @param checkpoints      the phases' own state (positions, last keys, schema history): the executor reads and writes
 *                         it, nothing else interprets it
 */
public record Job(String id, JobKind kind, ObjectNode spec, JobPhase phase, Map<String, TableProgress> tables,
                  DiffProgress diff,
                  @JsonProperty("stream_lag_seconds") Double streamLagSeconds,
                  @JsonProperty("throttle_reason") String throttleReason,
                  String error,
                  @JsonProperty("requested_action") ActionRequest requestedAction,
                  @JsonProperty("created_by") String createdBy,
                  @JsonProperty("created_at") String createdAt,
                  @JsonProperty("updated_at") String updatedAt,
                  String runner, List<PhaseChange> history, ObjectNode checkpoints) {

    /** One table's copy: rows copied of the total (an estimate until counted), where the copy is, and how fast. */
    public record TableProgress(@JsonProperty("rows_copied") long rowsCopied, @JsonProperty("rows_total") long rowsTotal,
                                @JsonProperty("last_key") String lastKey, String position,
                                @JsonProperty("rows_per_second") double rowsPerSecond,
                                @JsonProperty("eta_seconds") Long etaSeconds) {
        public static final TableProgress NONE = new TableProgress(0, 0, null, null, 0, null);
    }

    /** The diff: chunks compared of all, rows compared, rows that differ. */
    public record DiffProgress(@JsonProperty("chunks_done") long chunksDone, @JsonProperty("chunks_total") long chunksTotal,
                               @JsonProperty("rows_compared") long rowsCompared, long mismatches) {
        public static final DiffProgress NONE = new DiffProgress(0, 0, 0, 0);
    }

    /** An operator's request: which action, who asked, when. */
    public record ActionRequest(JobAction action, String by, String at) {
        public ActionRequest {
            requireNonNull(action, "action is null");
        }
    }

    /** A phase the job entered, when and by whom (a proxy id, or the operator who created it). */
    public record PhaseChange(JobPhase phase, String at, String by) {
    }

    public Job {
        requireNonNull(id, "id is null");
        requireNonNull(kind, "kind is null");
        requireNonNull(phase, "phase is null");
        spec = spec == null ? JsonNodeFactory.instance.objectNode() : spec.deepCopy();
        tables = Collections.unmodifiableMap(new LinkedHashMap<>(tables == null ? Map.of() : tables));
        diff = diff == null ? DiffProgress.NONE : diff;
        history = List.copyOf(history == null ? List.of() : history);
        checkpoints = checkpoints == null ? JsonNodeFactory.instance.objectNode() : checkpoints.deepCopy();
    }

    /** A new job in phase {@code created}. */
    public static Job create(String id, JobKind kind, ObjectNode spec, String by, Instant at) {
        String now = at.toString();
        return new Job(id, kind, spec, JobPhase.CREATED, Map.of(), DiffProgress.NONE, null, null, null, null, by, now, now,
                null, List.of(new PhaseChange(JobPhase.CREATED, now, by)), null);
    }

    /** A copy: the job's spec can be read, not changed in place. */
    @Override
    public ObjectNode spec() {
        return spec.deepCopy();
    }

    /** A copy: change checkpoints with {@link #withCheckpoint}. */
    @Override
    public ObjectNode checkpoints() {
        return checkpoints.deepCopy();
    }

    /** The checkpoint under {@code key} (a copy), if the phases wrote one. */
    public Optional<JsonNode> checkpoint(String key) {
        JsonNode value = checkpoints.get(key);
        return value == null ? Optional.empty() : Optional.of(value.deepCopy());
    }

    /** The spec of a reshard job; throws {@link IllegalStateException} for a move. */
    public ReshardSpec reshardSpec() {
        if (kind != JobKind.RESHARD) {
            throw new IllegalStateException("job " + id + " is a " + kind.json() + ", not a reshard");
        }
        return ReshardSpec.fromJson(spec);
    }

    /** The spec of a move job; throws {@link IllegalStateException} for a reshard. */
    public MoveSpec moveSpec() {
        if (kind != JobKind.MOVE) {
            throw new IllegalStateException("job " + id + " is a " + kind.json() + ", not a move");
        }
        return MoveSpec.fromJson(spec);
    }

    /** Enters {@code next}, recorded in the history with {@code by} and {@code at}. */
    public Job withPhase(JobPhase next, String by, Instant at) {
        List<PhaseChange> changes = new ArrayList<>(history);
        changes.add(new PhaseChange(next, at.toString(), by));
        return new Job(id, kind, spec, next, tables, diff, streamLagSeconds, throttleReason, error, requestedAction,
                createdBy, createdAt, at.toString(), runner, changes, checkpoints);
    }

    /** Enters {@code failed} with {@code reason}. */
    public Job failed(String reason, String by, Instant at) {
        return withPhase(JobPhase.FAILED, by, at).withError(reason);
    }

    public Job withTable(String table, TableProgress progress) {
        Map<String, TableProgress> next = new LinkedHashMap<>(tables);
        next.put(requireNonNull(table, "table is null"), requireNonNull(progress, "progress is null"));
        return new Job(id, kind, spec, phase, next, diff, streamLagSeconds, throttleReason, error, requestedAction,
                createdBy, createdAt, updatedAt, runner, history, checkpoints);
    }

    public Job withDiff(DiffProgress progress) {
        return new Job(id, kind, spec, phase, tables, requireNonNull(progress, "progress is null"), streamLagSeconds,
                throttleReason, error, requestedAction, createdBy, createdAt, updatedAt, runner, history, checkpoints);
    }

    public Job withStreamLag(Double seconds) {
        return new Job(id, kind, spec, phase, tables, diff, seconds, throttleReason, error, requestedAction,
                createdBy, createdAt, updatedAt, runner, history, checkpoints);
    }

    /** Why the copy waits now; null once it runs at full speed again. */
    public Job withThrottle(String reason) {
        return new Job(id, kind, spec, phase, tables, diff, streamLagSeconds, reason, error, requestedAction,
                createdBy, createdAt, updatedAt, runner, history, checkpoints);
    }

    public Job withError(String reason) {
        return new Job(id, kind, spec, phase, tables, diff, streamLagSeconds, throttleReason, reason, requestedAction,
                createdBy, createdAt, updatedAt, runner, history, checkpoints);
    }

    /** Records an operator's request (null: none pending, once the executor has acted on it). */
    public Job withRequestedAction(ActionRequest request) {
        return new Job(id, kind, spec, phase, tables, diff, streamLagSeconds, throttleReason, error, request,
                createdBy, createdAt, updatedAt, runner, history, checkpoints);
    }

    public Job withRunner(String proxyId) {
        return new Job(id, kind, spec, phase, tables, diff, streamLagSeconds, throttleReason, error, requestedAction,
                createdBy, createdAt, updatedAt, proxyId, history, checkpoints);
    }

    public Job withUpdatedAt(Instant at) {
        return new Job(id, kind, spec, phase, tables, diff, streamLagSeconds, throttleReason, error, requestedAction,
                createdBy, createdAt, at.toString(), runner, history, checkpoints);
    }

    /** Sets the checkpoint under {@code key} (a copy of {@code value}); null removes it. */
    public Job withCheckpoint(String key, JsonNode value) {
        requireNonNull(key, "key is null");
        ObjectNode next = checkpoints.deepCopy();
        if (value == null) {
            next.remove(key);
        } else {
            next.set(key, value.deepCopy());
        }
        return new Job(id, kind, spec, phase, tables, diff, streamLagSeconds, throttleReason, error, requestedAction,
                createdBy, createdAt, updatedAt, runner, history, next);
    }

    /** The pending request, if any. */
    public Optional<JobAction> pendingAction() {
        return requestedAction == null ? Optional.empty() : Optional.of(requestedAction.action());
    }
}
