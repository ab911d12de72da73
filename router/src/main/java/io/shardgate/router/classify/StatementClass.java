package io.shardgate.router.classify;

/**
 * What a statement does, as far as read/write splitting cares. Declared from least to most
 * demanding: a multi-statement takes the most demanding class of its parts.
 */
public enum StatementClass {
    /** A plain read: SELECT, TABLE, VALUES, a CTE ending in SELECT, parenthesised selects and unions. */
    READ,
    /** SHOW, DESCRIBE/DESC, EXPLAIN, HELP: metadata reads, sent to the primary (see docs/routing.md). */
    SHOW,
    /** SET of session variables, NAMES, CHARACTER SET, ROLE; USE db. Tracked by the session, not routed. */
    SESSION,
    /** BEGIN, COMMIT, SAVEPOINT, XA, SET autocommit, SET TRANSACTION: see {@link TransactionKind}. */
    TRANSACTION,
    /** Nothing recognisable: empty input, garbage, or a statement this classifier does not know. */
    OTHER,
    /** A read whose answer or side effect lives on the primary: locks, LAST_INSERT_ID(), sequences, INTO, @x :=. */
    READ_NEEDS_PRIMARY,
    /** SELECT ... FOR UPDATE / FOR SHARE / LOCK IN SHARE MODE. */
    LOCKING_READ,
    /** DML, DDL, LOCK TABLES, GRANT, CALL, maintenance and administration. */
    WRITE
}
