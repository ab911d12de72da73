package io.shardgate.proxy.session;

import io.shardgate.router.classify.Classification;

import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * One session's prepared statements under the ids Shardgate hands out. The id 0xFFFFFFFF means
 * "the statement prepared last" (MariaDB's extension for pipelined prepare and execute); it is
 * cleared when a prepare fails, so a pipelined execute after a failed prepare fails too.
 */
public final class ClientStatements {
    public static final int LAST_PREPARED = -1;

    private final Map<Integer, ClientStatement> byId = new HashMap<>();
    private final int limit;
    private int nextId = 1;
    private ClientStatement last;

    public ClientStatements(int limit) {
        this.limit = limit;
    }

    public boolean isFull() {
        return byId.size() >= limit;
    }

    public int limit() {
        return limit;
    }

    /** The id the next prepared statement gets; ids are never reused within a session. */
    public int reserveId() {
        int id = nextId++;
        if (nextId <= 0) {
            nextId = 1;
        }
        return id;
    }

    public ClientStatement add(int id, String sql, String schema, int parameters, Classification classification) {
        ClientStatement statement = new ClientStatement(id, sql, schema, parameters, classification);
        byId.put(id, statement);
        last = statement;
        return statement;
    }

    public void prepareFailed() {
        last = null;
    }

    public Optional<ClientStatement> find(int id) {
        return Optional.ofNullable(id == LAST_PREPARED ? last : byId.get(id));
    }

    public Optional<ClientStatement> remove(int id) {
        ClientStatement removed = byId.remove(id == LAST_PREPARED && last != null ? last.id() : id);
        if (removed != null && removed == last) {
            last = null;
        }
        return Optional.ofNullable(removed);
    }

    public void clear() {
        byId.clear();
        last = null;
    }

    public int size() {
        return byId.size();
    }
}
