package io.shardgate.proxy.backend;

import io.netty.buffer.Unpooled;
import io.netty.channel.EventLoop;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.util.ReferenceCountUtil;
import io.shardgate.errors.ErrorCode;
import io.shardgate.errors.ShardgateException;
import io.shardgate.proxy.config.HostPort;
import io.shardgate.proxy.protocol.Capabilities;
import io.shardgate.proxy.protocol.Command;
import io.shardgate.proxy.protocol.MySqlPacket;
import io.shardgate.proxy.protocol.ServerStatus;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The pool's state protocol without sockets: every connection is a {@link BackendConnection} over an
 * {@link EmbeddedChannel} (each with its own event loop), opened by a hand-written {@link ConnectionOpener};
 * the acquire timeout runs on an embedded loop whose time the test advances, with the pool's clock in step.
 */
class BackendPoolTest {
    private static final BackendTarget TARGET = new BackendTarget("s0", "primary", new HostPort("127.0.0.1", 1));
    private static final long CAPABILITIES = Capabilities.CLIENT_PROTOCOL_41 | Capabilities.CLIENT_DEPRECATE_EOF
            | Capabilities.CLIENT_SESSION_TRACK;
    private static final long SHAPING = Capabilities.CLIENT_DEPRECATE_EOF;
    private static final Duration TIMEOUT = Duration.ofMillis(250);

    private final FakeOpener opener = new FakeOpener();
    /** The client side: its loop is the one acquires come from, and runs the acquire timeouts. */
    private final EmbeddedChannel client = new EmbeddedChannel();
    private long nanos = 1_000_000_000L;

    @BeforeEach
    void freezeTheClientLoopsTime() {
        client.freezeTime(); // its time moves only with advance(), in step with the pool's clock
    }

    @AfterEach
    void tearDown() {
        for (BackendConnection connection : opener.opened) {
            EmbeddedChannel channel = (EmbeddedChannel) connection.channel();
            Object written;
            while ((written = channel.readOutbound()) != null) {
                ReferenceCountUtil.release(written);
            }
            channel.finishAndReleaseAll();
        }
        assertThat(client.finish()).isFalse();
    }

    private BackendPool pool(int max) {
        return new BackendPool(TARGET, opener, max, TIMEOUT, () -> nanos);
    }

    private CompletableFuture<BackendConnection> acquire(BackendPool pool, EventLoop loop) {
        return pool.acquire(loop, SHAPING, "");
    }

    private CompletableFuture<BackendConnection> acquire(BackendPool pool) {
        return acquire(pool, client.eventLoop());
    }

    @Test
    void aReleasedConnectionGoesBackIdleAndIsTakenBeforeOpeningAnother() {
        BackendPool pool = pool(4);

        BackendConnection first = acquire(pool).join();
        assertThat(opener.calls).isEqualTo(1);
        assertThat(first.owner()).isSameAs(pool);
        assertThat(pool.open()).isEqualTo(1);
        assertThat(pool.inUse()).isEqualTo(1);
        assertThat(pool.idle()).isZero();

        pool.release(first);
        assertThat(pool.inUse()).isZero();
        assertThat(pool.idle()).isEqualTo(1);

        assertThat(acquire(pool).join()).isSameAs(first);
        assertThat(opener.calls).as("no second connection opened").isEqualTo(1);
        assertThat(pool.open()).isEqualTo(1);
        assertThat(pool.idle()).isZero();
    }

    @Test
    void growsUpToMaxThenQueuesAndHandsTheNextReleaseToTheFirstWaiter() {
        BackendPool pool = pool(2);
        BackendConnection a = acquire(pool).join();
        BackendConnection b = acquire(pool).join();
        assertThat(a).isNotSameAs(b);

        CompletableFuture<BackendConnection> third = acquire(pool);
        CompletableFuture<BackendConnection> fourth = acquire(pool);
        assertThat(third).isNotDone();
        assertThat(fourth).isNotDone();
        assertThat(opener.calls).as("never more than max connections").isEqualTo(2);
        assertThat(pool.open()).isEqualTo(2);
        assertThat(pool.waiting()).isEqualTo(2);

        pool.release(b);
        assertThat(third).isCompletedWithValue(b);
        assertThat(fourth).isNotDone();
        pool.release(a);
        assertThat(fourth).isCompletedWithValue(a);
        assertThat(pool.waiting()).isZero();
        assertThat(pool.inUse()).isEqualTo(2);
    }

    @Test
    void anAcquireTimesOutNamingThePoolTheWaitAndTheLastRealFailure() {
        BackendPool pool = pool(1);
        ShardgateException refused = ErrorCode.BACKEND_UNAVAILABLE.exception("s0", "primary", "127.0.0.1:1", "Connection refused");
        opener.failures.add(refused);

        CompletableFuture<BackendConnection> failed = acquire(pool);
        assertThat(failed).isCompletedExceptionally();
        assertThat(failed.handle((ok, error) -> error).join()).as("a failed open reaches its acquirer").isSameAs(refused);
        assertThat(pool.open()).as("a failed open frees its slot").isZero();
        assertThat(pool.inUse()).isZero();

        nanos += TimeUnit.MILLISECONDS.toNanos(1000);
        acquire(pool).join();
        CompletableFuture<BackendConnection> waiting = acquire(pool);

        advance(TIMEOUT.toMillis() - 1);
        assertThat(waiting).as("not before the timeout").isNotDone();
        advance(1);

        assertThat(waiting).isCompletedExceptionally();
        Throwable error = waiting.handle((ok, e) -> e).join();
        assertThat(error).isInstanceOfSatisfying(ShardgateException.class, e -> {
            assertThat(e.code()).isEqualTo(ErrorCode.BACKEND_POOL_TIMEOUT);
            assertThat(e.errno()).isEqualTo(1429);
        });
        assertThat(error.getMessage())
                .startsWith("Timed out after 250 ms waiting for a connection to shard s0 primary (127.0.0.1:1): 1 of 1 in use;")
                .endsWith("last connection failure: Unable to reach shard s0 primary (127.0.0.1:1): Connection refused (1250 ms ago)");
        assertThat(pool.waiting()).isZero();
    }

    @Test
    void aTimeoutOfABusyPoolThatNeverFailedSaysSo() {
        BackendPool pool = pool(1);
        acquire(pool).join();
        CompletableFuture<BackendConnection> waiting = acquire(pool);

        advance(TIMEOUT.toMillis());

        assertThat(waiting.handle((ok, e) -> e).join()).hasMessageEndingWith("1 of 1 in use; last connection failure: none");
    }

    @Test
    void aConnectionThatComesFreeBeforeTheTimeoutIsHandedOverAndTheTimeoutDoesNothing() {
        BackendPool pool = pool(1);
        BackendConnection only = acquire(pool).join();
        CompletableFuture<BackendConnection> waiting = acquire(pool);

        pool.release(only);
        advance(TIMEOUT.toMillis());

        assertThat(waiting).isCompletedWithValue(only);
        assertThat(pool.inUse()).isEqualTo(1);
    }

    @Test
    void aConnectionBrokenInUseIsDiscardedOnReleaseNotReused() {
        BackendPool pool = pool(2);
        BackendConnection broken = acquire(pool).join();
        broken.channel().close();

        pool.release(broken);
        assertThat(pool.open()).as("its slot is freed").isZero();
        assertThat(pool.idle()).isZero();

        BackendConnection next = acquire(pool).join();
        assertThat(next).isNotSameAs(broken);
        assertThat(next.isOpen()).isTrue();
        assertThat(opener.calls).isEqualTo(2);
    }

    @Test
    void aRetiredPoolClosesItsIdleConnectionsAndEachLentOneWhenItComesBack() {
        BackendPool pool = pool(4);
        BackendConnection idle = acquire(pool).join();
        BackendConnection lent = acquire(pool).join();
        pool.release(idle);

        pool.retire();
        assertThat(pool.retired()).isTrue();
        assertThat(idle.isOpen()).as("idle: closed at once").isFalse();
        assertThat(lent.isOpen()).as("lent: its statement finishes").isTrue();
        pool.release(lent);
        assertThat(lent.isOpen()).as("closed when given back, not kept").isFalse();
        assertThat(pool.idle()).isZero();
        assertThat(pool.open()).isZero();

        pool.restore();
        BackendConnection again = acquire(pool).join();
        pool.release(again);
        assertThat(pool.idle()).as("serving again: kept").isEqualTo(1);
    }

    @Test
    void aConnectionGivenBackTwiceEntersTheIdleListOnceIsCountedOnceAndIsNeverLentToTwoSessions() {
        BackendPool pool = pool(2);
        BackendConnection a = acquire(pool).join();
        pool.release(a);
        pool.release(a); // a second hand-back of the same loan: refused
        assertThat(pool.inUse()).as("never below zero").isZero();
        assertThat(pool.idle()).as("once in the idle list").isEqualTo(1);

        BackendConnection first = acquire(pool).join();
        BackendConnection second = acquire(pool).join();
        assertThat(second).as("not handed to a second session at once").isNotSameAs(first);
        assertThat(pool.inUse()).isEqualTo(2);

        pool.discard(first);
        pool.discard(first);
        pool.release(first);
        assertThat(pool.inUse()).as("the second connection only").isEqualTo(1);
        assertThat(pool.open()).as("one connection closed, its slot freed once").isEqualTo(1);
        assertThat(pool.idle()).isZero();
        assertThat(second.isOpen()).isTrue();
    }

    @Test
    void closingAllEndsTheLentConnectionsTooSayingWhy() {
        BackendPool pool = pool(4);
        BackendConnection lent = acquire(pool).join();
        BackendConnection other = acquire(pool).join();
        pool.release(other);

        pool.closeAll("the shard's primary became 127.0.0.1:2 in topology version 7");
        assertThat(lent.isOpen()).isFalse();
        assertThat(other.isOpen()).isFalse();
        assertThat(lent.closedBecause()).isEqualTo("the shard's primary became 127.0.0.1:2 in topology version 7");
        pool.release(lent);
        assertThat(pool.open()).isZero();
    }

    @Test
    void aConnectionThatBreaksWhileIdleIsSkippedAndItsSlotFreed() {
        BackendPool pool = pool(1);
        BackendConnection broken = acquire(pool).join();
        pool.release(broken);
        broken.channel().close();

        BackendConnection next = acquire(pool).join();

        assertThat(next).isNotSameAs(broken);
        assertThat(pool.open()).isEqualTo(1);
        assertThat(pool.idle()).isZero();
    }

    @Test
    void aConnectionReleasedMidResponseIsClosed() {
        BackendPool pool = pool(1);
        BackendConnection busy = acquire(pool).join();
        busy.execute(MySqlPacket.command(Command.QUERY, "SELECT 1"), Command.QUERY, new IgnoringSink());
        assertThat(busy.isBusy()).isTrue();

        pool.release(busy);

        assertThat(busy.isOpen()).as("its protocol state is unknown").isFalse();
        assertThat(pool.open()).isZero();
        assertThat(pool.idle()).isZero();
    }

    @Test
    void aDiscardedConnectionIsClosedAndItsSlotGoesToAWaiter() {
        BackendPool pool = pool(1);
        BackendConnection doomed = acquire(pool).join();
        CompletableFuture<BackendConnection> waiting = acquire(pool);

        pool.discard(doomed);

        assertThat(doomed.isOpen()).isFalse();
        assertThat(waiting).isCompleted();
        assertThat(waiting.join()).isNotSameAs(doomed);
        assertThat(opener.calls).isEqualTo(2);
        assertThat(pool.open()).isEqualTo(1);
    }

    @Test
    void anIdleConnectionOnTheCallersEventLoopIsPreferred() {
        BackendPool pool = pool(2);
        BackendConnection a = acquire(pool).join();
        BackendConnection b = acquire(pool).join();
        assertThat(a.channel().eventLoop()).isNotSameAs(b.channel().eventLoop());
        pool.release(b);
        pool.release(a); // idle, most recent first: a, b

        assertThat(acquire(pool, b.channel().eventLoop()).join()).as("b's loop gets b, not the first idle").isSameAs(b);
        assertThat(acquire(pool, a.channel().eventLoop()).join()).isSameAs(a);
    }

    @Test
    void anIdleConnectionOnAnotherLoopIsTakenRatherThanOpeningOne() {
        BackendPool pool = pool(2);
        BackendConnection a = acquire(pool).join();
        pool.release(a);

        assertThat(acquire(pool, client.eventLoop()).join()).isSameAs(a);
        assertThat(opener.calls).isEqualTo(1);
    }

    @Test
    void aConnectionWithUnknownSessionStateIsResetBeforeItGoesBack() {
        BackendPool pool = pool(1);
        BackendConnection used = acquire(pool).join();
        used.markUntracked();
        EmbeddedChannel channel = (EmbeddedChannel) used.channel();

        pool.release(used);
        assertThat(pool.idle()).as("not back before its reset is answered").isZero();
        assertThat(commandOf(channel.readOutbound())).isEqualTo(Command.RESET_CONNECTION.code());
        channel.writeInbound(ok());
        assertThat(commandOf(channel.readOutbound())).as("tracking turned on again").isEqualTo(Command.QUERY.code());
        channel.writeInbound(ok());

        assertThat(pool.idle()).isEqualTo(1);
        assertThat(used.untracked()).isFalse();
        assertThat(acquire(pool).join()).isSameAs(used);
    }

    @Test
    void aConnectionWhoseResetFailsIsClosed() {
        BackendPool pool = pool(1);
        BackendConnection used = acquire(pool).join();
        used.markUntracked();
        EmbeddedChannel channel = (EmbeddedChannel) used.channel();
        CompletableFuture<BackendConnection> waiting;

        pool.release(used);
        waiting = acquire(pool);
        assertThat(commandOf(channel.readOutbound())).isEqualTo(Command.RESET_CONNECTION.code());
        channel.writeInbound(err());

        assertThat(used.isOpen()).isFalse();
        assertThat(waiting.join()).as("the waiter gets a fresh connection").isNotSameAs(used);
        assertThat(pool.open()).isEqualTo(1);
    }

    private void advance(long millis) {
        nanos += TimeUnit.MILLISECONDS.toNanos(millis);
        client.advanceTimeBy(millis, TimeUnit.MILLISECONDS);
        client.runScheduledPendingTasks();
    }

    private static int commandOf(Object written) {
        assertThat(written).isInstanceOf(MySqlPacket.class);
        MySqlPacket packet = (MySqlPacket) written;
        try {
            return packet.payload().getUnsignedByte(packet.payload().readerIndex());
        } finally {
            packet.release();
        }
    }

    private static MySqlPacket ok() {
        return new MySqlPacket(1, Unpooled.wrappedBuffer(new byte[] {0x00, 0x00, 0x00, ServerStatus.AUTOCOMMIT, 0x00, 0x00, 0x00}));
    }

    private static MySqlPacket err() {
        byte[] message = "#HY000Unknown command".getBytes(StandardCharsets.US_ASCII);
        return new MySqlPacket(1, Unpooled.buffer().writeByte(0xFF).writeShortLE(1047).writeBytes(message));
    }

    /** Opens each connection over a fresh {@link EmbeddedChannel}, or fails with the next of {@link #failures}. */
    private static final class FakeOpener implements ConnectionOpener {
        final List<BackendConnection> opened = new ArrayList<>();
        final Deque<Throwable> failures = new ArrayDeque<>();
        int calls;

        @Override
        public CompletableFuture<BackendConnection> connect(EventLoop loop, BackendTarget target, long shaping, String schema) {
            calls++;
            Throwable failure = failures.poll();
            if (failure != null) {
                return CompletableFuture.failedFuture(failure);
            }
            BackendConnection connection = new BackendConnection(new EmbeddedChannel(), target, CAPABILITIES, shaping, calls, schema, 4);
            opened.add(connection);
            return CompletableFuture.completedFuture(connection);
        }
    }

    private static final class IgnoringSink implements ResponseSink {
        @Override
        public void packet(MySqlPacket packet) {
            packet.release();
        }

        @Override
        public void flush() {
        }

        @Override
        public void complete(int status, boolean error) {
        }

        @Override
        public void failed(Throwable cause) {
        }
    }
}
