package io.shardgate.router.classify;

/** The sub-kind of a {@link StatementClass#TRANSACTION} statement; {@link #NONE} for every other class. */
public enum TransactionKind {
    NONE,
    /** BEGIN [WORK], START TRANSACTION [READ WRITE] [WITH CONSISTENT SNAPSHOT]. */
    BEGIN,
    /** START TRANSACTION READ ONLY (with or without WITH CONSISTENT SNAPSHOT). */
    BEGIN_READ_ONLY,
    /** COMMIT [WORK] [AND [NO] CHAIN] [[NO] RELEASE]. */
    COMMIT,
    /** ROLLBACK [WORK] ... without TO. */
    ROLLBACK,
    /** ROLLBACK [WORK] TO [SAVEPOINT] name. */
    ROLLBACK_TO_SAVEPOINT,
    /** SAVEPOINT name. */
    SAVEPOINT,
    /** RELEASE SAVEPOINT name. */
    RELEASE_SAVEPOINT,
    /** XA START/BEGIN/END/PREPARE/COMMIT/ROLLBACK/RECOVER. */
    XA,
    /** SET autocommit = 1/ON/TRUE. */
    AUTOCOMMIT_ON,
    /** SET autocommit = 0/OFF/FALSE, or any value this classifier cannot evaluate (the safe guess). */
    AUTOCOMMIT_OFF,
    /** SET TRANSACTION READ ONLY: the next transaction only. */
    SET_TRANSACTION_READ_ONLY,
    /** SET TRANSACTION READ WRITE: the next transaction only. */
    SET_TRANSACTION_READ_WRITE,
    /** SET SESSION TRANSACTION READ ONLY, SET [SESSION] transaction_read_only = 1: every later transaction. */
    SET_SESSION_TRANSACTION_READ_ONLY,
    /** SET SESSION TRANSACTION READ WRITE, SET [SESSION] transaction_read_only = 0. */
    SET_SESSION_TRANSACTION_READ_WRITE,
    /** SET [SESSION] TRANSACTION ISOLATION LEVEL ... with no access mode. */
    SET_TRANSACTION_ISOLATION
}
