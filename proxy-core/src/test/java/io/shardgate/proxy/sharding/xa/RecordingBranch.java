package io.shardgate.proxy.sharding.xa;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * A branch that answers at once and writes {@code shard: VERB} (the statement without its xid)
 * to a shared event list; a verb can be made to fail, or to wait until the test completes it.
 */
final class RecordingBranch implements XaBranch {
    private final String shard;
    private final List<String> events;
    private final Map<String, RuntimeException> failures = new HashMap<>();
    private final Map<String, CompletableFuture<Void>> held = new HashMap<>();
    private String lastSql;

    RecordingBranch(String shard, List<String> events) {
        this.shard = shard;
        this.events = events;
    }

    RecordingBranch failing(String verb, RuntimeException error) {
        failures.put(verb, error);
        return this;
    }

    /** {@code verb} is answered only when the returned future is completed. */
    CompletableFuture<Void> hold(String verb) {
        CompletableFuture<Void> answer = new CompletableFuture<>();
        held.put(verb, answer);
        return answer;
    }

    String lastSql() {
        return lastSql;
    }

    @Override
    public String shard() {
        return shard;
    }

    @Override
    public CompletableFuture<Void> run(String sql) {
        lastSql = sql;
        String verb = sql.replaceAll(" X'[0-9a-f]*',X'[0-9a-f]*',\\d+", "");
        events.add(shard + ": " + verb);
        if (failures.containsKey(verb)) {
            return CompletableFuture.failedFuture(failures.get(verb));
        }
        return held.getOrDefault(verb, CompletableFuture.completedFuture(null));
    }
}
