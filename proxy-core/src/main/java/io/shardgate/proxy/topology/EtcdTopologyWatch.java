package io.shardgate.proxy.topology;

import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.KeyValue;
import io.etcd.jetcd.Watch;
import io.etcd.jetcd.options.WatchOption;
import io.etcd.jetcd.watch.WatchEvent;
import io.etcd.jetcd.watch.WatchResponse;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * One {@link TopologyStore#watch} on etcd: an etcd watch of the document's key from the version after the last one
 * delivered. Everything runs on the store's one event thread, so the listener sees versions one at a time, in order,
 * and never one it has seen (or an older one).
 *
 * <p>jetcd resumes a watch by itself after a disconnect. When etcd ends it instead (the revision to resume from was
 * compacted, the watch was cancelled), this reads the document, delivers it if it is newer, and watches again from
 * the store's revision after that read; while etcd does not answer, it tries again every {@link #RETRY_MILLIS} ms.
 * When the store reports that etcd is back after an outage, {@link #catchUp()} reads once more, in case a change was
 * missed meanwhile.
 */
final class EtcdTopologyWatch implements AutoCloseable {
    static final long RETRY_MILLIS = 500;
    private static final System.Logger LOG = System.getLogger(EtcdTopologyWatch.class.getName());

    /** The document and the store's revision at the moment it was read. */
    record Snapshot(StoredTopology topology, long storeRevision) {
    }

    private final Watch watchClient;
    private final ByteSequence key;
    private final Consumer<StoredTopology> listener;
    private final ScheduledExecutorService events;
    private final Supplier<Snapshot> reader;
    private final String store;
    // Only touched on the event thread.
    private long lastDelivered;
    private long generation;
    private Watch.Watcher watcher;
    private volatile boolean closed;

    EtcdTopologyWatch(Watch watchClient, ByteSequence key, Consumer<StoredTopology> listener,
                      ScheduledExecutorService events, Supplier<Snapshot> reader, String store) {
        this.watchClient = watchClient;
        this.key = key;
        this.listener = listener;
        this.events = events;
        this.reader = reader;
        this.store = store;
    }

    void start(long afterVersion) {
        run(() -> {
            lastDelivered = afterVersion;
            open(afterVersion + 1);
        });
    }

    /** Reads the document and delivers it when it is newer than the last delivered. */
    void catchUp() {
        run(() -> {
            try {
                deliver(reader.get().topology());
            } catch (TopologyStoreUnavailableException e) {
                // Still away: the watch or the next recovery delivers it.
            }
        });
    }

    private void open(long fromRevision) {
        if (closed) {
            return;
        }
        long current = ++generation;
        WatchOption option = WatchOption.builder().withRevision(fromRevision).build();
        try {
            watcher = watchClient.watch(key, option, Watch.listener(
                    response -> run(() -> onResponse(current, response)),
                    error -> run(() -> onEnd(current, error)),
                    () -> run(() -> onEnd(current, null))));
        } catch (RuntimeException e) {
            // The client is closing, or refused the watch: start over after a pause.
            scheduleResync();
        }
    }

    private void onResponse(long watchGeneration, WatchResponse response) {
        if (watchGeneration != generation || closed) {
            return;
        }
        for (WatchEvent event : response.getEvents()) {
            if (event.getEventType() == WatchEvent.EventType.PUT) {
                KeyValue kv = event.getKeyValue();
                deliver(new StoredTopology(kv.getModRevision(), kv.getValue().toString(StandardCharsets.UTF_8)));
            }
        }
    }

    private void onEnd(long watchGeneration, Throwable error) {
        if (watchGeneration != generation || closed) {
            return;
        }
        closeWatcher();
        resync();
    }

    /** Reads the document, delivers it if newer, and watches again from after the read. */
    private void resync() {
        if (closed) {
            return;
        }
        Snapshot snapshot;
        try {
            snapshot = reader.get();
        } catch (TopologyStoreUnavailableException e) {
            scheduleResync();
            return;
        }
        deliver(snapshot.topology());
        open(snapshot.storeRevision() + 1);
    }

    private void scheduleResync() {
        if (closed) {
            return;
        }
        try {
            events.schedule(this::resync, RETRY_MILLIS, TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException e) {
            // The store is closing.
        }
    }

    private void deliver(StoredTopology topology) {
        if (closed || topology.version() <= lastDelivered) {
            return;
        }
        lastDelivered = topology.version();
        try {
            listener.accept(topology);
        } catch (RuntimeException e) {
            // The listener's failure is its own; the next version is still delivered.
            LOG.log(System.Logger.Level.WARNING, store + ": the topology listener failed on version "
                    + topology.version(), e);
        }
    }

    private void run(Runnable task) {
        if (closed) {
            return;
        }
        try {
            events.execute(task);
        } catch (RejectedExecutionException e) {
            // The store is closing.
        }
    }

    private void closeWatcher() {
        Watch.Watcher current = watcher;
        watcher = null;
        if (current != null) {
            try {
                current.close();
            } catch (RuntimeException ignored) {
                // Already closed.
            }
        }
    }

    @Override
    public void close() {
        closed = true;
        try {
            events.execute(this::closeWatcher);
        } catch (RejectedExecutionException e) {
            // The event thread has ended: nothing else touches the watcher now.
            closeWatcher();
        }
    }
}
