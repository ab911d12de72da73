package io.shardgate.router.classify;

/**
 * What the session knows when a statement arrives; kept by the session, read by {@link ReadWriteDecision}.
 *
 * @param inTransaction a transaction is open and bound to a backend (explicit, or implicit under autocommit=0)
 * @param readOnlyTransaction the open transaction is read-only, or, when none is open, the next one will be
 *        (START TRANSACTION READ ONLY, SET [SESSION] TRANSACTION READ ONLY)
 * @param temporaryTablesOpen the session created temporary tables that it has not dropped
 * @param autocommit the session's autocommit setting
 */
public record SessionRoutingState(boolean inTransaction, boolean readOnlyTransaction, boolean temporaryTablesOpen, boolean autocommit) {

    /** A fresh connection: autocommit on, no transaction, no temporary tables. */
    public static final SessionRoutingState INITIAL = new SessionRoutingState(false, false, false, true);
}
