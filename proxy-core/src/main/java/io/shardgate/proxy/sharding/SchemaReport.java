package io.shardgate.proxy.sharding;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.shardgate.router.schema.SchemaRules;
import io.shardgate.router.schema.SchemaSnapshot;
import io.shardgate.router.schema.TableColumns;
import io.shardgate.router.schema.TableRule;
import io.shardgate.router.schema.UnshardedTable;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static java.util.Objects.requireNonNull;

/**
 * What {@link SchemaTracker} knows, as rows (for {@code SHOW SHARDGATE SCHEMA}) and as JSON (the admin API's
 * {@code /api/v1/schema}): one row per table of the sharding schema and shard that should hold it, with
 * its status there:
 *
 * <ul>
 *   <li>{@code ok}: the shard's columns are the first shard's (the ones the planner uses);</li>
 *   <li>{@code differs}: they are not; {@code detail} says how (an extra column, another type, ...);</li>
 *   <li>{@code missing}: the shard was read and has no such table;</li>
 *   <li>{@code unknown}: the shard was never read (it was down); {@code detail} says why.</li>
 * </ul>
 */
public final class SchemaReport {
    /** The column names of {@link #rows()}. */
    public static final List<String> COLUMNS = List.of("schema", "table", "shard", "status", "columns", "detail");

    private final SchemaTracker tracker;
    private final ObjectMapper json = new ObjectMapper();

    public SchemaReport(SchemaTracker tracker) {
        this.tracker = requireNonNull(tracker, "tracker is null");
    }

    /** The rows, in config order of schemas, tables and shards; each has one value per {@link #COLUMNS} entry. */
    public List<List<String>> rows() {
        SchemaSnapshot snapshot = tracker.snapshot();
        List<SchemaSnapshot.Mismatch> mismatches = snapshot.mismatches();
        Map<String, String> failures = tracker.failures();
        List<List<String>> rows = new ArrayList<>();
        for (SchemaRules schema : tracker.rules().schemas()) {
            for (TableRule table : schema.tables()) {
                Map<String, TableColumns> byShard = snapshot.byShard(schema.name(), table.name());
                List<String> shards = table instanceof UnshardedTable unsharded ? List.of(unsharded.shard()) : tracker.rules().shardNames();
                for (String shard : shards) {
                    TableColumns columns = byShard.get(shard);
                    String status;
                    String detail = "";
                    if (columns != null) {
                        SchemaSnapshot.Mismatch mismatch = mismatches.stream().filter(m -> m.shard().equals(shard)
                                && m.schema().equalsIgnoreCase(schema.name()) && m.table().equals(columns.table())).findFirst().orElse(null);
                        status = mismatch == null ? "ok" : "differs";
                        detail = mismatch == null ? "" : String.join("; ", mismatch.differences()) + " (against shard " + mismatch.reference() + ")";
                    } else if (tracker.loaded(shard)) {
                        status = "missing";
                    } else {
                        status = "unknown";
                        detail = failures.getOrDefault(shard, "not read yet");
                    }
                    rows.add(List.of(schema.name(), table.name(), shard, status,
                            columns == null ? "" : String.join(", ", columns.names()), detail));
                }
            }
        }
        return rows;
    }

    /** How many rows are not {@code ok}. */
    public long problems() {
        return rows().stream().filter(row -> !row.get(3).equals("ok")).count();
    }

    /** {@code {"problems": n, "tables": [{"schema", "table", "shard", "status", "columns", "detail"}, ...]}}. */
    public String json() {
        List<List<String>> rows = rows();
        ObjectNode root = json.createObjectNode();
        root.put("problems", rows.stream().filter(row -> !row.get(3).equals("ok")).count());
        ArrayNode tables = root.putArray("tables");
        for (List<String> row : rows) {
            ObjectNode node = tables.addObject();
            for (int i = 0; i < COLUMNS.size(); i++) {
                node.put(COLUMNS.get(i), row.get(i));
            }
        }
        try {
            return json.writerWithDefaultPrettyPrinter().writeValueAsString(root) + "\n";
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}
