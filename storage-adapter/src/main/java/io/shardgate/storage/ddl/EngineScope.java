package io.shardgate.storage.ddl;

/**
 * Which engines the table of a DDL statement may live in, which decides what an {@code ENGINE=} clause naming an
 * engine without a storage adapter (MyISAM, Aria, MEMORY, ...) gets from {@link DdlValidator}.
 */
public enum EngineScope {
    /**
     * A table of a sharded schema (sharded, reference or unsharded): it lives in the shard's engine, which XA and
     * placement rely on, so such a clause is refused ({@link io.shardgate.errors.ErrorCode#ENGINE_MISMATCH}).
     */
    SHARD_ENGINE,
    /**
     * A table of a schema that is not sharded (every schema of a one-shard deployment): such a clause is the user's
     * choice and the statement passes unchanged and unchecked, since the shard engine's rules are not that table's;
     * the server's own answer stands.
     */
    ANY_ENGINE
}
