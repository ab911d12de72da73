package io.shardgate.proxy.sharding;

import java.util.List;

import static java.util.Objects.requireNonNull;

/**
 * The diagnostics a session's last sharded statement left, from every shard it ran on: what SHOW WARNINGS,
 * SHOW ERRORS, SHOW COUNT(*) WARNINGS and {@code @@warning_count} after it answer, as one server would.
 *
 * @param rows  the shards' SHOW WARNINGS rows, shard by shard, at most the session's {@code max_error_count}
 * @param count how many warnings the shards counted (their OK and EOF packets), which {@code @@warning_count}
 *              says; may exceed {@code rows}, as on one server
 */
public record ShardWarnings(List<ShardWarning> rows, long count) {
    public static final ShardWarnings NONE = new ShardWarnings(List.of(), 0);
    /** MariaDB's default {@code max_error_count}. */
    public static final long DEFAULT_MAX_ERROR_COUNT = 64;

    public ShardWarnings {
        rows = List.copyOf(requireNonNull(rows, "rows is null"));
    }

    /** How many warnings SHOW WARNINGS keeps for a session whose max_error_count is {@code value} (null: never set). */
    public static long maxErrorCount(String value) {
        try {
            return value == null ? DEFAULT_MAX_ERROR_COUNT : Math.max(0, Long.parseLong(value.trim()));
        } catch (NumberFormatException e) {
            return DEFAULT_MAX_ERROR_COUNT;
        }
    }

    /** The SHOW WARNINGS rows (Level, Code, Message) {@code shard} answered, at most {@code max} of them, added to {@code into}. */
    static void read(String shard, List<List<byte[]>> rows, long max, List<ShardWarning> into) {
        for (List<byte[]> row : rows) {
            if (into.size() >= max) {
                return;
            }
            into.add(new ShardWarning(shard, text(row.get(0)), Integer.parseInt(text(row.get(1))), text(row.get(2))));
        }
    }

    private static String text(byte[] value) {
        return value == null ? "" : new String(value, java.nio.charset.StandardCharsets.UTF_8);
    }

    /** The rows of level Error, which SHOW ERRORS lists. */
    public List<ShardWarning> errors() {
        return rows.stream().filter(row -> row.level().equalsIgnoreCase("Error")).toList();
    }

    /** Whether the statement left nothing to show. */
    public boolean isEmpty() {
        return count == 0 && rows.isEmpty();
    }
}
