package io.shardgate.proxy.sharding;

import io.netty.channel.EventLoop;
import io.shardgate.proxy.protocol.ClientCharset;
import io.shardgate.proxy.session.SessionSettings;

import java.util.List;

import static java.util.Objects.requireNonNull;

/**
 * One statement of a client session, with what its execution needs to know of the session.
 *
 * @param sql               the statement as the client sent it
 * @param schema            the session's current schema (empty: none)
 * @param settings          the session's variables, which every shard connection is brought to first
 * @param lastInsertId      the session's LAST_INSERT_ID()
 * @param needsLastInsertId the statement reads LAST_INSERT_ID(): shard connections get the session's first
 * @param parameters        bound values of a prepared statement (empty for a text query)
 * @param binary            answer in the binary protocol (COM_STMT_EXECUTE)
 * @param write             the statement writes (DML, DDL): it needs primaries, and it marks a transaction's shards as written
 * @param ddl               the statement is DDL: it commits an open transaction first, as MySQL does
 * @param replicaAllowed    the read/write decision allows a replica for this statement
 * @param maxLagMs          the read's freshness budget
 * @param autocommit        the session's autocommit
 * @param loop              the client's event loop (backend connections prefer it)
 * @param clientCapabilities the client's capability flags (response shaping)
 * @param shardStatements   DDL only: each shard's own statement, rewritten for its engine (empty: the plan's)
 * @param charset           the client's character set ({@code character_set_client}), which {@code sql} was read
 *                          in and shard statements are written back in, byte for byte
 */
public record StatementRequest(String sql, String schema, SessionSettings settings, long lastInsertId, boolean needsLastInsertId,
                               List<Object> parameters, boolean binary, boolean write, boolean ddl, boolean replicaAllowed,
                               long maxLagMs, boolean autocommit, EventLoop loop, long clientCapabilities,
                               java.util.Map<String, String> shardStatements, ClientCharset charset) {
    public StatementRequest {
        requireNonNull(sql, "sql is null");
        schema = schema == null ? "" : schema;
        requireNonNull(settings, "settings is null");
        parameters = java.util.Collections.unmodifiableList(new java.util.ArrayList<>(requireNonNull(parameters, "parameters is null")));
        requireNonNull(loop, "loop is null");
        shardStatements = java.util.Map.copyOf(shardStatements);
        requireNonNull(charset, "charset is null");
    }
}
