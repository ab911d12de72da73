package io.shardgate.replication.stream;

import com.github.shyiko.mysql.binlog.BinaryLogClient;
import com.github.shyiko.mysql.binlog.event.Event;
import com.github.shyiko.mysql.binlog.event.EventType;
import com.github.shyiko.mysql.binlog.event.deserialization.EventDeserializer;
import com.github.shyiko.mysql.binlog.network.ServerException;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.shardgate.replication.gtid.MariaDbGtidPosition;

import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

import static java.util.Objects.requireNonNull;

/**
 * Reads a MariaDB source's binlog as committed transactions, from a GTID position.
 *
 * <p>Each connection asks the source to start after {@link #position()}: the last transaction
 * handed to the output. A connection that drops (network, {@code KILL}, source restart) is
 * replaced after a pause by one that starts there again; the transaction that was open when it
 * dropped is thrown away and read again in full. Nothing handed on is read twice and nothing is
 * skipped. Errors that another try cannot fix (the source no longer has the position, a row the
 * stream cannot carry) end {@link #run()} with a {@link StreamException}.
 *
 * <p>{@link #run()} blocks the calling thread; {@link #stop()} ends it from another.
 */
public final class BinlogReader {
    /**
     * @param reconnectPause how long to wait before opening a dropped connection again
     * @param silence        a connection without any event or heartbeat for this long is dropped;
     *                       time spent handing a transaction on (backpressure) does not count
     */
    public record Timing(Duration reconnectPause, Duration silence) {
        public Timing {
            requireNonNull(reconnectPause, "reconnectPause is null");
            requireNonNull(silence, "silence is null");
            if (silence.toMillis() < 300) {
                throw new IllegalArgumentException("silence timeout " + silence + " is shorter than 300 ms");
            }
        }
    }

    private final ServerEndpoint source;
    private final TableFilter filter;
    private final TransactionAssembler.Output output;
    private final MariaDbGtidPosition until;
    private final long serverId;
    private final Timing timing;
    private final Counter events;
    private final Counter reconnects;
    private final CountDownLatch stopped = new CountDownLatch(1);
    private final AtomicReference<BinaryLogClient> client = new AtomicReference<>();

    private volatile MariaDbGtidPosition position;
    /** XA transactions prepared and not yet ended, kept across this reader's connections. */
    private final PreparedXa preparedXa = new PreparedXa();
    private volatile Consumer<String> notices = message -> { };
    private volatile TableSchemaSource schemas;

    /**
     * @param start    read every transaction after this position; empty reads from the start of the oldest binlog
     * @param until    stop once this position is handed on; null runs until {@link #stop()}
     * @param serverId the replica server id to present to the source; unique among its replicas
     */
    public BinlogReader(ServerEndpoint source, TableFilter filter, MariaDbGtidPosition start, MariaDbGtidPosition until,
                        long serverId, Timing timing, MeterRegistry registry,
                        TransactionAssembler.Output output) {
        this.source = requireNonNull(source, "source is null");
        this.filter = requireNonNull(filter, "filter is null");
        this.position = requireNonNull(start, "start is null");
        this.until = until;
        this.serverId = serverId;
        this.timing = requireNonNull(timing, "timing is null");
        this.output = requireNonNull(output, "output is null");
        requireNonNull(registry, "registry is null");
        this.events = Counter.builder("shardgate.stream.events.read").description("binlog events read")
                .register(registry);
        this.reconnects = Counter.builder("shardgate.stream.retries").tag("kind", "reconnect")
                .description("binlog connections opened again after a drop").register(registry);
    }

    /** Receives a one-line notice each time a dropped connection is opened again. */
    public void notices(Consumer<String> notices) {
        this.notices = requireNonNull(notices, "notices is null");
    }

    /**
     * Resolves table maps with {@code schemas} (a schema history) instead of the source's present
     * {@code information_schema}.
     */
    public void schemas(TableSchemaSource schemas) {
        this.schemas = requireNonNull(schemas, "schemas is null");
    }

    /**
     * The stream goes on from a consistent snapshot at {@code position} and reads from before it (its lookback): an XA
     * end up to {@code position} whose PREPARE lies before the start is passed over, the snapshot has its outcome.
     */
    public void snapshot(MariaDbGtidPosition position) {
        preparedXa.snapshot(requireNonNull(position, "position is null"));
    }

    /** The last transaction handed on, per domain. */
    public MariaDbGtidPosition position() {
        return position;
    }

    public void stop() {
        stopped.countDown();
        disconnect(client.get());
    }

    private boolean isStopped() {
        return stopped.getCount() == 0;
    }

    /** Reads until stopped, until the end position, or until an error that reconnecting cannot fix. */
    public void run() throws InterruptedException {
        try (SourceSchemaCatalog catalog = new SourceSchemaCatalog(source)) {
            while (!isStopped() && !reachedUntil()) {
                Throwable failure = readOnce(schemas == null ? catalog : schemas);
                if (isStopped() || reachedUntil()) {
                    return;
                }
                if (failure instanceof StreamException fatal) {
                    throw fatal;
                }
                if (failure instanceof ServerException server && isPermanent(server)) {
                    throw new StreamException("source " + source.address() + " refused to stream from "
                            + (position.isEmpty() ? "the beginning" : position.toString()) + ": "
                            + server.getMessage(), server);
                }
                reconnects.increment();
                notices.accept("binlog connection to " + source.address() + " lost (" + describe(failure)
                        + "); reading again after " + (position.isEmpty() ? "the beginning" : position.toString()));
                if (stopped.await(timing.reconnectPause().toMillis(), TimeUnit.MILLISECONDS)) {
                    return;
                }
            }
        }
    }

    private static String describe(Throwable failure) {
        if (failure == null) {
            return "closed by the source";
        }
        return failure.getMessage() == null ? failure.getClass().getSimpleName() : failure.getMessage();
    }

    private boolean reachedUntil() {
        return until != null && position.hasReached(until);
    }

    private static boolean isPermanent(ServerException e) {
        // 1236: the source cannot serve the requested position (purged, never written, diverged).
        return e.getErrorCode() == 1236;
    }

    /** One connection's life; returns what ended it (null for a plain disconnect). */
    private Throwable readOnce(TableSchemaSource catalog) throws InterruptedException {
        BinaryLogClient connection = new BinaryLogClient(source.host(), source.port(), source.user(), source.password());
        connection.setServerId(serverId);
        connection.setGtidSet(position.toString());
        connection.setKeepAlive(false);
        connection.setHeartbeatInterval(Math.max(100, Math.min(1000, timing.silence().toMillis() / 3)));
        connection.setConnectTimeout(Math.max(1000, timing.silence().toMillis()));
        EventDeserializer deserializer = ExactTemporalRows.create();
        deserializer.setCompatibilityMode(EventDeserializer.CompatibilityMode.DATE_AND_TIME_AS_LONG_MICRO,
                EventDeserializer.CompatibilityMode.INVALID_DATE_AND_TIME_AS_MIN_VALUE,
                EventDeserializer.CompatibilityMode.CHAR_AND_BINARY_AS_BYTE_ARRAY);
        connection.setEventDeserializer(deserializer);
        AtomicReference<Throwable> failure = new AtomicReference<>();
        TransactionAssembler assembler = new TransactionAssembler(catalog, new DdlClassifier(), filter, transaction -> {
            output.accept(transaction);
            position = position.with(transaction.gtid());
            if (reachedUntil()) {
                disconnectLater(connection);
            }
        }, preparedXa);
        Silence silence = new Silence();
        connection.registerEventListener(event -> {
            silence.busy(true);
            try {
                onEvent(event, assembler, failure, connection);
            } finally {
                silence.busy(false);
            }
        });
        connection.registerLifecycleListener(new BinaryLogClient.AbstractLifecycleListener() {
            @Override
            public void onCommunicationFailure(BinaryLogClient c, Exception e) {
                failure.compareAndSet(null, e);
            }

            @Override
            public void onEventDeserializationFailure(BinaryLogClient c, Exception e) {
                failure.compareAndSet(null, new StreamException("cannot decode a binlog event after " + position
                        + ": " + e.getMessage(), e));
                disconnectLater(c);
            }
        });
        client.set(connection);
        if (isStopped()) {
            return null;
        }
        ScheduledExecutorService watchdog = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, "shardgate-binlog-watchdog");
            thread.setDaemon(true);
            return thread;
        });
        long checkEvery = Math.max(100, timing.silence().toMillis() / 4);
        watchdog.scheduleAtFixedRate(() -> {
            if (isStopped()) {
                // A stop() that came between the check above and connect() found nothing connected to close.
                disconnect(connection);
            } else if (connection.isConnected() && silence.longerThan(timing.silence())) {
                failure.compareAndSet(null, new IOException("no binlog event or heartbeat for "
                        + timing.silence().toMillis() + " ms"));
                disconnect(connection);
            }
        }, checkEvery, checkEvery, TimeUnit.MILLISECONDS);
        try {
            connection.connect();
        } catch (IOException | RuntimeException e) {
            failure.compareAndSet(null, e);
        } finally {
            watchdog.shutdownNow();
            client.set(null);
            disconnect(connection);
        }
        if (failure.get() instanceof InterruptedException) {
            throw (InterruptedException) failure.get();
        }
        return failure.get();
    }

    private void onEvent(Event event, TransactionAssembler assembler, AtomicReference<Throwable> failure,
                         BinaryLogClient connection) {
        if (failure.get() != null || isStopped() || reachedUntil()) {
            return;
        }
        if (event.getHeader().getEventType() != EventType.HEARTBEAT) {
            events.increment();
        }
        try {
            assembler.accept(event);
        } catch (InterruptedException e) {
            failure.compareAndSet(null, e);
            disconnectLater(connection);
        } catch (RuntimeException e) {
            // The library would log and skip a listener's exception; stop the connection instead.
            failure.compareAndSet(null, e instanceof StreamException || e instanceof SourceUnavailableException ? e
                    : new StreamException(
                    "cannot read the transaction after " + position + ": " + e, e));
            disconnectLater(connection);
        }
    }

    /** When the connection last showed life; quiet while the output is busy. */
    private static final class Silence {
        private volatile long lastNanos = System.nanoTime();
        private volatile boolean busy;

        void busy(boolean now) {
            busy = now;
            lastNanos = System.nanoTime();
        }

        boolean longerThan(Duration limit) {
            return !busy && System.nanoTime() - lastNanos > limit.toNanos();
        }
    }

    /** Disconnects from another thread: the listener runs on the client's reading thread. */
    private static void disconnectLater(BinaryLogClient connection) {
        Thread thread = new Thread(() -> disconnect(connection), "shardgate-binlog-disconnect");
        thread.setDaemon(true);
        thread.start();
    }

    private static void disconnect(BinaryLogClient connection) {
        if (connection == null) {
            return;
        }
        try {
            connection.disconnect();
        } catch (IOException ignored) {
            // Already gone.
        }
    }
}
