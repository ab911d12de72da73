package io.shardgate.proxy.topology;

import com.google.protobuf.ByteString;
import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.Watch;
import io.etcd.jetcd.api.Event;
import io.etcd.jetcd.api.KeyValue;
import io.etcd.jetcd.options.WatchOption;
import io.etcd.jetcd.watch.WatchResponse;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

import static org.assertj.core.api.Assertions.assertThat;

/** The watch's ordering and recovery, with a hand-written jetcd {@link Watch} and reader in place of etcd. */
class EtcdTopologyWatchTest {
    private static final ByteSequence KEY = ByteSequence.from("/p/topology", StandardCharsets.UTF_8);

    private final ScheduledExecutorService events = Executors.newSingleThreadScheduledExecutor();
    private final FakeWatch etcd = new FakeWatch();
    private final BlockingQueue<StoredTopology> delivered = new LinkedBlockingQueue<>();

    @AfterEach
    void stop() {
        events.shutdownNow();
    }

    private EtcdTopologyWatch watch(Supplier<EtcdTopologyWatch.Snapshot> reader) {
        return new EtcdTopologyWatch(etcd, KEY, delivered::add, events, reader, "etcd fake");
    }

    @Test
    void watchesFromTheNextVersionAndDeliversInOrderWithoutRepeats() throws Exception {
        watch(() -> {
            throw new AssertionError("no read needed");
        }).start(5);
        Watch.Listener listener = etcd.awaitWatch(6);
        listener.onNext(response(put(6, "a"), put(7, "b")));
        listener.onNext(response(put(7, "b"), put(5, "old")));
        listener.onNext(response(delete(8), put(9, "c")));
        assertThat(next()).isEqualTo(new StoredTopology(6, "a"));
        assertThat(next()).isEqualTo(new StoredTopology(7, "b"));
        assertThat(next()).as("7 again and 5 skipped, the delete ignored").isEqualTo(new StoredTopology(9, "c"));
        drain();
        assertThat(delivered).isEmpty();
    }

    @Test
    void aWatchEtcdEndsIsReplacedAfterReadingTheDocument() throws Exception {
        watch(() -> new EtcdTopologyWatch.Snapshot(new StoredTopology(9, "nine"), 12)).start(5);
        Watch.Listener first = etcd.awaitWatch(6);
        first.onNext(response(put(6, "six")));
        assertThat(next()).isEqualTo(new StoredTopology(6, "six"));

        first.onError(new IllegalStateException("required revision has been compacted"));
        assertThat(next()).isEqualTo(new StoredTopology(9, "nine"));
        Watch.Listener second = etcd.awaitWatch(13);
        assertThat(etcd.closed.get()).as("the ended watcher is closed").isEqualTo(1);

        first.onNext(response(put(20, "from the old watch")));
        second.onNext(response(put(13, "thirteen")));
        assertThat(next()).as("the old watch's events are dropped").isEqualTo(new StoredTopology(13, "thirteen"));
    }

    @Test
    void whileTheReadFailsTheWatchTriesAgain() throws Exception {
        AtomicInteger reads = new AtomicInteger();
        watch(() -> {
            if (reads.incrementAndGet() < 3) {
                throw new TopologyStoreUnavailableException("etcd fake: no answer");
            }
            return new EtcdTopologyWatch.Snapshot(new StoredTopology(4, "four"), 4);
        }).start(3);
        etcd.awaitWatch(4).onCompleted();
        assertThat(next()).isEqualTo(new StoredTopology(4, "four"));
        etcd.awaitWatch(5);
        assertThat(reads.get()).isEqualTo(3);
    }

    @Test
    void catchUpDeliversOnlyWhatIsNewer() throws Exception {
        AtomicInteger version = new AtomicInteger(7);
        EtcdTopologyWatch watch = watch(() -> new EtcdTopologyWatch.Snapshot(
                new StoredTopology(version.get(), "v" + version.get()), version.get()));
        watch.start(7);
        etcd.awaitWatch(8);
        watch.catchUp();
        drain();
        assertThat(delivered).as("version 7 was delivered before").isEmpty();
        version.set(10);
        watch.catchUp();
        assertThat(next()).isEqualTo(new StoredTopology(10, "v10"));
        drain();
        assertThat(delivered).isEmpty();
    }

    @Test
    void aFailingListenerStillGetsTheNextVersion() throws Exception {
        List<Long> seen = new ArrayList<>();
        new EtcdTopologyWatch(etcd, KEY, topology -> {
            seen.add(topology.version());
            delivered.add(topology);
            if (topology.version() == 2) {
                throw new IllegalStateException("listener bug");
            }
        }, events, () -> {
            throw new AssertionError("no read needed");
        }, "etcd fake").start(1);
        Watch.Listener listener = etcd.awaitWatch(2);
        listener.onNext(response(put(2, "two")));
        listener.onNext(response(put(3, "three")));
        next();
        next();
        assertThat(seen).containsExactly(2L, 3L);
    }

    @Test
    void closeClosesTheWatcherAndDeliversNothingMore() throws Exception {
        EtcdTopologyWatch watch = watch(() -> {
            throw new AssertionError("no read needed");
        });
        watch.start(0);
        Watch.Listener listener = etcd.awaitWatch(1);
        watch.close();
        listener.onNext(response(put(1, "one")));
        drain();
        assertThat(delivered).isEmpty();
        assertThat(etcd.closed.get()).isEqualTo(1);
    }

    /** Returns once the event thread has run everything queued before. */
    private void drain() throws Exception {
        events.submit(() -> null).get(5, TimeUnit.SECONDS);
    }

    private StoredTopology next() throws InterruptedException {
        StoredTopology topology = delivered.poll(5, TimeUnit.SECONDS);
        assertThat(topology).as("a delivery within 5 s").isNotNull();
        return topology;
    }

    private static WatchResponse response(Event... events) {
        io.etcd.jetcd.api.WatchResponse.Builder builder = io.etcd.jetcd.api.WatchResponse.newBuilder();
        for (Event event : events) {
            builder.addEvents(event);
        }
        return new WatchResponse(builder.build());
    }

    private static Event put(long revision, String value) {
        return Event.newBuilder().setType(Event.EventType.PUT).setKv(KeyValue.newBuilder()
                .setKey(ByteString.copyFromUtf8("/p/topology"))
                .setValue(ByteString.copyFromUtf8(value))
                .setModRevision(revision)).build();
    }

    private static Event delete(long revision) {
        return Event.newBuilder().setType(Event.EventType.DELETE).setKv(KeyValue.newBuilder()
                .setKey(ByteString.copyFromUtf8("/p/topology"))
                .setModRevision(revision)).build();
    }

    /** Records each watch the code under test opens: the revision it starts from and its listener. */
    private static final class FakeWatch implements Watch {
        private final BlockingQueue<Opened> opened = new LinkedBlockingQueue<>();
        final AtomicInteger closed = new AtomicInteger();

        private record Opened(long revision, Listener listener) {
        }

        @Override
        public Watcher watch(ByteSequence key, WatchOption option, Listener listener) {
            assertThat(key).isEqualTo(KEY);
            opened.add(new Opened(option.getRevision(), listener));
            return new Watcher() {
                private boolean isClosed;

                @Override
                public void close() {
                    isClosed = true;
                    closed.incrementAndGet();
                }

                @Override
                public boolean isClosed() {
                    return isClosed;
                }

                @Override
                public void requestProgress() {
                }
            };
        }

        @Override
        public void requestProgress() {
        }

        Listener awaitWatch(long fromRevision) throws InterruptedException {
            Opened next = opened.poll(5, TimeUnit.SECONDS);
            assertThat(next).as("a watch opened within 5 s").isNotNull();
            assertThat(next.revision()).as("the revision the watch starts from").isEqualTo(fromRevision);
            return next.listener();
        }
    }
}
