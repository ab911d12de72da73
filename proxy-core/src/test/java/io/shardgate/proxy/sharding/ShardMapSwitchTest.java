package io.shardgate.proxy.sharding;

import io.shardgate.router.schema.Shard;
import io.shardgate.router.schema.ShardingSchema;
import io.shardgate.router.shard.KeyRange;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/** Which shards a cutover's new owners inherit keys from (their readers must see the old owners' writes). */
class ShardMapSwitchTest {
    private static ShardingSchema map(String... shardAndRange) {
        List<Shard> shards = new java.util.ArrayList<>();
        for (int i = 0; i < shardAndRange.length; i += 2) {
            shards.add(new Shard(shardAndRange[i], KeyRange.parse(shardAndRange[i + 1])));
        }
        return new ShardingSchema(shards, List.of());
    }

    @Test
    void aSplitShardsKeysAreInheritedByEachNewShard() {
        ShardingSchema before = map("s0", "-80", "s1", "80-");
        ShardingSchema after = map("s0", "-80", "s2", "80-c0", "s3", "c0-");
        Map<String, Set<String>> inherited = ShardedDeployment.inherit(Map.of(), before, after);
        assertThat(inherited).containsOnly(Map.entry("s2", Set.of("s1")), Map.entry("s3", Set.of("s1")));
    }

    @Test
    void aShardThatKeepsItsRangeInheritsNothingAndEarlierMovesAreKept() {
        ShardingSchema first = map("s0", "-80", "s1", "80-");
        ShardingSchema second = map("s0", "-80", "s2", "80-c0", "s3", "c0-");
        ShardingSchema third = map("s0", "-40", "s4", "40-80", "s2", "80-c0", "s3", "c0-");
        Map<String, Set<String>> inherited = ShardedDeployment.inherit(ShardedDeployment.inherit(Map.of(), first, second), second, third);
        assertThat(inherited.get("s4")).containsExactly("s0");
        assertThat(inherited.get("s0")).as("s0 shrank: it gained nothing new, but its range is new").isEmpty();
        assertThat(inherited.get("s2")).containsExactly("s1");
    }
}
