package io.shardgate.proxy.frontend;

import io.shardgate.proxy.protocol.ErrPacket;
import io.shardgate.errors.ErrorCode;
import io.shardgate.proxy.protocol.LocalResultSet;
import io.shardgate.proxy.digest.DigestReport;
import io.shardgate.proxy.routing.BackendRow;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * Answers to the statements Shardgate handles itself instead of sending them to a backend:
 * {@code KILL [QUERY|CONNECTION] id} (ids are Shardgate's) and the {@link ShardgateStatement}s
 * (its session variables, SHOW SHARDGATE BACKENDS and SHOW SHARDGATE QUERIES).
 */
final class OwnStatements {
    private final CommandScope scope;

    OwnStatements(CommandScope scope) {
        this.scope = scope;
    }

    /** Answers {@code sql} if it is one of Shardgate's own statements; false when it is not. */
    boolean answer(String sql) {
        Optional<KillStatement> kill = KillStatement.parse(sql);
        if (kill.isPresent()) {
            kill(kill.get().connectionId(), kill.get().queryOnly());
            return true;
        }
        Optional<ShardgateStatement> own = ShardgateStatement.parse(sql);
        if (own.isPresent()) {
            answer(own.get());
            return true;
        }
        return false;
    }

    /** KILL [QUERY] (or COM_PROCESS_KILL) of a Shardgate connection id: OK once done, or the ERR it failed with. */
    void kill(long connectionId, boolean queryOnly) {
        scope.busy();
        scope.router().kill(scope.session(), connectionId, queryOnly).whenComplete((ok, error) -> scope.ctx().executor().execute(() -> {
            if (error != null) {
                scope.writeError(1, scope.context().errors().translate(error).packet());
            } else {
                scope.writeOk(1);
            }
            scope.commandDone();
        }));
    }

    private void answer(ShardgateStatement statement) {
        ClientSession session = scope.session();
        FrontendContext context = scope.context();
        if (statement instanceof ShardgateStatement.SetAllowBlockingDdl set) {
            session.allowBlockingDdl(set.allowed());
            scope.writeOk(1);
        } else if (statement instanceof ShardgateStatement.SetMaxLag set) {
            session.maxLagMs(set.millis());
            scope.writeOk(1);
        } else if (statement instanceof ShardgateStatement.GetMaxLag) {
            scope.writeResult(new LocalResultSet(List.of("@@shardgate_max_lag_ms"),
                    List.of(List.of(Long.toString(session.maxLagMs().orElse(context.config().routing().maxReplicaLagMs()))))));
        } else if (statement instanceof ShardgateStatement.GetCausalToken) {
            scope.writeResult(new LocalResultSet(List.of("@@shardgate_causal_token"),
                    List.of(List.of(CausalTokens.current(context, session)))));
        } else if (statement instanceof ShardgateStatement.ShowQueries) {
            scope.writeResult(new LocalResultSet(DigestReport.COLUMNS, new DigestReport(context.digests()).rows()));
        } else if (statement instanceof ShardgateStatement.SetCausalToken set) {
            try {
                CausalTokens.present(context, session, set.token());
                scope.writeOk(1);
            } catch (IllegalArgumentException e) {
                scope.writeError(1, ErrPacket.of(ErrorCode.WRONG_VALUE_FOR_VARIABLE, "shardgate_causal_token", set.token()));
            }
        } else {
            List<List<String>> rows = new ArrayList<>();
            for (BackendRow row : context.report().rows()) {
                rows.add(Arrays.asList(row.shard(), row.role(), row.address(), row.state(),
                        row.lagMs() == null ? null : Long.toString(row.lagMs()), Integer.toString(row.inFlight()),
                        Long.toString(row.served()), row.position(), row.lastError()));
            }
            scope.writeResult(new LocalResultSet(List.of("shard", "role", "address", "state", "lag_ms", "in_flight", "served",
                    "gtid_position", "last_error"), rows));
        }
    }
}
