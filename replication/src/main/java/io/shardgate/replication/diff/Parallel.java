package io.shardgate.replication.diff;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;

import static java.util.Objects.requireNonNull;

/**
 * Runs one read per server at once (each on its own snapshot connection), so a chunk costs the slowest
 * server's time rather than the sum. The first failure is rethrown as it was, the others suppressed.
 */
final class Parallel {
    /** One read on one server. */
    @FunctionalInterface
    interface Read<T> {
        T run() throws SQLException;
    }

    private final ExecutorService executor;

    Parallel(ExecutorService executor) {
        this.executor = requireNonNull(executor, "executor is null");
    }

    <T> List<T> all(List<Read<T>> reads) throws SQLException {
        List<Callable<T>> tasks = new ArrayList<>(reads.size());
        for (Read<T> read : reads) {
            tasks.add(read::run);
        }
        List<Future<T>> futures;
        try {
            futures = executor.invokeAll(tasks);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new SQLException("the diff was interrupted", "70100", e);
        }
        List<T> results = new ArrayList<>(futures.size());
        Exception first = null;
        for (Future<T> future : futures) {
            try {
                results.add(future.get());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new SQLException("the diff was interrupted", "70100", e);
            } catch (ExecutionException e) {
                Exception cause = e.getCause() instanceof Exception c ? c : new IllegalStateException(e.getCause());
                if (first == null) {
                    first = cause;
                } else {
                    first.addSuppressed(cause);
                }
            }
        }
        if (first instanceof SQLException sql) {
            throw sql;
        }
        if (first instanceof RuntimeException runtime) {
            throw runtime;
        }
        if (first != null) {
            throw new IllegalStateException(first);
        }
        return results;
    }
}
