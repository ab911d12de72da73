package io.shardgate.proxy.frontend;

import io.shardgate.proxy.execution.Forwarder;
import io.shardgate.proxy.protocol.Command;
import io.shardgate.proxy.session.ClientStatement;
import io.shardgate.router.classify.Classification;

/**
 * What a forwarded command needs after its response: the statement's classification (COM_QUERY),
 * the prepared statement it runs (execute, fetch, long data, reset), or the id and SQL of a
 * statement being prepared.
 */
record Pending(Command command, Classification classification, ClientStatement statement,
               boolean needsLastInsertId, int preparedId, String preparedSql, boolean retried,
               TemporaryTableNames.Change temporaryTables, boolean readsDiagnostics) implements Forwarder.Request<Pending> {
    Pending(Command command, Classification classification, ClientStatement statement, boolean needsLastInsertId,
            int preparedId, String preparedSql) {
        this(command, classification, statement, needsLastInsertId, preparedId, preparedSql, false, null, false);
    }

    Pending withTemporaryTables(TemporaryTableNames.Change change) {
        return change == null ? this : new Pending(command, classification, statement, needsLastInsertId, preparedId,
                preparedSql, retried, change, readsDiagnostics);
    }

    Pending withDiagnostics(boolean diagnostics) {
        return !diagnostics ? this : new Pending(command, classification, statement, needsLastInsertId, preparedId,
                preparedSql, retried, temporaryTables, true);
    }

    static Pending of(Command command) {
        return new Pending(command, null, null, false, 0, null);
    }

    /** The same command sent again after its replica failed: this time to the primary. */
    @Override
    public Pending retry() {
        return new Pending(command, classification, statement, needsLastInsertId, preparedId, preparedSql, true,
                temporaryTables, readsDiagnostics);
    }

    /** The classification that routes a command: statements by their class; other commands, and retries, go to the primary. */
    Classification routedBy() {
        if (retried) {
            return null;
        }
        return switch (command) {
            case QUERY, STMT_EXECUTE, STMT_BULK_EXECUTE -> classification;
            default -> null;
        };
    }
}
