package io.shardgate.proxy.sharding;

import io.shardgate.errors.ErrorCode;

import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static java.util.Objects.requireNonNull;

/**
 * The writes a cutover holds on this proxy. While a shard is held, a write that would reach it (an autocommit
 * write, or a transaction's first write there) waits instead of running, until the hold is lifted (then it is
 * planned again, against the shard map in force by then) or its wait runs out (ERR {@code WRITES_HELD}). Writes
 * already under way on a held shard finish: a statement running now, and a transaction that wrote there before the
 * hold, until it ends. {@link #drained} tells the cutover when none is left, so that the source's position it records
 * next covers every write this proxy acknowledged there.
 *
 * <p>Every write counts itself on its shards before it looks at the holds, and a hold is published before its
 * drain counts, so either the write sees the hold and waits, or the drain sees the write and waits for it.
 */
public final class WriteHolds {
    /** One shard's hold: the job that asked for it, and the latest time a write waits for it (epoch millis). */
    public record Held(String job, long until) {
        public Held {
            requireNonNull(job, "job is null");
        }
    }

    private final Map<String, AtomicInteger> writing = new ConcurrentHashMap<>();
    private final Map<String, CompletableFuture<Void>> drains = new ConcurrentHashMap<>();
    private final AtomicInteger waiting = new AtomicInteger();
    private final int maxWaiting;
    private final java.util.function.LongSupplier clock;
    private volatile Map<String, Held> held = Map.of();
    /** Completed (and replaced) whenever a hold is lifted. */
    private volatile CompletableFuture<Void> lifted = new CompletableFuture<>();

    /** {@code maxWaiting}: how many statements may wait on this proxy at once; more get the error at once. */
    public WriteHolds(int maxWaiting, java.util.function.LongSupplier clock) {
        if (maxWaiting < 0) {
            throw new IllegalArgumentException("maxWaiting is negative");
        }
        this.maxWaiting = maxWaiting;
        this.clock = requireNonNull(clock, "clock is null");
    }

    /** Whether no shard is held: the cheap check of the query path. */
    public boolean idle() {
        return held.isEmpty();
    }

    /** The held shards and their holds. */
    public Map<String, Held> held() {
        return held;
    }

    /** A write is about to run on {@code shards}: counted until {@link #exit}. */
    public void enter(Collection<String> shards) {
        for (String shard : shards) {
            writing.computeIfAbsent(shard, name -> new AtomicInteger()).incrementAndGet();
        }
    }

    /** The write counted by {@link #enter} ended on {@code shards}. */
    public void exit(Collection<String> shards) {
        for (String shard : shards) {
            AtomicInteger count = writing.get(shard);
            if (count != null && count.decrementAndGet() == 0) {
                CompletableFuture<Void> drain = drains.get(shard);
                if (drain != null) {
                    drain.complete(null);
                }
            }
        }
    }

    /** The first of {@code shards} that is held, or null. */
    public String heldAmong(Collection<String> shards) {
        Map<String, Held> now = held;
        if (now.isEmpty()) {
            return null;
        }
        for (String shard : shards) {
            if (now.containsKey(shard)) {
                return shard;
            }
        }
        return null;
    }

    /**
     * Whether every held shard among {@code wanted} is held for a job that also holds one of {@code counted}, the
     * shards a transaction under way already counts on: the drain of that hold waits for the transaction to end, so the
     * transaction's writes to the hold's other shards must go on, or the hold would wait for it while it waits for the
     * hold (a reverse holds every target at once, and a transaction may span two of them).
     */
    public boolean sameHold(Collection<String> counted, Collection<String> wanted) {
        Map<String, Held> now = held;
        Set<String> jobs = new HashSet<>();
        for (String shard : counted) {
            Held hold = now.get(shard);
            if (hold != null) {
                jobs.add(hold.job());
            }
        }
        if (jobs.isEmpty()) {
            return false;
        }
        for (String shard : wanted) {
            Held hold = now.get(shard);
            if (hold != null && !jobs.contains(hold.job())) {
                return false;
            }
        }
        return true;
    }

    /**
     * Completes when none of {@code shards} is held any more; fails with {@code WRITES_HELD} when the hold outlasts
     * its bound, or at once when {@link #maxWaiting} statements wait already.
     */
    public CompletableFuture<Void> whenLifted(Collection<String> shards) {
        String shard = heldAmong(shards);
        if (shard == null) {
            return CompletableFuture.completedFuture(null);
        }
        Held hold = held.get(shard);
        if (hold == null) {
            return CompletableFuture.completedFuture(null);
        }
        if (waiting.incrementAndGet() > maxWaiting) {
            waiting.decrementAndGet();
            return CompletableFuture.failedFuture(ErrorCode.WRITES_HELD.exception(shard, hold.job(),
                    maxWaiting + " statements wait already"));
        }
        long remaining = Math.max(0, hold.until() - clock.getAsLong());
        CompletableFuture<Void> result = new CompletableFuture<>();
        waitFor(shards, result);
        return result.orTimeout(remaining, TimeUnit.MILLISECONDS).whenComplete((ok, error) -> waiting.decrementAndGet())
                .exceptionallyCompose(error -> {
                    Throwable cause = error instanceof java.util.concurrent.CompletionException && error.getCause() != null
                            ? error.getCause() : error;
                    if (cause instanceof java.util.concurrent.TimeoutException) {
                        return CompletableFuture.failedFuture(ErrorCode.WRITES_HELD.exception(shard, hold.job(),
                                "the hold lasted longer than the " + remaining + " ms left of its bound"));
                    }
                    return CompletableFuture.failedFuture(cause);
                });
    }

    private void waitFor(Collection<String> shards, CompletableFuture<Void> result) {
        CompletableFuture<Void> next = lifted; // read before the check, so a lift after it completes this one
        if (heldAmong(shards) == null) {
            result.complete(null);
            return;
        }
        next.whenComplete((ok, error) -> {
            if (!result.isDone()) {
                waitFor(shards, result);
            }
        });
    }

    /**
     * Sets the holds in force (the topology version's): shards no longer named are lifted and their waiting writes
     * go on; shards newly named are held from now on.
     */
    public synchronized void set(Map<String, Held> holds) {
        Map<String, Held> next = Map.copyOf(holds);
        Map<String, Held> previous = held;
        for (String shard : next.keySet()) {
            drains.computeIfAbsent(shard, name -> new CompletableFuture<>());
        }
        held = next;
        for (String shard : next.keySet()) {
            AtomicInteger count = writing.get(shard);
            if (count == null || count.get() == 0) {
                drains.get(shard).complete(null);
            }
        }
        boolean anyLifted = false;
        for (String shard : previous.keySet()) {
            if (!next.containsKey(shard)) {
                drains.remove(shard);
                anyLifted = true;
            }
        }
        if (anyLifted) {
            CompletableFuture<Void> done = lifted;
            lifted = new CompletableFuture<>();
            done.complete(null);
        }
    }

    /** Completes once no write counted on {@code shard} is left, while it is held (at once when none is). */
    public CompletableFuture<Void> drained(String shard) {
        CompletableFuture<Void> drain = drains.get(shard);
        return drain == null ? CompletableFuture.completedFuture(null) : drain;
    }

    /** Completes once every one of {@code shards} has drained. */
    public CompletableFuture<Void> drained(Set<String> shards) {
        List<CompletableFuture<Void>> all = shards.stream().map(this::drained).toList();
        return CompletableFuture.allOf(all.toArray(CompletableFuture[]::new));
    }

    /** Statements waiting now (for metrics and reports). */
    public int waiting() {
        return waiting.get();
    }

    /** Writes counted now per shard (for reports and tests). */
    public Map<String, Integer> writing() {
        Map<String, Integer> counts = new HashMap<>();
        writing.forEach((shard, count) -> {
            if (count.get() > 0) {
                counts.put(shard, count.get());
            }
        });
        return counts;
    }
}
