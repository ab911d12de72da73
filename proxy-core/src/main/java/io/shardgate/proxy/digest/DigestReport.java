package io.shardgate.proxy.digest;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import static java.util.Objects.requireNonNull;

/**
 * The digests as an operator reads them: the rows of {@code SHOW SHARDGATE QUERIES} and the JSON of
 * {@code GET /api/v1/queries?order=count|total_time|p99|errors|rows_sent&limit=N}.
 */
public final class DigestReport {
    /** The columns of SHOW SHARDGATE QUERIES, in order. */
    public static final List<String> COLUMNS = List.of("digest", "digest_text", "schema", "count", "errors", "rows_sent",
            "rows_affected", "shards_touched", "sharded_count", "total_us", "p50_us", "p95_us", "p99_us", "first_seen",
            "last_seen");
    /** How many digests SHOW and the API list when not told. */
    public static final int DEFAULT_LIMIT = 100;

    private final QueryDigests digests;
    private final ObjectMapper json = new ObjectMapper();

    public DigestReport(QueryDigests digests) {
        this.digests = requireNonNull(digests, "digests is null");
    }

    /** SHOW SHARDGATE QUERIES: the digests with the most total time first. */
    public List<List<String>> rows() {
        List<List<String>> rows = new ArrayList<>();
        for (DigestSnapshot s : digests.top(QueryDigests.Order.TOTAL_TIME, DEFAULT_LIMIT)) {
            rows.add(Arrays.asList(s.digest(), s.text(), s.schema(), Long.toString(s.count()), Long.toString(s.errors()),
                    Long.toString(s.rowsSent()), Long.toString(s.rowsAffected()), Long.toString(s.shardsTouched()),
                    Long.toString(s.shardedCount()), Long.toString(s.totalMicros()), Long.toString(s.p50Micros()),
                    Long.toString(s.p95Micros()), Long.toString(s.p99Micros()), instant(s.firstSeenMillis()),
                    instant(s.lastSeenMillis())));
        }
        return rows;
    }

    /**
     * The API's answer for the query parameters {@code order} and {@code limit}; an {@link
     * IllegalArgumentException} saying what is wrong for a bad one.
     */
    public String json(Map<String, List<String>> parameters) {
        String orderName = first(parameters, "order", "total_time");
        QueryDigests.Order order = QueryDigests.Order.named(orderName);
        if (order == null) {
            throw new IllegalArgumentException("order: '" + orderName + "' (expected: count, total_time, p99, errors or rows_sent)");
        }
        String limitText = first(parameters, "limit", Integer.toString(DEFAULT_LIMIT));
        int limit;
        try {
            limit = Integer.parseInt(limitText);
        } catch (NumberFormatException e) {
            limit = -1;
        }
        if (limit < 1 || limit > 100_000) {
            throw new IllegalArgumentException("limit: '" + limitText + "' (expected: 1 to 100000)");
        }
        ObjectNode root = json.createObjectNode();
        root.put("enabled", digests.enabled());
        root.put("order", order.label());
        root.put("digests", digests.size());
        root.put("max_entries", digests.config().maxEntries());
        ArrayNode queries = root.putArray("queries");
        for (DigestSnapshot s : digests.top(order, limit)) {
            ObjectNode node = queries.addObject();
            node.put("digest", s.digest());
            node.put("digest_text", s.text());
            node.put("schema", s.schema());
            node.put("count", s.count());
            node.put("errors", s.errors());
            node.put("rows_sent", s.rowsSent());
            node.put("rows_affected", s.rowsAffected());
            node.put("shards_touched", s.shardsTouched());
            node.put("sharded_count", s.shardedCount());
            node.put("total_us", s.totalMicros());
            node.put("p50_us", s.p50Micros());
            node.put("p95_us", s.p95Micros());
            node.put("p99_us", s.p99Micros());
            node.put("first_seen", instant(s.firstSeenMillis()));
            node.put("last_seen", instant(s.lastSeenMillis()));
        }
        try {
            return json.writerWithDefaultPrettyPrinter().writeValueAsString(root) + "\n";
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String first(Map<String, List<String>> parameters, String name, String fallback) {
        List<String> values = parameters.get(name);
        return values == null || values.isEmpty() ? fallback : values.get(0);
    }

    private static String instant(long millis) {
        return java.time.Instant.ofEpochMilli(millis).toString();
    }
}
