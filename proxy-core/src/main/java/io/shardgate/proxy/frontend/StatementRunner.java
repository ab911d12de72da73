package io.shardgate.proxy.frontend;

import io.shardgate.proxy.protocol.Command;
import io.shardgate.proxy.protocol.MySqlPacket;
import io.shardgate.proxy.session.ClientStatement;
import io.shardgate.router.classify.Classification;

/**
 * The one seam through which command executors reach a backend: each call sends a command (the
 * packet is owned by the callee from then on) to the backend the session's routing picks, streams
 * the response to the client, does the session's bookkeeping and ends the command. Today
 * {@link FrontendHandler} implements it over its relay; the single execution primitive replaces
 * that behind this interface. Tests use a hand-written fake.
 */
interface StatementRunner {
    /** A command that is not a statement (COM_INIT_DB, COM_SET_OPTION, COM_FIELD_LIST, ...): to the primary. */
    void forward(MySqlPacket packet, Command command);

    /** A COM_QUERY, routed by its classification; {@code temporaryTables} may be null. */
    void query(MySqlPacket packet, Classification classification, boolean needsLastInsertId,
               TemporaryTableNames.Change temporaryTables, boolean readsDiagnostics);

    /** A COM_STMT_PREPARE whose statement gets Shardgate's id {@code id} (reserved) if the backend prepares it. */
    void prepare(MySqlPacket packet, Classification classification, int id, String sql);

    /** A COM_STMT_PREPARE that failed before any of its response: its reserved id is given back and the client has the ERR. */
    void prepareFailed(Classification classification, int id, String sql, Throwable error);

    /** A command on a prepared statement (execute, bulk execute, fetch, long data, reset), prepared on the backend first if need be. */
    void statement(MySqlPacket packet, Command command, ClientStatement statement, boolean needsLastInsertId);
}
