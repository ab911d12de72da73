package io.shardgate.proxy.digest;

import io.shardgate.proxy.config.DigestsConfig;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

class QueryDigestsTest {
    private final AtomicLong clock = new AtomicLong(1_700_000_000_000L);

    @Test
    void aMillionDistinctStatementsStayWithinTheBound() {
        QueryDigests digests = new QueryDigests(new DigestsConfig(true, 1000, 20), clock::get);
        DigestRecorder recorder = new DigestRecorder(digests);
        int statements = 1_000_000;
        for (int i = 0; i < statements; i++) {
            recorder.start("SELECT c FROM t" + i + " WHERE id = " + i, false, "db");
            recorder.finish(false, 1, 0, 1);
        }
        assertThat(digests.size()).isEqualTo(1000);
        assertThat(digests.overflow().count()).isEqualTo(statements - 1000);
        List<DigestSnapshot> top = digests.top(QueryDigests.Order.COUNT, 1);
        assertThat(top).singleElement().satisfies(s -> {
            assertThat(s.digest()).isEqualTo("(overflow)");
            assertThat(s.text()).isEqualTo("(overflow)");
            assertThat(s.count()).isEqualTo(statements - 1000);
            assertThat(s.rowsSent()).isEqualTo(statements - 1000);
        });
        assertThat(digests.top(QueryDigests.Order.COUNT, 10_000)).hasSize(1001);
    }

    @Test
    void statementsDifferingInValuesCountTogetherPerSchema() {
        QueryDigests digests = new QueryDigests(new DigestsConfig(true, 100, 20), clock::get);
        DigestRecorder recorder = new DigestRecorder(digests);
        recorder.start("SELECT c FROM t WHERE id = 1", false, "a");
        recorder.finish(false, 1, 0, 1);
        clock.addAndGet(5000);
        recorder.start("select c from t where id=2", false, "a");
        recorder.finish(true, 0, 0, 1);
        recorder.start("SELECT c FROM t WHERE id = 3", false, "b");
        recorder.finish(false, 4, 0, 2);
        recorder.start("UPDATE t SET c = 'x' WHERE id IN (1, 2, 3)", false, "a");
        recorder.error();
        recorder.end();
        recorder.end(); // nothing under way any more: no-op
        recorder.finish(false, 9, 9, 9); // likewise

        assertThat(digests.size()).isEqualTo(3);
        List<DigestSnapshot> byCount = digests.top(QueryDigests.Order.COUNT, 10);
        DigestSnapshot select = byCount.get(0);
        assertThat(select.text()).isEqualTo("SELECT c FROM t WHERE id = ?");
        assertThat(select.schema()).isEqualTo("a");
        assertThat(select.count()).isEqualTo(2);
        assertThat(select.errors()).isEqualTo(1);
        assertThat(select.rowsSent()).isEqualTo(1);
        assertThat(select.shardsTouched()).isEqualTo(2);
        assertThat(select.shardedCount()).isZero();
        assertThat(select.lastSeenMillis() - select.firstSeenMillis()).isEqualTo(5000);
        assertThat(select.digest()).matches("[0-9a-f]{16}");
        DigestSnapshot inB = byCount.stream().filter(s -> s.schema().equals("b")).findFirst().orElseThrow();
        assertThat(inB.digest()).isEqualTo(select.digest());
        assertThat(inB.shardedCount()).isEqualTo(1);
        assertThat(digests.top(QueryDigests.Order.ERRORS, 10)).extracting(DigestSnapshot::errors).containsExactly(1L, 1L, 0L);
        assertThat(digests.top(QueryDigests.Order.ERRORS, 2)).extracting(DigestSnapshot::text)
                .containsExactlyInAnyOrder("SELECT c FROM t WHERE id = ?", "UPDATE t SET c = ? WHERE id IN (...)");
        assertThat(digests.top(QueryDigests.Order.ROWS_SENT, 1)).extracting(DigestSnapshot::rowsSent).containsExactly(4L);
        assertThat(digests.overflow().count()).isZero();
    }

    @Test
    void theTextIsBounded() {
        QueryDigests digests = new QueryDigests(DigestsConfig.DEFAULTS, clock::get);
        DigestRecorder recorder = new DigestRecorder(digests);
        recorder.start("SELECT " + "a_long_column_name, ".repeat(500) + "x FROM t", false, "db");
        recorder.end();
        DigestSnapshot only = digests.top(QueryDigests.Order.COUNT, 1).get(0);
        assertThat(only.text()).hasSize(1024).endsWith("...");
    }

    @Test
    void offRecordsNothing() {
        QueryDigests digests = QueryDigests.off();
        DigestRecorder recorder = new DigestRecorder(digests);
        recorder.start("SELECT 1", false, "db");
        recorder.finish(false, 1, 0, 1);
        assertThat(digests.size()).isZero();
        assertThat(digests.top(QueryDigests.Order.COUNT, 10)).isEmpty();
        DigestRecorder disabled = DigestRecorder.disabled();
        disabled.start("SELECT 1", false, "db");
        disabled.end();
    }

    @Test
    void concurrentConnectionsOvershootTheBoundByAtMostTheirNumber() throws Exception {
        QueryDigests digests = new QueryDigests(new DigestsConfig(true, 500, 20), clock::get);
        int threads = 4;
        int each = 20_000;
        Thread[] workers = new Thread[threads];
        for (int t = 0; t < threads; t++) {
            int id = t;
            workers[t] = new Thread(() -> {
                DigestRecorder recorder = new DigestRecorder(digests);
                for (int i = 0; i < each; i++) {
                    recorder.start("SELECT * FROM t" + id + "_" + i, false, "db");
                    recorder.end();
                }
            });
            workers[t].start();
        }
        for (Thread worker : workers) {
            worker.join();
        }
        assertThat(digests.size()).isBetween(500, 500 + threads);
        long counted = digests.top(QueryDigests.Order.COUNT, 100_000).stream().mapToLong(DigestSnapshot::count).sum();
        assertThat(counted).isEqualTo((long) threads * each);
    }
}
