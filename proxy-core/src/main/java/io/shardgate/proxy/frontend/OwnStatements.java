package io.shardgate.proxy.frontend;

import io.shardgate.proxy.protocol.ErrPacket;
import io.shardgate.errors.ErrorCode;
import io.shardgate.proxy.protocol.LocalResultSet;

import java.util.List;
import java.util.Optional;

/**
 * Answers to the statements Shardgate handles itself instead of sending them to a backend:
 * {@code KILL [QUERY|CONNECTION] id} (ids are Shardgate's) and the {@link ShardgateStatement}s
 * (its session variables, the SHOW SHARDGATE statements of {@link ShowShardgate}, EXPLAIN SHARDGATE outside a
 * sharded deployment).
 */
final class OwnStatements {
    private static final int NEAR_CHARS = 80;
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
        if (own.isEmpty() || own.get() instanceof ShardgateStatement.Explain && scope.sharded() != null) {
            // EXPLAIN SHARDGATE in a sharded deployment: the planner answers it, as a statement it plans.
            return false;
        }
        answer(own.get());
        return true;
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
                    List.of(List.of(Long.toString(session.maxLagMs().orElse(context.topology().routingConfig().maxReplicaLagMs()))))));
        } else if (statement instanceof ShardgateStatement.GetCausalToken) {
            scope.writeResult(new LocalResultSet(List.of("@@shardgate_causal_token"),
                    List.of(List.of(CausalTokens.current(context, session)))));
        } else if (statement instanceof ShardgateStatement.Show show) {
            scope.writeResult(show.what().answer(context, session));
        } else if (statement instanceof ShardgateStatement.NotUnderstood wrong) {
            scope.writeError(1, ErrPacket.of(ErrorCode.SHARDGATE_SYNTAX, near(wrong.near()), ShowShardgate.known()));
        } else if (statement instanceof ShardgateStatement.Explain) {
            scope.writeError(1, ErrPacket.of(ErrorCode.UNSUPPORTED, "EXPLAIN SHARDGATE without a schemas section in the"
                    + " configuration: every statement goes to the one shard as it is"));
        } else if (statement instanceof ShardgateStatement.SetCausalToken set) {
            try {
                CausalTokens.present(context, session, set.token());
                scope.writeOk(1);
            } catch (IllegalArgumentException e) {
                scope.writeError(1, ErrPacket.of(ErrorCode.WRONG_VALUE_FOR_VARIABLE, "shardgate_causal_token", set.token()));
            }
        }
    }

    /** As much of the text as a syntax error quotes: MariaDB quotes up to 80 characters "near" it. */
    static String near(String text) {
        return text.length() <= NEAR_CHARS ? text
                : text.substring(0, Character.isHighSurrogate(text.charAt(NEAR_CHARS - 1)) ? NEAR_CHARS - 1 : NEAR_CHARS);
    }
}
