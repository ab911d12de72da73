package io.shardgate.replication.gtid;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class MariaDbGtidPositionTest {

    @Test
    void parsesAndPrintsDomainsInOrder() {
        MariaDbGtidPosition position = MariaDbGtidPosition.parse("1-3-7, 0-1-42");
        assertThat(position.toString()).isEqualTo("0-1-42,1-3-7");
        assertThat(position.byDomain().get(1L)).isEqualTo(new MariaDbGtid(1, 3, 7));
        assertThat(MariaDbGtidPosition.parse("").isEmpty()).isTrue();
    }

    @Test
    void reachedComparesSequencesPerDomainIgnoringServerIds() {
        MariaDbGtidPosition replica = MariaDbGtidPosition.parse("0-1-42,1-3-7");
        assertThat(replica.hasReached(MariaDbGtidPosition.parse("0-2-42"))).isTrue();
        assertThat(replica.hasReached(MariaDbGtidPosition.parse("0-1-43"))).isFalse();
        assertThat(replica.hasReached(MariaDbGtidPosition.parse("2-1-1"))).as("unknown domain").isFalse();
        assertThat(replica.hasReached(MariaDbGtidPosition.empty())).isTrue();
        assertThat(MariaDbGtidPosition.empty().hasReached(replica)).isFalse();
    }

    @Test
    void withKeepsTheNewerGtid() {
        MariaDbGtidPosition position = MariaDbGtidPosition.parse("0-1-42");
        assertThat(position.with(MariaDbGtid.parse("0-1-41"))).isSameAs(position);
        assertThat(position.with(MariaDbGtid.parse("0-2-43")).toString()).isEqualTo("0-2-43");
        assertThat(position.with(MariaDbGtid.parse("5-1-1")).toString()).isEqualTo("0-1-42,5-1-1");
    }

    @Test
    void rejectsMalformedPositions() {
        assertThatThrownBy(() -> MariaDbGtidPosition.parse("0-1"))
                .hasMessageContaining("must be DOMAIN-SERVER-SEQUENCE");
        assertThatThrownBy(() -> MariaDbGtidPosition.parse("0-1-2,0-1-3"))
                .hasMessageContaining("names domain 0 twice");
        assertThatThrownBy(() -> MariaDbGtidPosition.parse("0-x-3"))
                .hasMessageContaining("must be DOMAIN-SERVER-SEQUENCE");
    }
}
