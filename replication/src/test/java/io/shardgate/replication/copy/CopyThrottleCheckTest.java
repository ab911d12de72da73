package io.shardgate.replication.copy;

import io.shardgate.replication.stream.ServerEndpoint;
import io.shardgate.router.shard.KeyRange;
import io.shardgate.storage.Engine;
import io.shardgate.storage.StorageAdapters;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/** Between chunks the copy asks its throttle at most once per throttle pause (an ask may open connections). */
class CopyThrottleCheckTest {
    private final AtomicInteger asked = new AtomicInteger();
    private final Throttle busy = () -> {
        asked.incrementAndGet();
        return Optional.of("replica lags");
    };

    private TableCopy copy(Duration throttlePause) {
        ServerEndpoint nowhere = new ServerEndpoint("127.0.0.1", 1, "copy", "secret");
        return new TableCopy(nowhere, List.of(CopyTable.whole("shop", "items")),
                List.of(new CopyTarget("s2", nowhere, KeyRange.parse("-"), Engine.INNODB)),
                CopySettings.defaults().withThrottlePause(throttlePause), busy, checkpoint -> { },
                StorageAdapters.load(getClass().getClassLoader()), notice -> { });
    }

    @Test
    void withinOnePauseTheLastAnswerStands() {
        TableCopy copy = copy(Duration.ofHours(1));

        assertThat(copy.throttledNow()).isTrue();
        assertThat(copy.throttledNow()).isTrue();
        assertThat(asked).hasValue(1);
    }

    @Test
    void afterThePauseItAsksAgain() {
        TableCopy copy = copy(Duration.ZERO);

        assertThat(copy.throttledNow()).isTrue();
        assertThat(copy.throttledNow()).isTrue();
        assertThat(asked).hasValue(2);
    }
}
