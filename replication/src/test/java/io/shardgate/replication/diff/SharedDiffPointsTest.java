package io.shardgate.replication.diff;

import io.shardgate.replication.gtid.MariaDbGtidPosition;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SharedDiffPointsTest {
    private final List<FakeSet> opened = new ArrayList<>();
    private long now = 1_000;
    private boolean usable = true;
    private final SharedDiffPoints shared = new SharedDiffPoints(() -> {
        FakeSet set = new FakeSet();
        opened.add(set);
        return set;
    }, Duration.ofNanos(100), () -> now, set -> usable);

    /** A set without connections: what the diffs read is not this test's concern, only what is opened and closed. */
    private static final class FakeSet implements MatchedSnapshots {
        int closed;

        @Override
        public Connection source() {
            return null;
        }

        @Override
        public List<Connection> targets() {
            return List.of();
        }

        @Override
        public MariaDbGtidPosition position() {
            return MariaDbGtidPosition.empty();
        }

        @Override
        public void close() {
            closed++;
        }
    }

    @Test
    void oneSetServesTheTablesOneAfterTheOtherWhileItIsYoung() throws SQLException {
        MatchedSnapshots first = shared.open();
        first.close();
        now += 99;
        MatchedSnapshots second = shared.open();
        second.close();
        assertThat(opened).hasSize(1);
        assertThat(opened.get(0).closed).as("a diff's close only gives the set back").isZero();
        assertThat(second.openedNanos()).as("the second diff sees how old it is").hasValue(1_000);
        shared.close();
        assertThat(opened.get(0).closed).isEqualTo(1);
    }

    @Test
    void anOldSetIsClosedAndReplaced() throws SQLException {
        shared.open().close();
        now += 100;
        MatchedSnapshots next = shared.open();
        assertThat(opened).hasSize(2);
        assertThat(opened.get(0).closed).isEqualTo(1);
        assertThat(opened.get(1).closed).isZero();
        assertThat(next.openedNanos()).hasValue(1_100);
        next.close();
        shared.close();
        assertThat(opened.get(1).closed).isEqualTo(1);
    }

    @Test
    void aSetWhoseConnectionsNoLongerAnswerIsReplaced() throws SQLException {
        shared.open().close();
        usable = false;
        shared.open().close();
        assertThat(opened).hasSize(2);
        assertThat(opened.get(0).closed).isEqualTo(1);
    }

    @Test
    void aSetInUseIsNotLentTwice() throws SQLException {
        MatchedSnapshots first = shared.open();
        assertThatThrownBy(shared::open).isInstanceOf(IllegalStateException.class).hasMessageContaining("still in use");
        first.close();
        first.close(); // twice: still given back once
        assertThat(shared.open()).isNotNull();
        assertThat(opened).hasSize(1);
    }
}
