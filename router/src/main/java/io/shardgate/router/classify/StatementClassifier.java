package io.shardgate.router.classify;

import static java.util.Objects.requireNonNull;

/**
 * Classifies SQL text for read/write splitting with one pass of {@link SqlLexer}; no parser, no I/O.
 * Stateless: one instance may serve every thread.
 *
 * <p>A statement is classified by its first keyword (after comments and opening parentheses), refined
 * by clauses found anywhere in it: locking clauses, functions whose answer lives on the primary,
 * {@code INTO}, {@code @x :=}. A multi-statement takes the most demanding class of its parts
 * ({@link StatementClass} order). It never throws: what it does not recognise is
 * {@link StatementClass#OTHER}. The rules and the choices behind them are in docs/routing.md.
 */
public final class StatementClassifier {

    public Classification classify(CharSequence sql) {
        requireNonNull(sql, "sql is null");
        SqlLexer lexer = new SqlLexer(sql);
        StatementFacts facts = new StatementFacts(lexer);
        StatementClass combined = null;
        TransactionKind kind = TransactionKind.NONE;
        TemporaryTable temporary = TemporaryTable.NONE;
        int statements = 0;
        SessionEffects effects = SessionEffects.NONE;
        for (TokenType type = lexer.next(); type != TokenType.END; type = lexer.next()) {
            if (type == TokenType.SEMICOLON) {
                continue;
            }
            facts.read();
            statements++;
            Part part = classify(facts);
            effects = effects.and(effects(facts));
            if (combined == null || part.statementClass.compareTo(combined) > 0) {
                combined = part.statementClass;
                kind = part.kind;
            }
            if (part.temporary == TemporaryTable.CREATE || (part.temporary == TemporaryTable.DROP && temporary == TemporaryTable.NONE)) {
                temporary = part.temporary;
            }
            if (lexer.type() == TokenType.END) {
                break;
            }
        }
        if (combined == null) {
            return new Classification(StatementClass.OTHER, TransactionKind.NONE, TemporaryTable.NONE, false, lexer.hints(),
                    SessionEffects.NONE);
        }
        return new Classification(combined, kind, temporary, statements > 1, lexer.hints(), effects);
    }

    private static SessionEffects effects(StatementFacts facts) {
        String first = facts.upperCaseWord(0);
        boolean assigns = first.equals("SET") || first.equals("LOAD") || facts.into || facts.userVariableAssignment;
        boolean locksTables = first.equals("LOCK");
        boolean unlocksTables = first.equals("UNLOCK");
        boolean sqlPrepared = first.equals("PREPARE") || first.equals("EXECUTE") || first.equals("DEALLOCATE")
                || (first.equals("DROP") && facts.isWord(1, "PREPARE"));
        boolean diagnostics = facts.readsDiagnostics
                || (first.equals("SHOW") && (facts.isWord(1, "WARNINGS") || facts.isWord(1, "ERRORS") || facts.isWord(1, "COUNT")))
                || (first.equals("GET") && (facts.isWord(1, "DIAGNOSTICS") || facts.isWord(2, "DIAGNOSTICS")));
        if (!(assigns && !facts.userVariables.isEmpty()) && !facts.namedLock && !facts.namedLocksReleased
                && !locksTables && !unlocksTables && !sqlPrepared && !facts.calcFoundRows && !facts.readsLastInsertId && !diagnostics) {
            return SessionEffects.NONE;
        }
        return new SessionEffects(assigns ? facts.userVariables : java.util.List.of(), facts.namedLock, facts.namedLocksReleased,
                locksTables, unlocksTables, sqlPrepared, facts.calcFoundRows, facts.readsLastInsertId, diagnostics);
    }

    private record Part(StatementClass statementClass, TransactionKind kind, TemporaryTable temporary) {
    }

    private static final Part READ = part(StatementClass.READ);
    private static final Part LOCKING_READ = part(StatementClass.LOCKING_READ);
    private static final Part READ_NEEDS_PRIMARY = part(StatementClass.READ_NEEDS_PRIMARY);
    private static final Part WRITE = part(StatementClass.WRITE);
    private static final Part SHOW = part(StatementClass.SHOW);
    private static final Part SESSION = part(StatementClass.SESSION);
    private static final Part OTHER = part(StatementClass.OTHER);

    private static Part part(StatementClass statementClass) {
        return new Part(statementClass, TransactionKind.NONE, TemporaryTable.NONE);
    }

    private static Part transaction(TransactionKind kind) {
        return new Part(StatementClass.TRANSACTION, kind, TemporaryTable.NONE);
    }

    private static Part classify(StatementFacts facts) {
        return switch (facts.upperCaseWord(0)) {
            case "SELECT", "TABLE", "VALUES" -> read(facts);
            case "WITH" -> with(facts);
            case "INSERT", "UPDATE", "DELETE", "REPLACE", "LOAD", "ALTER", "TRUNCATE", "RENAME",
                    "LOCK", "UNLOCK", "GRANT", "REVOKE", "CALL", "HANDLER",
                    "OPTIMIZE", "ANALYZE", "REPAIR", "CHECK", "CHECKSUM",
                    "FLUSH", "KILL", "RESET", "PURGE", "INSTALL", "UNINSTALL", "IMPORT", "CHANGE", "STOP",
                    "SHUTDOWN", "RESTART", "CLONE", "CACHE", "BINLOG",
                    "PREPARE", "EXECUTE", "DEALLOCATE" -> WRITE;
            case "CREATE" -> facts.isWord(1, "TEMPORARY") || (facts.isWord(1, "OR") && facts.isWord(3, "TEMPORARY"))
                    ? new Part(StatementClass.WRITE, TransactionKind.NONE, TemporaryTable.CREATE) : WRITE;
            case "DROP" -> facts.isWord(1, "TEMPORARY")
                    ? new Part(StatementClass.WRITE, TransactionKind.NONE, TemporaryTable.DROP) : WRITE;
            case "DO" -> facts.primaryFunction ? READ_NEEDS_PRIMARY : WRITE;
            case "SHOW", "DESCRIBE", "DESC", "EXPLAIN", "HELP" -> SHOW;
            case "USE" -> SESSION;
            case "SET" -> set(facts);
            case "BEGIN" -> facts.kept == 1 || (facts.kept == 2 && facts.isWord(1, "WORK"))
                    ? transaction(TransactionKind.BEGIN) : OTHER;
            case "START" -> facts.isWord(1, "TRANSACTION")
                    ? transaction(facts.readOnlyPhrase ? TransactionKind.BEGIN_READ_ONLY : TransactionKind.BEGIN)
                    : WRITE; // START REPLICA, START GROUP_REPLICATION
            case "COMMIT" -> transaction(TransactionKind.COMMIT);
            case "ROLLBACK" -> facts.isWord(1, "TO") || (facts.isWord(1, "WORK") && facts.isWord(2, "TO"))
                    ? transaction(TransactionKind.ROLLBACK_TO_SAVEPOINT) : transaction(TransactionKind.ROLLBACK);
            case "SAVEPOINT" -> transaction(TransactionKind.SAVEPOINT);
            case "RELEASE" -> facts.isWord(1, "SAVEPOINT") ? transaction(TransactionKind.RELEASE_SAVEPOINT) : OTHER;
            case "XA" -> transaction(TransactionKind.XA);
            default -> OTHER;
        };
    }

    private static Part read(StatementFacts facts) {
        if (facts.lockingClause) {
            return LOCKING_READ;
        }
        if (facts.primaryFunction || facts.into || facts.userVariableAssignment) {
            return READ_NEEDS_PRIMARY;
        }
        return READ;
    }

    private static Part with(StatementFacts facts) {
        if (!facts.hasWithMain()) {
            return OTHER;
        }
        if (facts.withMainIs("SELECT") || facts.withMainIs("TABLE") || facts.withMainIs("VALUES")) {
            return read(facts);
        }
        return WRITE;
    }

    private static Part set(StatementFacts facts) {
        if (facts.globalScope || facts.isWord(1, "PASSWORD") || (facts.isWord(1, "DEFAULT") && facts.isWord(2, "ROLE"))) {
            return WRITE; // changes the server or the grant tables, not the session
        }
        if (facts.primaryFunction) {
            return READ_NEEDS_PRIMARY; // SET @lock = GET_LOCK('x', 1)
        }
        if (facts.autocommit != StatementFacts.Switch.UNSET) {
            return transaction(facts.autocommit == StatementFacts.Switch.ON
                    ? TransactionKind.AUTOCOMMIT_ON : TransactionKind.AUTOCOMMIT_OFF);
        }
        boolean sessionScope = facts.isWord(1, "SESSION") || facts.isWord(1, "LOCAL");
        if (facts.isWord(1, "TRANSACTION") || (sessionScope && facts.isWord(2, "TRANSACTION"))) {
            if (facts.readOnlyPhrase) {
                return transaction(sessionScope ? TransactionKind.SET_SESSION_TRANSACTION_READ_ONLY : TransactionKind.SET_TRANSACTION_READ_ONLY);
            }
            if (facts.readWritePhrase) {
                return transaction(sessionScope ? TransactionKind.SET_SESSION_TRANSACTION_READ_WRITE : TransactionKind.SET_TRANSACTION_READ_WRITE);
            }
            return transaction(TransactionKind.SET_TRANSACTION_ISOLATION);
        }
        if (facts.transactionReadOnly != StatementFacts.Switch.UNSET) {
            return transaction(facts.transactionReadOnly == StatementFacts.Switch.ON
                    ? TransactionKind.SET_SESSION_TRANSACTION_READ_ONLY : TransactionKind.SET_SESSION_TRANSACTION_READ_WRITE);
        }
        return SESSION;
    }
}
