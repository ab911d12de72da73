package io.shardgate.router.classify;

import java.util.List;

import static java.util.Objects.requireNonNull;

/**
 * What a statement does to its connection's session beyond system variables (which the server
 * reports itself through session tracking): the facts a proxy needs to know whether the session
 * may move to another pooled connection afterwards, and what it must carry along.
 *
 * @param userVariables names of user variables the statement may assign, lower case, without
 *        {@code @} or quotes (SET @a, @a := …, INTO @a, LOAD DATA … (@a)); a superset is harmless
 * @param takesNamedLock GET_LOCK(…): the lock belongs to the connection
 * @param releasesNamedLocks RELEASE_ALL_LOCKS()
 * @param locksTables LOCK TABLE[S]
 * @param unlocksTables UNLOCK TABLE[S]
 * @param sqlPreparedStatement PREPARE, EXECUTE, DEALLOCATE/DROP PREPARE: SQL-level statements live on the connection
 * @param calcFoundRows SQL_CALC_FOUND_ROWS: the next statement's FOUND_ROWS() must ask the same connection
 * @param readsLastInsertId LAST_INSERT_ID() or @@last_insert_id: the connection must have the session's value
 * @param readsDiagnostics SHOW WARNINGS/ERRORS, GET DIAGNOSTICS, FOUND_ROWS(), @@warning_count, @@error_count:
 *        answers that live on the connection that ran the previous statement
 */
public record SessionEffects(List<String> userVariables, boolean takesNamedLock, boolean releasesNamedLocks,
                             boolean locksTables, boolean unlocksTables, boolean sqlPreparedStatement, boolean calcFoundRows,
                             boolean readsLastInsertId, boolean readsDiagnostics) {

    public static final SessionEffects NONE = new SessionEffects(List.of(), false, false, false, false, false, false,
            false, false);

    public SessionEffects {
        userVariables = List.copyOf(requireNonNull(userVariables, "userVariables is null"));
    }

    public boolean isNone() {
        return equals(NONE);
    }

    /** Both statements' effects, as for the parts of one multi-statement. */
    SessionEffects and(SessionEffects other) {
        if (other.isNone()) {
            return this;
        }
        if (isNone()) {
            return other;
        }
        List<String> names = new java.util.ArrayList<>(userVariables);
        for (String name : other.userVariables) {
            if (!names.contains(name)) {
                names.add(name);
            }
        }
        return new SessionEffects(names, takesNamedLock || other.takesNamedLock, releasesNamedLocks || other.releasesNamedLocks,
                locksTables || other.locksTables, unlocksTables || other.unlocksTables,
                sqlPreparedStatement || other.sqlPreparedStatement, calcFoundRows || other.calcFoundRows,
                readsLastInsertId || other.readsLastInsertId, readsDiagnostics || other.readsDiagnostics);
    }
}
