package io.shardgate.storage.capability;

/** Transaction isolation levels, with the spelling {@code SET TRANSACTION ISOLATION LEVEL} takes. */
public enum IsolationLevel {
    READ_UNCOMMITTED("READ UNCOMMITTED"),
    READ_COMMITTED("READ COMMITTED"),
    REPEATABLE_READ("REPEATABLE READ"),
    SERIALIZABLE("SERIALIZABLE");

    private final String sql;

    IsolationLevel(String sql) {
        this.sql = sql;
    }

    public String sql() {
        return sql;
    }
}
