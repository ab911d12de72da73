package io.shardgate.proxy.backend;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The statements prepared on one backend connection, by schema and SQL, least recently used
 * first. Sessions that share the connection share its statements. Beyond {@code capacity} the
 * least recently used are evicted and must be closed on the server by the caller.
 */
public final class BackendStatementCache {
    private final LinkedHashMap<String, BackendStatement> statements = new LinkedHashMap<>(16, 0.75f, true);
    private final int capacity;

    public BackendStatementCache(int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("capacity: " + capacity + " (expected: >= 1)");
        }
        this.capacity = capacity;
    }

    public BackendStatement get(String key) {
        return statements.get(key);
    }

    /** Caches a statement; returns the ones evicted to make room (to close on the server). */
    public List<BackendStatement> put(String key, BackendStatement statement) {
        BackendStatement replaced = statements.put(key, statement);
        List<BackendStatement> evicted = new ArrayList<>(1);
        if (replaced != null && replaced != statement) {
            evicted.add(replaced);
        }
        Iterator<Map.Entry<String, BackendStatement>> oldest = statements.entrySet().iterator();
        while (statements.size() > capacity && oldest.hasNext()) {
            evicted.add(oldest.next().getValue());
            oldest.remove();
        }
        return evicted;
    }

    public int size() {
        return statements.size();
    }

    /** Forgets every statement (the server dropped them, for example on COM_RESET_CONNECTION). */
    public void clear() {
        statements.clear();
    }
}
