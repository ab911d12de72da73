package io.shardgate.proxy.execution;

import io.shardgate.proxy.backend.BackendConnection;
import io.shardgate.proxy.backend.BackendStatement;
import io.shardgate.proxy.protocol.ClientCharset;
import io.shardgate.proxy.protocol.Command;
import io.shardgate.proxy.session.ClientStatement;

import java.util.concurrent.CompletableFuture;

/** A client's prepared statement on the backend connection that runs it: cached per connection, prepared there on first use. */
public final class PreparedStatements {
    private PreparedStatements() {
    }

    /** The backend statement serving {@code statement} on {@code backend}: cached, or prepared now (in the client's character set). */
    public static CompletableFuture<BackendStatement> on(BackendConnection backend, ClientStatement statement, ClientCharset charset) {
        BackendStatement cached = backend.statements().get(statement.cacheKey());
        if (cached != null) {
            return CompletableFuture.completedFuture(cached);
        }
        String schema = backend.schema();
        boolean switchSchema = !statement.schema().isEmpty() && !statement.schema().equals(schema);
        CompletableFuture<Void> before = switchSchema ? backend.run(Command.INIT_DB, statement.schema())
                : CompletableFuture.completedFuture(null);
        // The client's statement in its character set (the connection's character_set_client follows the session's).
        return before.thenCompose(ok -> backend.prepare(charset.encode(statement.sql())))
                .thenCompose(prepared -> {
                    cache(backend, statement.cacheKey(), prepared);
                    if (!switchSchema || schema == null || schema.isEmpty()) {
                        if (switchSchema) {
                            backend.schema(statement.schema());
                        }
                        return CompletableFuture.completedFuture(prepared);
                    }
                    return backend.run(Command.INIT_DB, schema).thenApply(back -> prepared);
                });
    }

    /** Caches {@code statement} on {@code backend} under {@code key}; statements the cache evicts are closed there. */
    public static void cache(BackendConnection backend, String key, BackendStatement statement) {
        for (BackendStatement evicted : backend.statements().put(key, statement)) {
            backend.closeStatement(evicted.id());
        }
    }
}
