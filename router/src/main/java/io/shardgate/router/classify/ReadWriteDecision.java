package io.shardgate.router.classify;

import static java.util.Objects.requireNonNull;

/**
 * The read/write splitting rule: one pure function from a statement's {@link Classification}, the
 * {@link SessionRoutingState} and the request's {@link Hints} to a {@link Target}. First match wins:
 *
 * <ol>
 *   <li>session settings (SET, USE, SET autocommit, SET TRANSACTION) → TRACKED, or SAME_AS_TRANSACTION
 *       inside a transaction (where {@code SET autocommit=1} also commits);</li>
 *   <li>anything inside an open transaction → SAME_AS_TRANSACTION: a read-write one lives on the primary
 *       for its whole length, a read-only one on one replica;</li>
 *   <li>open temporary tables, or a statement creating or dropping one → PRIMARY;</li>
 *   <li>BEGIN → PRIMARY, or REPLICA when read-only (START TRANSACTION READ ONLY, or after SET TRANSACTION READ ONLY);
 *       COMMIT/ROLLBACK/SAVEPOINT with no transaction open → PRIMARY (harmless there); XA → PRIMARY;</li>
 *   <li>autocommit off: the statement opens a transaction → PRIMARY, or REPLICA if it will be read-only;</li>
 *   <li>READ → REPLICA; everything else (locking reads, reads needing the primary, writes, SHOW, OTHER,
 *       multi-statements) → PRIMARY.</li>
 * </ol>
 *
 * Then the hints: {@code shardgate primary} turns REPLICA into PRIMARY, and takes a statement out of a
 * read-only transaction to the primary. {@code max_lag_ms} is applied when a replica is picked (0 admits
 * only a replica that has applied everything the primary is known to have committed). Hints never move a session setting or a statement of a read-write transaction, which
 * must run where they run.
 *
 * Worked examples: {@code SELECT c FROM sbtest1 WHERE id=1} in autocommit → REPLICA; the same after BEGIN →
 * SAME_AS_TRANSACTION; {@code SELECT ... FOR UPDATE} in autocommit → PRIMARY; {@code SET NAMES utf8mb4} → TRACKED.
 * The {@code max_lag_ms} limit itself is applied when a replica is picked, not here.
 */
public final class ReadWriteDecision {

    private ReadWriteDecision() {
    }

    public static RoutingDecision decide(Classification statement, SessionRoutingState session, Hints hints) {
        requireNonNull(statement, "statement is null");
        requireNonNull(session, "session is null");
        requireNonNull(hints, "hints is null");
        RoutingDecision decision = withoutHints(statement, session);
        if (decision.target() == Target.REPLICA && hints.forcePrimary()) {
            return new RoutingDecision(Target.PRIMARY, "hint: shardgate primary");
        }
        if (decision.target() == Target.SAME_AS_TRANSACTION && session.readOnlyTransaction() && hints.forcePrimary()
                && !isSingleSessionSetting(statement)) {
            return new RoutingDecision(Target.PRIMARY, "hint: shardgate primary, outside the read-only transaction");
        }
        return decision;
    }

    private static RoutingDecision withoutHints(Classification statement, SessionRoutingState session) {
        StatementClass statementClass = statement.statementClass();
        TransactionKind kind = statement.transactionKind();
        if (isSingleSessionSetting(statement)) {
            return session.inTransaction()
                    ? new RoutingDecision(Target.SAME_AS_TRANSACTION, "session setting inside a transaction runs on its backend and is tracked")
                    : new RoutingDecision(Target.TRACKED, "session setting: tracked and replayed, not routed");
        }
        if (session.inTransaction()) {
            return session.readOnlyTransaction()
                    ? new RoutingDecision(Target.SAME_AS_TRANSACTION, "read-only transaction stays on its replica")
                    : new RoutingDecision(Target.SAME_AS_TRANSACTION, "transaction stays on the primary for its whole length");
        }
        if (session.temporaryTablesOpen()) {
            return new RoutingDecision(Target.PRIMARY, "temporary tables pin the session to the primary");
        }
        if (statement.temporaryTable() != TemporaryTable.NONE) {
            return new RoutingDecision(Target.PRIMARY, "temporary table: pins the session to the primary");
        }
        if (statementClass == StatementClass.TRANSACTION && !statement.multiStatement()) {
            return transactionStatement(kind, session);
        }
        if (!session.autocommit()) {
            return session.readOnlyTransaction()
                    ? new RoutingDecision(Target.REPLICA, "autocommit off: opens a read-only transaction on one replica")
                    : new RoutingDecision(Target.PRIMARY, "autocommit off: opens a transaction on the primary");
        }
        if (statementClass == StatementClass.READ) {
            return new RoutingDecision(Target.REPLICA, statement.multiStatement() ? "autocommit reads" : "autocommit read");
        }
        return new RoutingDecision(Target.PRIMARY, primaryReason(statement));
    }

    private static boolean isSingleSessionSetting(Classification statement) {
        return !statement.multiStatement()
                && (statement.statementClass() == StatementClass.SESSION || switch (statement.transactionKind()) {
                    case AUTOCOMMIT_ON, AUTOCOMMIT_OFF, SET_TRANSACTION_READ_ONLY, SET_TRANSACTION_READ_WRITE,
                            SET_SESSION_TRANSACTION_READ_ONLY, SET_SESSION_TRANSACTION_READ_WRITE, SET_TRANSACTION_ISOLATION -> true;
                    default -> false;
                });
    }

    private static RoutingDecision transactionStatement(TransactionKind kind, SessionRoutingState session) {
        return switch (kind) {
            case BEGIN_READ_ONLY -> new RoutingDecision(Target.REPLICA, "read-only transaction: one replica for its whole length");
            case BEGIN -> session.readOnlyTransaction()
                    ? new RoutingDecision(Target.REPLICA, "transaction declared read-only: one replica for its whole length")
                    : new RoutingDecision(Target.PRIMARY, "explicit transaction: the primary for its whole length");
            case XA -> new RoutingDecision(Target.PRIMARY, "XA transactions run on the primary");
            default -> new RoutingDecision(Target.PRIMARY, "no transaction open: harmless on the primary");
        };
    }

    private static String primaryReason(Classification statement) {
        if (statement.multiStatement()) {
            return "multi-statement that is not only reads runs on the primary";
        }
        return switch (statement.statementClass()) {
            case LOCKING_READ -> "locking read";
            case READ_NEEDS_PRIMARY -> "read needs the primary (locks, session functions, sequences, INTO, @x :=)";
            case WRITE -> "write";
            case SHOW -> "metadata read: the primary has the current schema";
            default -> "unrecognised statement: the primary is always correct";
        };
    }
}
