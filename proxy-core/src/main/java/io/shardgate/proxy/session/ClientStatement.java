package io.shardgate.proxy.session;

import io.shardgate.router.classify.Classification;

/**
 * A prepared statement as its client sees it: the id Shardgate gave it, its SQL and the schema
 * it was prepared in (which decide which backend statement serves it), its parameter count, and
 * the parameter types the client last sent, for backends that have not seen them.
 */
public final class ClientStatement {
    private final int id;
    private final String sql;
    private final String schema;
    private final int parameters;
    private final Classification classification;
    private byte[] parameterTypes;
    /** {@link #cacheKey()}, made once: it is looked up at every execution. */
    private String cacheKey;
    /** The digest hash of {@link #sql}, made once per backslash-escapes mode; {@link #digestMode} -1: none yet. */
    private long digestHash;
    private int digestMode = -1;

    public ClientStatement(int id, String sql, String schema, int parameters, Classification classification) {
        this.id = id;
        this.sql = sql;
        this.schema = schema;
        this.parameters = parameters;
        this.classification = classification;
    }

    /** What the statement's SQL does, for routing and session effects at each execution. */
    public Classification classification() {
        return classification;
    }

    public int id() {
        return id;
    }

    public String sql() {
        return sql;
    }

    public String schema() {
        return schema;
    }

    public int parameters() {
        return parameters;
    }

    /** The parameter types from the client's last execute that sent them; null before any. */
    public byte[] parameterTypes() {
        return parameterTypes;
    }

    public void parameterTypes(byte[] types) {
        this.parameterTypes = types;
    }

    /** The key of the backend statement that serves this one on any connection. */
    public String cacheKey() {
        String key = cacheKey;
        if (key == null) {
            key = schema + '\u0000' + sql;
            cacheKey = key;
        }
        return key;
    }

    /** Whether {@link #digestHash()} holds the digest hash of the statement's text under {@code noBackslashEscapes}. */
    public boolean hasDigestHash(boolean noBackslashEscapes) {
        return digestMode == (noBackslashEscapes ? 1 : 0);
    }

    /** The digest hash kept by {@link #digestHash(boolean, long)}. */
    public long digestHash() {
        return digestHash;
    }

    /** Keeps the digest hash of the statement's text under {@code noBackslashEscapes}: made once, not per execution. */
    public void digestHash(boolean noBackslashEscapes, long hash) {
        digestHash = hash;
        digestMode = noBackslashEscapes ? 1 : 0;
    }
}
