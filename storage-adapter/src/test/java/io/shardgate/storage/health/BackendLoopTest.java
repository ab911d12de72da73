package io.shardgate.storage.health;

import org.junit.jupiter.api.Test;

import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** One loop per backend, driven by a fake clock: each check at its own interval, all over one connection. No sockets. */
class BackendLoopTest {
    private static final long MS = 1_000_000L;

    private final AtomicLong now = new AtomicLong();
    private final AtomicInteger connects = new AtomicInteger();
    /** A connector that counts its calls and fails like an unreachable server. */
    private final ControlConnection connection = new ControlConnection((connectTimeout, socketTimeout) -> {
        connects.incrementAndGet();
        throw new SQLTransientConnectionException("connect timed out after " + connectTimeout.toMillis() + " ms");
    });

    /** A check that records when it ran and over which connection, and takes {@code takes} of the fake clock. */
    private final class Recording implements BackendCheck {
        private final String name;
        private final Duration interval;
        private final long takes;
        private final List<String> log;
        final List<Long> runs = new ArrayList<>();
        final List<ControlConnection> connections = new ArrayList<>();

        Recording(String name, Duration interval, long takes, List<String> log) {
            this.name = name;
            this.interval = interval;
            this.takes = takes;
            this.log = log;
        }

        @Override
        public Duration interval() {
            return interval;
        }

        @Override
        public Duration longestRun() {
            return Duration.ofMillis(10);
        }

        @Override
        public void run(ControlConnection connection) {
            runs.add(now.get());
            connections.add(connection);
            log.add(name);
            now.addAndGet(takes);
        }
    }

    /** Drives the loop as its thread would, without waiting: jumps the clock to each wake-up time until {@code end}. */
    private void drive(BackendLoop loop, long end) {
        loop.schedule(now.get());
        while (now.get() <= end) {
            long next = loop.runDue(now.get());
            if (next - now.get() > 0) {
                now.set(next);
            }
        }
    }

    @Test
    void eachCheckRunsAtItsOwnIntervalOverTheLoopsOneConnection() {
        List<String> log = new ArrayList<>();
        BackendLoop loop = new BackendLoop("shardgate-monitor-10.0.0.1:3306", connection, now::get);
        Recording health = new Recording("health", Duration.ofSeconds(1), 0, log);
        Recording lag = new Recording("lag", Duration.ofMillis(50), 0, log);
        loop.add(health);
        loop.add(lag);

        drive(loop, 1_000 * MS);

        assertThat(lag.runs).hasSize(21).startsWith(0L, 50 * MS, 100 * MS).endsWith(1_000 * MS);
        assertThat(health.runs).containsExactly(0L, 1_000 * MS);
        assertThat(lag.connections).allMatch(c -> c == connection);
        assertThat(health.connections).allMatch(c -> c == connection);
        // Due together, the shorter interval goes first, whatever the order the checks were added in.
        assertThat(log.subList(0, 2)).containsExactly("lag", "health");
        assertThat(log.subList(log.size() - 2, log.size())).containsExactly("lag", "health");
    }

    @Test
    void aRunThatOverranItsSlotIsFollowedAtOnceAndTheScheduleStaysFixed() {
        List<String> log = new ArrayList<>();
        BackendLoop loop = new BackendLoop("loop", connection, now::get);
        // The health probe takes 120 ms (a MyRocks stall read): the 50 ms lag poll due meanwhile runs right after it,
        // and its schedule starts again from there, as a poll that overran its own slot does.
        Recording health = new Recording("health", Duration.ofSeconds(1), 120 * MS, log);
        Recording lag = new Recording("lag", Duration.ofMillis(50), 0, log);
        loop.add(lag);
        loop.add(health);

        drive(loop, 300 * MS);

        assertThat(lag.runs).containsExactly(0L, 120 * MS, 170 * MS, 220 * MS, 270 * MS);
        assertThat(health.runs).containsExactly(0L);
    }

    @Test
    void theConnectionIsOpenedByTheCheckThatNeedsItWithThatChecksTimeoutsAndReopenedAfterAFailure() {
        List<Duration> timeouts = new ArrayList<>();
        ControlConnection shared = new ControlConnection((connectTimeout, socketTimeout) -> {
            timeouts.add(connectTimeout);
            throw new SQLTransientConnectionException("refused");
        });
        assertThatThrownBy(() -> shared.run(Duration.ofMillis(500), Duration.ofMillis(500), c -> 1))
                .isInstanceOf(SQLException.class).hasMessage("refused");
        assertThatThrownBy(() -> shared.run(Duration.ofSeconds(1), Duration.ofSeconds(2), c -> 1))
                .isInstanceOf(SQLException.class);
        assertThat(timeouts).containsExactly(Duration.ofMillis(500), Duration.ofSeconds(1));
    }

    @Test
    void startRunsTheChecksOnOneNamedThreadAndCloseEndsIt() throws Exception {
        BackendLoop loop = new BackendLoop("shardgate-monitor-test", connection);
        AtomicInteger runs = new AtomicInteger();
        List<String> threads = new ArrayList<>();
        CountDownLatch ranTwice = new CountDownLatch(2);
        BackendCheck probe = new BackendCheck() {
            @Override
            public Duration interval() {
                return Duration.ofMillis(5);
            }

            @Override
            public Duration longestRun() {
                return Duration.ofSeconds(5);
            }

            @Override
            public void run(ControlConnection c) {
                try {
                    c.run(Duration.ofMillis(1), Duration.ofMillis(1), x -> 1);
                } catch (SQLException expected) {
                    // The fake connector refuses, like a dead server.
                }
                synchronized (threads) {
                    threads.add(Thread.currentThread().getName());
                }
                runs.incrementAndGet();
                ranTwice.countDown();
            }
        };
        loop.add(probe);
        loop.start();
        assertThat(ranTwice.await(10, TimeUnit.SECONDS)).isTrue();
        loop.close();

        assertThat(loop.isStopped()).isTrue();
        synchronized (threads) {
            assertThat(threads).containsOnly("shardgate-monitor-test");
        }
        assertThat(connects.get()).as("each failed run reconnects on the next").isEqualTo(runs.get());
        assertThatThrownBy(() -> loop.add(probe)).hasMessage("shardgate-monitor-test already started");
        assertThatThrownBy(loop::start).hasMessage("shardgate-monitor-test already started");
    }

    @Test
    void theRegistryHasOneLoopPerServer() {
        try (BackendLoops loops = new BackendLoops("monitor", "secret")) {
            BackendLoop primary = loops.loop("10.0.0.1", 3306);
            assertThat(loops.loop("10.0.0.1", 3306)).isSameAs(primary);
            assertThat(loops.loop("10.0.0.2", 3306)).isNotSameAs(primary);
            assertThat(loops.loops()).extracting(BackendLoop::name)
                    .containsExactly("shardgate-monitor-10.0.0.1:3306", "shardgate-monitor-10.0.0.2:3306");
            loops.start();
            assertThat(loops.loops()).allMatch(BackendLoop::isStopped);
            assertThatThrownBy(() -> loops.loop("10.0.0.3", 3306)).hasMessage("monitoring loops already started");
        }
    }
}
