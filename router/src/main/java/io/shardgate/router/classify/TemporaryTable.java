package io.shardgate.router.classify;

/** Whether a statement creates or drops a temporary table; temporary tables pin the session to the primary. */
public enum TemporaryTable {
    NONE,
    /** CREATE TEMPORARY TABLE. */
    CREATE,
    /** DROP TEMPORARY TABLE. */
    DROP
}
