package io.shardgate.proxy.routing;

import static org.assertj.core.api.Assertions.assertThat;

import io.shardgate.replication.gtid.MariaDbGtid;
import io.shardgate.replication.gtid.MariaDbGtidPosition;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What each shard's replicas must have applied before they serve one session: its commits and the tokens it presented. */
class CausalPositionsTest {
    private final CausalPositions positions = new CausalPositions();

    private static MariaDbGtidPosition position(String text) {
        return MariaDbGtidPosition.parse(text);
    }

    @Test
    void aNewSessionNeedsNothingAnywhere() {
        assertThat(positions.of("s0").isEmpty()).isTrue();
        assertThat(positions.of(List.of("s0", "s1"))).isEmpty();
    }

    @Test
    void aCommitIsRequiredOfItsShardOnly() {
        MariaDbGtidPosition after = positions.committed("s0", MariaDbGtid.parse("0-1-5"));

        assertThat(after).isEqualTo(position("0-1-5"));
        assertThat(positions.of("s0")).isEqualTo(position("0-1-5"));
        assertThat(positions.of("s1").isEmpty()).isTrue();
        assertThat(positions.of(List.of("s0", "s1"))).containsOnlyKeys("s0");
    }

    @Test
    void laterCommitsMoveTheirDomainForwardAndKeepTheOthers() {
        positions.committed("s0", MariaDbGtid.parse("0-1-5"));
        positions.committed("s0", MariaDbGtid.parse("1-1-3"));
        positions.committed("s0", MariaDbGtid.parse("0-1-9"));

        assertThat(positions.of("s0")).isEqualTo(position("0-1-9,1-1-3"));
    }

    @Test
    void aTokenNamingShardsJoinsWhatTheSessionWroteItself() {
        positions.committed("s0", MariaDbGtid.parse("0-1-5"));
        positions.present(new CausalToken.Presented(Map.of("s0", position("0-1-3,2-1-8"), "s1", position("0-2-4")),
                MariaDbGtidPosition.empty()));

        assertThat(positions.of("s0")).as("the higher of each domain").isEqualTo(position("0-1-5,2-1-8"));
        assertThat(positions.of("s1")).isEqualTo(position("0-2-4"));
    }

    @Test
    void aTokenWithoutShardsIsRequiredOfEveryShard() {
        positions.present(new CausalToken.Presented(Map.of(), position("0-1-42")));
        positions.committed("s1", MariaDbGtid.parse("1-1-2"));

        assertThat(positions.of("s0")).isEqualTo(position("0-1-42"));
        assertThat(positions.of("s1")).isEqualTo(position("0-1-42,1-1-2"));
        assertThat(positions.of(List.of("s0", "s9"))).containsOnlyKeys("s0", "s9");
    }
}
