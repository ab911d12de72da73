package io.shardgate.proxy.topology;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;

/**
 * Runs one etcd call with the store's deadline: its result, or {@link TopologyStoreUnavailableException} naming the
 * store when it fails or does not answer in time. Every outcome is recorded in the store's {@link StoreAvailability}.
 *
 * <p>Until etcd has answered once, the deadline is longer by {@link #FIRST_ANSWER_ALLOWANCE}: the first call also
 * loads and starts the client (gRPC, Vert.x, protobuf), which took 1.3 s on a loaded 2-core machine.
 */
final class EtcdCalls {
    static final Duration FIRST_ANSWER_ALLOWANCE = Duration.ofSeconds(5);

    private final String store;
    private final Duration timeout;
    private final StoreAvailability availability;
    private volatile boolean answeredOnce;

    EtcdCalls(String store, Duration timeout, StoreAvailability availability) {
        this.store = store;
        this.timeout = timeout;
        this.availability = availability;
    }

    /** The deadline of a call starting now. */
    Duration deadline() {
        return answeredOnce ? timeout : timeout.plus(FIRST_ANSWER_ALLOWANCE);
    }

    <T> T await(String what, Supplier<CompletableFuture<T>> call) {
        return await(what, deadline(), call);
    }

    <T> T await(String what, Duration deadline, Supplier<CompletableFuture<T>> call) {
        long started = availability.now();
        CompletableFuture<T> future;
        try {
            future = call.get();
        } catch (RuntimeException e) {
            // A closed client refuses at once.
            throw new TopologyStoreUnavailableException(store + ": cannot " + what + ": " + e.getMessage(), e);
        }
        try {
            T result = future.get(deadline.toNanos(), TimeUnit.NANOSECONDS);
            answeredOnce = true;
            availability.answered();
            return result;
        } catch (TimeoutException e) {
            future.cancel(true);
            availability.failed(started);
            throw new TopologyStoreUnavailableException(store + ": no answer to " + what + " within "
                    + deadline.toMillis() + " ms", e);
        } catch (ExecutionException e) {
            availability.failed(started);
            Throwable cause = e.getCause() == null ? e : e.getCause();
            throw new TopologyStoreUnavailableException(store + ": cannot " + what + ": " + cause.getMessage(), cause);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            future.cancel(true);
            throw new TopologyStoreUnavailableException(store + ": interrupted waiting to " + what, e);
        }
    }
}
