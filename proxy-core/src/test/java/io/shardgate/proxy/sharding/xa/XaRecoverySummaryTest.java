package io.shardgate.proxy.sharding.xa;

import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class XaRecoverySummaryTest {

    @Test
    void totalsAddUpTheShardsAndTheLogLineNamesEachInOrder() {
        Map<String, XaRecoverySummary.Shard> shards = new LinkedHashMap<>();
        shards.put("s1", new XaRecoverySummary.Shard(true, 2, 1, 0, 0, 0));
        shards.put("s0", new XaRecoverySummary.Shard(false, 0, 0, 0, 0, 0));
        shards.put("s2", new XaRecoverySummary.Shard(true, 1, 3, 1, 2, 4));

        XaRecoverySummary summary = new XaRecoverySummary(shards, 5);

        assertThat(summary.committed()).isEqualTo(3);
        assertThat(summary.rolledBack()).isEqualTo(4);
        assertThat(summary.failed()).isEqualTo(4);
        assertThat(summary).hasToString("s1: 2 committed, 1 rolled back, 0 in flight, 0 unavailable, 0 failed; "
                + "s0: XA RECOVER failed, 0 committed, 0 rolled back, 0 in flight, 0 unavailable, 0 failed; "
                + "s2: 1 committed, 3 rolled back, 1 in flight, 2 unavailable, 4 failed; 5 decisions deleted");
    }

    @Test
    void theSummaryDoesNotChangeWithTheMapItWasMadeFrom() {
        Map<String, XaRecoverySummary.Shard> shards = new LinkedHashMap<>();
        shards.put("s0", new XaRecoverySummary.Shard(true, 1, 0, 0, 0, 0));
        XaRecoverySummary summary = new XaRecoverySummary(shards, 0);

        shards.put("s1", new XaRecoverySummary.Shard(true, 1, 0, 0, 0, 0));

        assertThat(summary.shards()).containsOnlyKeys("s0");
        assertThat(summary.committed()).isEqualTo(1);
    }
}
