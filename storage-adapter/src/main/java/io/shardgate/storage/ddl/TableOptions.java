package io.shardgate.storage.ddl;

import com.alibaba.druid.sql.ast.SQLExpr;
import com.alibaba.druid.sql.ast.expr.SQLCharExpr;
import com.alibaba.druid.sql.ast.statement.SQLAssignItem;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The table options of a CREATE or ALTER TABLE: name (upper case) to value (as written, quotes
 * removed), from Druid's parse plus the MariaDB-only options {@link MariaDbDialect} took out.
 * Values compare ignoring case.
 */
record TableOptions(Map<String, String> values) {
    TableOptions {
        values = Collections.unmodifiableMap(new LinkedHashMap<>(values));
    }

    static TableOptions of(List<SQLAssignItem> parsed, Map<String, String> mariaDbOnly) {
        Map<String, String> values = new LinkedHashMap<>();
        for (SQLAssignItem item : parsed) {
            values.put(normalizeName(text(item.getTarget())), text(item.getValue()));
        }
        values.putAll(mariaDbOnly);
        return new TableOptions(values);
    }

    Optional<String> get(String name) {
        return Optional.ofNullable(values.get(name));
    }

    /** The value in upper case. */
    Optional<String> upper(String name) {
        return get(name).map(value -> value.toUpperCase(Locale.ROOT));
    }

    boolean has(String name) {
        return values.containsKey(name);
    }

    /** These options with {@code name}, if present, set to {@code value}. */
    TableOptions with(String name, String value) {
        if (!has(name)) {
            return this;
        }
        Map<String, String> changed = new LinkedHashMap<>(values);
        changed.put(name, value);
        return new TableOptions(changed);
    }

    /** {@code NAME=value} as written back for messages. */
    String clause(String name) {
        return name + "=" + values.get(name);
    }

    boolean isEmpty() {
        return values.isEmpty();
    }

    /** PAGE_COMPRESSED=1 / YES / ON. */
    boolean pageCompressed() {
        return upper("PAGE_COMPRESSED").map(v -> v.equals("1") || v.equals("YES") || v.equals("ON")).orElse(false);
    }

    /** KEY_BLOCK_SIZE as a number; empty when absent or DEFAULT, -1 when not a number. */
    Optional<Integer> keyBlockSize() {
        return upper("KEY_BLOCK_SIZE").filter(v -> !v.equals("DEFAULT")).map(v -> {
            try {
                return Integer.parseInt(v);
            } catch (NumberFormatException e) {
                return -1;
            }
        });
    }

    /** ROW_FORMAT=COMPRESSED, or a non-zero KEY_BLOCK_SIZE without another ROW_FORMAT (which implies it). */
    boolean rowCompressed() {
        String rowFormat = upper("ROW_FORMAT").orElse("DEFAULT");
        if (rowFormat.equals("COMPRESSED")) {
            return true;
        }
        return rowFormat.equals("DEFAULT") && keyBlockSize().map(size -> size != 0).orElse(false);
    }

    private static String normalizeName(String name) {
        String upper = name.toUpperCase(Locale.ROOT).trim();
        return switch (upper) {
            case "DEFAULT CHARSET", "CHARACTER SET", "DEFAULT CHARACTER SET" -> "CHARSET";
            case "DEFAULT COLLATE" -> "COLLATE";
            case "TYPE" -> "ENGINE";
            default -> upper;
        };
    }

    private static String text(SQLExpr expr) {
        if (expr == null) {
            return "";
        }
        if (expr instanceof SQLCharExpr chars) {
            return chars.getText();
        }
        String text = expr.toString().trim();
        if (text.length() >= 2 && (text.startsWith("`") && text.endsWith("`")
                || text.startsWith("'") && text.endsWith("'"))) {
            return text.substring(1, text.length() - 1);
        }
        return text;
    }
}
