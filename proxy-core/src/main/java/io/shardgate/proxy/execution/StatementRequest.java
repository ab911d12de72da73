package io.shardgate.proxy.execution;

import io.netty.channel.EventLoop;
import io.shardgate.proxy.protocol.ClientCharset;
import io.shardgate.proxy.session.SessionSettings;
import io.shardgate.router.value.SqlValue;

import java.util.Collections;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static java.util.Objects.requireNonNull;

/**
 * One statement of a client session, with what its execution needs to know of the session.
 *
 * @param sql             the statement as the client sent it
 * @param parameters      bound values of a prepared statement (empty for a text query)
 * @param options         what the statement is and how it is answered
 * @param session         the session as the statement's execution sees it
 * @param maxLagMs        the read's freshness budget
 * @param shardStatements DDL only: each shard's own statement, rewritten for its engine (empty: the plan's)
 */
public record StatementRequest(String sql, List<SqlValue> parameters, Set<Option> options, Session session, long maxLagMs,
                               Map<String, String> shardStatements) {
    /** What a statement is, and how it is answered. */
    public enum Option {
        /** It reads LAST_INSERT_ID(): shard connections get the session's first. */
        NEEDS_LAST_INSERT_ID,
        /** Answer in the binary protocol (COM_STMT_EXECUTE). */
        BINARY,
        /** It writes (DML, DDL): it needs primaries, and it marks a transaction's shards as written. */
        WRITE,
        /** It is DDL: it commits an open transaction first, as MySQL does. */
        DDL,
        /** The read/write decision allows a replica for it. */
        REPLICA_ALLOWED,
        /** The session's autocommit is on. */
        AUTOCOMMIT
    }

    /**
     * The session, as a statement's execution sees it.
     *
     * @param schema             the current schema (empty: none)
     * @param settings           the session's variables, which every shard connection is brought to first
     * @param lastInsertId       the session's LAST_INSERT_ID()
     * @param loop               the client's event loop (backend connections prefer it)
     * @param clientCapabilities the client's capability flags (response shaping)
     * @param charset            the client's character set ({@code character_set_client}), which the statement
     *                           was read in and shard statements are written back in, byte for byte
     */
    public record Session(String schema, SessionSettings settings, long lastInsertId, EventLoop loop, long clientCapabilities,
                          ClientCharset charset) {
        public Session {
            schema = schema == null ? "" : schema;
            requireNonNull(settings, "settings is null");
            requireNonNull(loop, "loop is null");
            requireNonNull(charset, "charset is null");
        }
    }

    public StatementRequest {
        requireNonNull(sql, "sql is null");
        parameters = List.copyOf(requireNonNull(parameters, "parameters is null"));
        options = options.isEmpty() ? Collections.emptySet() : Collections.unmodifiableSet(EnumSet.copyOf(options));
        requireNonNull(session, "session is null");
        shardStatements = Map.copyOf(shardStatements);
    }

    public String schema() {
        return session.schema();
    }

    public SessionSettings settings() {
        return session.settings();
    }

    public long lastInsertId() {
        return session.lastInsertId();
    }

    public EventLoop loop() {
        return session.loop();
    }

    public long clientCapabilities() {
        return session.clientCapabilities();
    }

    public ClientCharset charset() {
        return session.charset();
    }

    public boolean needsLastInsertId() {
        return options.contains(Option.NEEDS_LAST_INSERT_ID);
    }

    public boolean binary() {
        return options.contains(Option.BINARY);
    }

    public boolean write() {
        return options.contains(Option.WRITE);
    }

    public boolean ddl() {
        return options.contains(Option.DDL);
    }

    public boolean replicaAllowed() {
        return options.contains(Option.REPLICA_ALLOWED);
    }

    public boolean autocommit() {
        return options.contains(Option.AUTOCOMMIT);
    }
}
