package io.shardgate.proxy.frontend;

import io.shardgate.proxy.backend.BackendConnection;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * How a command changes the session's schema once it succeeds, so a pooled connection can be
 * put back in the right schema. A statement that may change it in a way Shardgate does not
 * follow (USE inside a multi-statement) marks the backend's schema unknown, and such a
 * connection is closed instead of pooled.
 */
record SchemaChange(Kind kind, String schema) {
    enum Kind { NONE, TO, UNKNOWN }

    static final SchemaChange NONE = new SchemaChange(Kind.NONE, null);
    private static final Pattern USE = Pattern.compile("\\s*USE\\s+`?([^`;\\s]+)`?\\s*;?\\s*", Pattern.CASE_INSENSITIVE);
    private static final Pattern USE_ANYWHERE = Pattern.compile("(^|;)\\s*USE\\s", Pattern.CASE_INSENSITIVE);
    private static final Pattern DROP_DATABASE = Pattern.compile("\\bDROP\\s+(DATABASE|SCHEMA)\\b", Pattern.CASE_INSENSITIVE);

    static SchemaChange to(String schema) {
        return new SchemaChange(Kind.TO, schema);
    }

    static SchemaChange ofQuery(String sql) {
        if (!SqlText.containsIgnoreCase(sql, "use") && !SqlText.containsIgnoreCase(sql, "drop")) {
            return NONE;
        }
        if (sql.length() < 200) {
            Matcher use = USE.matcher(sql);
            if (use.matches()) {
                return to(use.group(1));
            }
        }
        int head = Math.min(sql.length(), 4096);
        if (USE_ANYWHERE.matcher(sql).region(0, head).find() || DROP_DATABASE.matcher(sql).region(0, head).find()
                || SqlText.containsIgnoreCase(sql.subSequence(0, head), "use ") && sql.indexOf(';') >= 0
                && sql.indexOf(';') < head) {
            return new SchemaChange(Kind.UNKNOWN, null);
        }
        return NONE;
    }

    void apply(ClientSession session, BackendConnection backend) {
        switch (kind) {
            case TO -> {
                session.schema(schema);
                backend.schema(schema);
            }
            case UNKNOWN -> backend.schema(null);
            case NONE -> {
            }
            default -> throw new IllegalStateException("kind " + kind);
        }
    }
}
