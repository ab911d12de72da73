package io.shardgate.proxy.admin;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.ArrayList;
import java.util.List;

/**
 * {@code shardgate admin proxies}: the {@code proxies} of a {@code GET /api/v1/topology} answer as a text table,
 * one row per proxy, with whether it serves the topology's newest {@code version}:
 * <pre>
 * ID  ADDRESS         VERSION  STARTED               NEWEST
 * a   10.0.0.1:3307   7        2026-11-26T13:00:00Z  yes
 * b   10.0.0.2:3307   6        2026-11-26T12:58:02Z  no
 * </pre>
 * A field the answer lacks shows as {@code -}.
 */
final class ProxiesTable {
    private static final List<String> HEADER = List.of("ID", "ADDRESS", "VERSION", "STARTED", "NEWEST");

    private ProxiesTable() {
    }

    static String render(JsonNode topology) {
        JsonNode newest = topology.path("version");
        List<List<String>> rows = new ArrayList<>();
        rows.add(HEADER);
        for (JsonNode proxy : topology.path("proxies")) {
            JsonNode version = proxy.path("version");
            boolean servesNewest = !version.isMissingNode() && !version.isNull() && version.asText().equals(newest.asText());
            rows.add(List.of(text(proxy.path("id")), text(proxy.path("address")), text(version), text(proxy.path("started")),
                    servesNewest ? "yes" : "no"));
        }
        int[] widths = new int[HEADER.size()];
        for (List<String> row : rows) {
            for (int i = 0; i < row.size(); i++) {
                widths[i] = Math.max(widths[i], row.get(i).length());
            }
        }
        StringBuilder table = new StringBuilder();
        for (List<String> row : rows) {
            StringBuilder line = new StringBuilder();
            for (int i = 0; i < row.size(); i++) {
                line.append(row.get(i));
                if (i < row.size() - 1) {
                    line.append(" ".repeat(widths[i] - row.get(i).length() + 2));
                }
            }
            table.append(line.toString().stripTrailing()).append('\n');
        }
        return table.toString();
    }

    private static String text(JsonNode value) {
        return value.isMissingNode() || value.isNull() || value.asText().isEmpty() ? "-" : value.asText();
    }
}
