package io.shardgate.proxy.topology;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

class StoreAvailabilityTest {
    private static final long MS = 1_000_000;
    private final AtomicLong clock = new AtomicLong(1_000 * MS);
    private final StoreAvailability availability = new StoreAvailability(Duration.ofSeconds(1), clock::get);

    @Test
    void availableUntilFailingForTheGrace() {
        assertThat(availability.available()).isTrue();
        long probeStart = clock.get();
        clock.addAndGet(400 * MS);
        availability.failed(probeStart);
        assertThat(availability.available()).as("failing for 400 ms").isTrue();
        clock.addAndGet(599 * MS);
        assertThat(availability.available()).as("failing for 999 ms").isTrue();
        clock.addAndGet(MS);
        assertThat(availability.available()).as("failing for 1 s").isFalse();
    }

    @Test
    void countsFromTheEarliestFailedCall() {
        long early = clock.get();
        clock.addAndGet(500 * MS);
        availability.failed(clock.get());
        availability.failed(early);
        clock.addAndGet(500 * MS);
        assertThat(availability.available()).isFalse();
    }

    @Test
    void oneAnswerMakesItAvailableAgain() {
        availability.failed(clock.get());
        clock.addAndGet(5_000 * MS);
        assertThat(availability.available()).isFalse();
        availability.answered();
        assertThat(availability.available()).isTrue();
        long next = clock.get();
        clock.addAndGet(999 * MS);
        availability.failed(next);
        assertThat(availability.available()).as("a new outage counts from its own start").isTrue();
    }
}
