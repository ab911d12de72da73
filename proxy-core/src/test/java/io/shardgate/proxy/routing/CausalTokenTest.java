package io.shardgate.proxy.routing;

import io.shardgate.replication.gtid.MariaDbGtid;
import io.shardgate.replication.gtid.MariaDbGtidPosition;
import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class CausalTokenTest {
    private static MariaDbGtidPosition position(String text) {
        return MariaDbGtidPosition.parse(text);
    }

    @Test
    void versionOneNamesOnePositionThatHoldsForEveryShard() {
        String token = CausalToken.of(position("0-1-42,1-2-7"));
        assertThat(token).isEqualTo("sg1:mariadb:0-1-42,1-2-7");
        CausalToken.Presented presented = CausalToken.parse(token);
        assertThat(presented.byShard()).isEmpty();
        assertThat(presented.forShard("s0")).isEqualTo(position("0-1-42,1-2-7"));
        assertThat(presented.forShard("any")).isEqualTo(position("0-1-42,1-2-7"));
        assertThat(CausalToken.parse("sg1:mariadb:").forShard("s0").isEmpty()).isTrue();
    }

    @Test
    void versionTwoKeysPositionsByShardSortedAndLeavesOutEmptyOnes() {
        Map<String, MariaDbGtidPosition> byShard = new LinkedHashMap<>();
        byShard.put("s1", position("0-2-9"));
        byShard.put("s0", position("0-1-42,1-1-3"));
        byShard.put("s2", MariaDbGtidPosition.empty());
        String token = CausalToken.of(byShard);
        assertThat(token).isEqualTo("sg2:mariadb:s0=0-1-42,1-1-3;s1=0-2-9");
        CausalToken.Presented presented = CausalToken.parse(token);
        // Shards share domain 0 here: each keeps its own sequence number.
        assertThat(presented.forShard("s0")).isEqualTo(position("0-1-42,1-1-3"));
        assertThat(presented.forShard("s1")).isEqualTo(position("0-2-9"));
        assertThat(presented.forShard("s2").isEmpty()).isTrue();
        assertThat(CausalToken.of(Map.of())).isEqualTo("sg2:mariadb:");
        assertThat(CausalToken.parse("sg2:mariadb:").byShard()).isEmpty();
        assertThat(CausalToken.parse("").byShard()).isEmpty();
    }

    @Test
    void shardNamesOutsideTheSafeCharactersArePercentEncoded() {
        String name = "eu west;1=ä'";
        String token = CausalToken.of(Map.of(name, position("3-1-5"), "a.b_c-d", position("0-1-1")));
        assertThat(token).isEqualTo("sg2:mariadb:a.b_c-d=0-1-1;eu%20west%3B1%3D%C3%A4%27=3-1-5");
        assertThat(CausalToken.parse(token).forShard(name)).isEqualTo(position("3-1-5"));
        assertThat(CausalToken.parse(token).forShard("a.b_c-d")).isEqualTo(position("0-1-1"));
    }

    @Test
    void malformedTokensAreRefused() {
        for (String bad : List.of("nonsense", "sg1:mariadb:x", "sg2:mariadb:s0", "sg2:mariadb:=0-1-1", "sg2:mariadb:s0=0-1-1;",
                "sg2:mariadb:s0=0-1-1;s0=0-1-2", "sg2:mariadb:s%2=0-1-1", "sg2:mariadb:s 0=0-1-1", "sg3:mariadb:s0=0-1-1",
                "sg2:mysql:s0=0-1-1")) {
            assertThatThrownBy(() -> CausalToken.parse(bad)).as(bad).isInstanceOf(IllegalArgumentException.class);
        }
    }

    @Test
    void positionsGrowPerShardWithCommitsAndPresentedTokens() {
        CausalPositions positions = new CausalPositions();
        assertThat(positions.of("s0").isEmpty()).isTrue();
        assertThat(positions.committed("s0", MariaDbGtid.parse("0-1-10"))).isEqualTo(position("0-1-10"));
        positions.committed("s1", MariaDbGtid.parse("0-2-4"));
        positions.committed("s0", MariaDbGtid.parse("0-1-8"));
        assertThat(positions.of("s0")).as("never goes back").isEqualTo(position("0-1-10"));
        positions.present(CausalToken.parse("sg2:mariadb:s0=0-1-7,5-1-1;s1=0-2-20;s9=0-9-9"));
        assertThat(positions.of("s0")).isEqualTo(position("0-1-10,5-1-1"));
        assertThat(positions.of("s1")).isEqualTo(position("0-2-20"));
        assertThat(positions.of(List.of("s0", "s1", "s2"))).containsExactly(
                Map.entry("s0", position("0-1-10,5-1-1")), Map.entry("s1", position("0-2-20")));
        positions.present(CausalToken.parse("sg1:mariadb:0-1-30"));
        assertThat(positions.of("s1")).as("domain 0 at 30, whoever wrote it").isEqualTo(position("0-1-30"));
        assertThat(positions.of("s2")).isEqualTo(position("0-1-30"));
        assertThat(CausalToken.of(positions.of(List.of("s0", "s1")))).isEqualTo("sg2:mariadb:s0=0-1-30,5-1-1;s1=0-1-30");
    }
}
