package io.shardgate.proxy.frontend;

import io.shardgate.proxy.backend.BackendConnection;
import io.shardgate.proxy.protocol.SessionStateInfo;
import io.shardgate.proxy.session.SessionPin;
import io.shardgate.proxy.session.SessionSettings;
import io.shardgate.proxy.session.SessionVariables;
import io.shardgate.proxy.session.SettingsSync;
import io.shardgate.router.classify.Classification;
import io.shardgate.router.classify.SessionEffects;
import io.shardgate.router.classify.TemporaryTable;

import java.util.List;

/**
 * Applies what a completed command did to its session: the system variables and schema the server
 * reported through session tracking, the insert id, and the effects the statement's text reveals
 * (user variables to read, locks, temporary tables, SQL prepared statements, SQL_CALC_FOUND_ROWS), which decide whether the session must keep its connection.
 *
 * <p>A state change the server flags but neither tracking nor the text explains (a procedure
 * setting a user variable, say) pins the session to its connection for good: Shardgate cannot
 * carry what it cannot name.
 */
final class SessionChanges {
    private SessionChanges() {
    }

    static void apply(ClientSession session, BackendConnection backend, Classification classification,
                      List<SessionStateInfo> changes, long insertId, TemporaryTableNames.Change temporary, boolean failed,
                      int warnings) {
        boolean reported = false;
        boolean flagged = false;
        if (changes != null) {
            SessionVariables system = session.settings().system();
            for (SessionStateInfo info : changes) {
                for (SessionStateInfo.Variable variable : info.variables()) {
                    reported = true;
                    switch (variable.name()) {
                        case "last_gtid" -> session.lastGtid(variable.value());
                        case "last_insert_id" -> session.lastInsertId(parseUnsigned(variable.value()));
                        default -> {
                            if (TrackingChange.isTrackingVariable(variable.name()) && session.trackingChange() == null) {
                                // Not from a statement Shardgate read (a procedure, a prepared SET): restore, and keep the connection.
                                session.trackingChange(TrackingChange.UNKNOWN);
                            }
                            if (SettingsSync.replayed(variable.name())) {
                                system = system.with(variable.name(), variable.value());
                            }
                        }
                    }
                }
                if (info.schema() != null) {
                    reported = true;
                    session.schema(info.schema());
                    backend.schema(info.schema());
                }
                flagged |= info.stateChanged();
            }
            session.settings(session.settings().withSystem(system));
        }
        if (insertId != 0) {
            session.lastInsertId(insertId);
        }
        boolean pinnedForFoundRows = session.pins().remove(SessionPin.NEXT_STATEMENT);
        if (failed || warnings > 0) {
            // SHOW WARNINGS / SHOW ERRORS / GET DIAGNOSTICS must reach the connection that has them.
            session.pins().add(SessionPin.NEXT_STATEMENT);
        }
        if (classification == null) {
            if (flagged && !reported && session.trackingChange() == null) {
                session.pins().add(SessionPin.UNTRACKED_STATE);
            }
            if (pinnedForFoundRows) {
                session.pins().add(SessionPin.NEXT_STATEMENT); // COM_INIT_DB and the like do not count as the next statement
            }
            return;
        }
        SessionEffects effects = classification.effects();
        session.unreadUserVariables().addAll(effects.userVariables());
        if (effects.takesNamedLock()) {
            session.pins().add(SessionPin.NAMED_LOCKS);
        }
        if (effects.releasesNamedLocks()) {
            session.pins().remove(SessionPin.NAMED_LOCKS);
        }
        if (effects.locksTables()) {
            session.pins().add(SessionPin.TABLE_LOCKS);
        }
        if (effects.unlocksTables()) {
            session.pins().remove(SessionPin.TABLE_LOCKS);
        }
        if (effects.sqlPreparedStatement()) {
            session.pins().add(SessionPin.SQL_PREPARED_STATEMENTS);
        }
        if (effects.calcFoundRows()) {
            session.pins().add(SessionPin.NEXT_STATEMENT);
        }
        if (temporary != null && !failed) {
            if (temporary.created() != null) {
                session.temporaryTables().add(temporary.created());
            }
            temporary.dropped().forEach(session.temporaryTables()::remove);
        } else if (temporary == null && classification.temporaryTable() == TemporaryTable.CREATE) {
            session.temporaryTables().add("\u0000unnamed"); // a name we could not read: kept for good
        }
        if (session.temporaryTables().isEmpty()) {
            session.pins().remove(SessionPin.TEMPORARY_TABLES);
        } else {
            session.pins().add(SessionPin.TEMPORARY_TABLES);
        }
        // A SET of the tracking itself flags a state change; what it changed besides is read back (CommandRouter).
        boolean trackingSet = session.trackingChange() != null && session.trackingChange().onlySet();
        boolean explained = reported || trackingSet || !effects.userVariables().isEmpty() || effects.sqlPreparedStatement()
                || classification.temporaryTable() != TemporaryTable.NONE;
        if (flagged && !explained) {
            session.pins().add(SessionPin.UNTRACKED_STATE);
        }
    }

    private static long parseUnsigned(String value) {
        try {
            return Long.parseUnsignedLong(value);
        } catch (NumberFormatException e) {
            return 0;
        }
    }
}
