package io.shardgate.proxy.frontend;

import io.netty.buffer.ByteBufAllocator;
import io.shardgate.proxy.backend.BackendConnection;
import io.shardgate.proxy.backend.BackendStatement;
import io.shardgate.proxy.execution.Forwarder;
import io.shardgate.proxy.execution.PreparedStatements;
import io.shardgate.proxy.protocol.Capabilities;
import io.shardgate.proxy.protocol.Command;
import io.shardgate.proxy.protocol.MySqlPacket;
import io.shardgate.proxy.protocol.OkPacket;
import io.shardgate.proxy.protocol.ServerStatus;
import io.shardgate.proxy.protocol.SessionStateInfo;
import io.shardgate.proxy.protocol.StatementPackets;
import io.shardgate.proxy.session.ClientStatement;

import java.util.ArrayList;
import java.util.List;

/**
 * What one forwarded command's response means for its session: on the way (the backend's loop) the
 * OK's session changes and insert id, the statement id of a COM_STMT_PREPARE, and an OK's session
 * state stripped for a client that did not ask for it; at its end (the client's loop) the session
 * follows it ({@link SessionChanges}) and the prepared-statement, cursor and long-data bookkeeping.
 */
final class ForwardedResponse implements Forwarder.Response {
    private final FrontendContext context;
    private final ClientSession session;
    private final ShardedCommands sharded;
    private final BackendConnection backend;
    private final Pending pending;
    private final ByteBufAllocator alloc;
    private final java.util.function.Consumer<BackendConnection> localInfile;
    private final long sentAtNanos = System.nanoTime();
    private final boolean clientTracksSession;
    private List<SessionStateInfo> changes;
    private long insertId;
    private long affectedRows;
    private int preparedBackendId = -1;
    private int preparedParameters;

    ForwardedResponse(FrontendContext context, ClientSession session, ShardedCommands sharded, BackendConnection backend,
                      Pending pending, ByteBufAllocator alloc, java.util.function.Consumer<BackendConnection> localInfile) {
        this.context = context;
        this.session = session;
        this.sharded = sharded;
        this.backend = backend;
        this.pending = pending;
        this.alloc = alloc;
        this.localInfile = localInfile;
        this.clientTracksSession = Capabilities.has(session.capabilities(), Capabilities.CLIENT_SESSION_TRACK);
    }

    @Override
    public MySqlPacket relaying(BackendConnection connection, MySqlPacket packet) {
        if (backend.localInfileRequested()) {
            // The server asks for a local file (possible only when allow_local_infile is on).
            localInfile.accept(backend);
        }
        if (backend.lastPacketWasOk()) {
            return noteOk(packet);
        }
        if (pending.command() == Command.STMT_PREPARE && preparedBackendId < 0 && packet.header() == 0x00) {
            preparedBackendId = StatementPackets.statementId(packet.payload());
            preparedParameters = StatementPackets.prepareOkParameters(packet.payload());
            StatementPackets.statementId(packet.payload(), pending.preparedId());
        }
        return packet;
    }

    /** Reads an OK's session changes and insert id; strips the state for a client that did not ask for it. */
    private MySqlPacket noteOk(MySqlPacket packet) {
        // The tracker has read the OK's head already; the session state is parsed only when there is some.
        if ((backend.okStatus() & ServerStatus.SESSION_STATE_CHANGED) != 0) {
            SessionStateInfo info = SessionStateInfo.ofOk(packet.payload());
            if (info != SessionStateInfo.NONE) {
                if (changes == null) {
                    changes = new ArrayList<>(2);
                }
                changes.add(info);
            }
        }
        affectedRows += backend.okAffectedRows();
        long id = backend.okInsertId();
        if (id != 0) {
            insertId = id;
        }
        if (sharded != null && sharded.sharded().inTransaction()) {
            // The first shard ran this outside the session's sharded transaction; the client must still see it open.
            OkPacket.addStatus(packet.payload(), ServerStatus.IN_TRANS);
        }
        if (clientTracksSession || !backend.okHasTrailer()) {
            return packet;
        }
        MySqlPacket stripped = new MySqlPacket(packet.sequenceId(), SessionStateInfo.withoutSessionState(packet.payload(), alloc));
        packet.release();
        return stripped;
    }

    /** The session follows the command; the caller then flushes (when there was a response) and runs the next command. */
    @Override
    public void completed(int status, boolean error, int warnings) {
        String gtidBefore = session.lastGtid();
        SessionChanges.apply(session, backend, pending.classification(), changes, insertId, pending.temporaryTables(), error,
                warnings);
        if (!session.lastGtid().equals(gtidBefore)) {
            context.backends().observeCommit(session.causalPosition(), sentAtNanos);
        }
        if (!pending.command().hasNoResponse()) {
            session.status(sharded == null ? status : sharded.sharded().status(ShardedCommands.autocommit(session)));
            session.backendNoBackslashEscapes((status & ServerStatus.NO_BACKSLASH_ESCAPES) != 0);
        }
        statementBookkeeping(status, error);
        session.digests().finish(error, backend.responseRows(), affectedRows, 1);
    }

    private void statementBookkeeping(int status, boolean error) {
        ClientStatement statement = pending.statement();
        switch (pending.command()) {
            case STMT_PREPARE -> {
                if (error || preparedBackendId < 0) {
                    session.statements().prepareFailed();
                    return;
                }
                ClientStatement added = session.statements().add(pending.preparedId(), pending.preparedSql(),
                        session.schema(), preparedParameters, pending.classification());
                if (backend.statements().get(added.cacheKey()) == null) {
                    PreparedStatements.cache(backend, added.cacheKey(), new BackendStatement(preparedBackendId, preparedParameters));
                } else {
                    backend.closeStatement(preparedBackendId); // the connection has it already
                }
            }
            case STMT_EXECUTE -> {
                session.longData().remove(statement.id());
                if (!error && (status & ServerStatus.CURSOR_EXISTS) != 0) {
                    session.cursors().add(statement.id());
                } else {
                    session.cursors().remove(statement.id());
                }
            }
            case STMT_FETCH -> {
                if (error || (status & ServerStatus.LAST_ROW_SENT) != 0) {
                    session.cursors().remove(statement.id());
                }
            }
            case STMT_RESET -> {
                session.cursors().remove(statement.id());
                session.longData().remove(statement.id());
            }
            default -> {
            }
        }
    }
}
