package io.shardgate.proxy.admin;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * How {@code shardgate job} shows jobs: {@link #lines} for {@code watch} on a terminal (a progress bar per table with
 * rows, rate and ETA; stream lag, diff progress, throttle reason, error), {@link #line} for {@code watch} into a pipe or
 * file (one line per update), {@link #table} for {@code list}. Pure functions of the API's JSON.
 */
final class JobProgressView {
    static final int BAR = 24;

    private JobProgressView() {
    }

    /** The phases after which {@code watch} stops: terminal ones, and {@code ready} (it waits for an operator). */
    static boolean settled(JsonNode job) {
        return switch (job.path("phase").asText()) {
            case "ready", "switched", "done", "cancelled", "failed", "reversed" -> true;
            default -> false;
        };
    }

    static List<String> lines(JsonNode job) {
        List<String> lines = new ArrayList<>();
        lines.add("job " + job.path("id").asText() + "  " + job.path("kind").asText() + "  phase " + job.path("phase").asText()
                + runner(job) + action(job));
        int width = 5;
        for (Iterator<String> names = job.path("tables").fieldNames(); names.hasNext(); ) {
            width = Math.max(width, names.next().length());
        }
        for (Iterator<Map.Entry<String, JsonNode>> tables = job.path("tables").fields(); tables.hasNext(); ) {
            Map.Entry<String, JsonNode> table = tables.next();
            JsonNode progress = table.getValue();
            long copied = progress.path("rows_copied").asLong();
            long total = progress.path("rows_total").asLong();
            double fraction = total <= 0 ? 0 : Math.min(1, (double) copied / total);
            int filled = (int) Math.round(fraction * BAR);
            lines.add(String.format(Locale.ROOT, "  %-" + width + "s [%s%s] %5.1f%%  %,d / %,d rows  %,.0f rows/s  ETA %s",
                    table.getKey(), "#".repeat(filled), "-".repeat(BAR - filled), fraction * 100, copied, total,
                    progress.path("rows_per_second").asDouble(), eta(progress.path("eta_seconds"))));
        }
        String status = status(job);
        if (!status.isEmpty()) {
            lines.add("  " + status);
        }
        if (job.hasNonNull("throttle_reason")) {
            lines.add("  throttled: " + job.get("throttle_reason").asText());
        }
        if (job.hasNonNull("error")) {
            lines.add("  error: " + job.get("error").asText());
        }
        return lines;
    }

    /** One line: phase, each table's percentage and rate, lag, diff, throttle, error. */
    static String line(JsonNode job) {
        StringBuilder line = new StringBuilder(job.path("id").asText()).append(' ').append(job.path("phase").asText());
        for (Iterator<Map.Entry<String, JsonNode>> tables = job.path("tables").fields(); tables.hasNext(); ) {
            Map.Entry<String, JsonNode> table = tables.next();
            JsonNode progress = table.getValue();
            long copied = progress.path("rows_copied").asLong();
            long total = progress.path("rows_total").asLong();
            line.append(String.format(Locale.ROOT, " | %s %.1f%% %d/%d %.0f rows/s ETA %s", table.getKey(),
                    total <= 0 ? 0 : Math.min(100, 100.0 * copied / total), copied, total,
                    progress.path("rows_per_second").asDouble(), eta(progress.path("eta_seconds"))));
        }
        String status = status(job);
        if (!status.isEmpty()) {
            line.append(" | ").append(status);
        }
        if (job.hasNonNull("throttle_reason")) {
            line.append(" | throttled: ").append(job.get("throttle_reason").asText());
        }
        if (job.hasNonNull("error")) {
            line.append(" | error: ").append(job.get("error").asText());
        }
        return line.toString();
    }

    /** {@code list}: one row per job. */
    static String table(JsonNode list) {
        List<String[]> rows = new ArrayList<>();
        rows.add(new String[] {"ID", "KIND", "PHASE", "COPIED", "RUNNER", "REQUESTED", "UPDATED"});
        for (JsonNode job : list.path("jobs")) {
            long copied = 0;
            long total = 0;
            for (JsonNode progress : job.path("tables")) {
                copied += progress.path("rows_copied").asLong();
                total += progress.path("rows_total").asLong();
            }
            rows.add(new String[] {job.path("id").asText(), job.path("kind").asText(), job.path("phase").asText(),
                    total <= 0 ? "-" : String.format(Locale.ROOT, "%.1f%%", Math.min(100, 100.0 * copied / total)),
                    job.path("runner").asText("-"), job.path("requested_action").path("action").asText("-"),
                    job.path("updated_at").asText("-")});
        }
        int[] widths = new int[rows.get(0).length];
        for (String[] row : rows) {
            for (int i = 0; i < row.length; i++) {
                widths[i] = Math.max(widths[i], row[i].length());
            }
        }
        StringBuilder out = new StringBuilder();
        for (String[] row : rows) {
            StringBuilder line = new StringBuilder();
            for (int i = 0; i < row.length; i++) {
                line.append(i == 0 ? "" : "  ").append(i == row.length - 1 ? row[i] : String.format("%-" + widths[i] + "s", row[i]));
            }
            out.append(line.toString().stripTrailing()).append('\n');
        }
        return out.toString();
    }

    private static String status(JsonNode job) {
        List<String> parts = new ArrayList<>();
        if (job.hasNonNull("stream_lag_seconds")) {
            parts.add(String.format(Locale.ROOT, "stream lag %.1f s", job.get("stream_lag_seconds").asDouble()));
        }
        JsonNode diff = job.path("diff");
        if (diff.path("chunks_total").asLong() > 0) {
            parts.add(String.format(Locale.ROOT, "diff %,d/%,d chunks, %,d rows compared, %,d mismatches",
                    diff.path("chunks_done").asLong(), diff.path("chunks_total").asLong(), diff.path("rows_compared").asLong(),
                    diff.path("mismatches").asLong()));
        }
        return String.join("   ", parts);
    }

    private static String runner(JsonNode job) {
        JsonNode live = job.path("live_runner");
        if (live.isTextual()) {
            return "  runner " + live.asText();
        }
        return job.hasNonNull("runner") ? "  last runner " + job.get("runner").asText() : "";
    }

    private static String action(JsonNode job) {
        JsonNode action = job.path("requested_action");
        return action.hasNonNull("action") ? "  requested " + action.get("action").asText() + " by " + action.path("by").asText("?")
                : "";
    }

    private static String eta(JsonNode seconds) {
        if (!seconds.isNumber()) {
            return "-";
        }
        long s = seconds.asLong();
        return s >= 3600 ? String.format(Locale.ROOT, "%d:%02d:%02d", s / 3600, s / 60 % 60, s % 60)
                : String.format(Locale.ROOT, "%d:%02d", s / 60, s % 60);
    }
}
