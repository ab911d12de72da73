package io.shardgate.router.vindex;

import io.shardgate.router.value.SqlValue;
import io.shardgate.router.shard.KeyRange;
import io.shardgate.router.shard.ShardRanges;
import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class VindexTest {

    private final ShardRanges halves = new ShardRanges(Map.of("s0", KeyRange.parse("-80"), "s1", KeyRange.parse("80-")));

    @Test
    void hashPlacesByTheKeyspaceIdOfTheCanonicalForm() {
        HashVindex hash = new HashVindex(KeyType.INTEGER);
        ShardKey five = KeyType.INTEGER.lookup(SqlValue.of(5L)).orElseThrow();
        assertThat(hash.keyspaceId(five)).isEqualTo(XxHash64.hash(new byte[] {'5'})).isEqualTo(0x6A81B47405B648EDL);
        assertThat(hash.shardOf(five, halves)).contains("s0");
        assertThat(hash.shardOf(KeyType.INTEGER.lookup(SqlValue.of("5")).orElseThrow(), halves)).contains("s0");
        assertThat(hash.describe()).isEqualTo("hash(integer)");
    }

    @Test
    void hashSpreadsConsecutiveIdsEvenly() {
        HashVindex hash = new HashVindex(KeyType.INTEGER);
        int onFirst = 0;
        for (long id = 1; id <= 10_000; id++) {
            if (hash.shardOf(KeyType.INTEGER.lookup(SqlValue.of(id)).orElseThrow(), halves).orElseThrow().equals("s0")) {
                onFirst++;
            }
        }
        assertThat(onFirst).isBetween(4_700, 5_300);
    }

    @Test
    void shardRangesFindTheOwner() {
        ShardRanges quarters = new ShardRanges(Map.of("a", KeyRange.parse("-40"), "b", KeyRange.parse("40-80"),
                "c", KeyRange.parse("80-c0"), "d", KeyRange.parse("c0-")));
        assertThat(quarters.shardFor(0)).isEqualTo("a");
        assertThat(quarters.shardFor(0x4000_0000_0000_0000L)).isEqualTo("b");
        assertThat(quarters.shardFor(0xBFFF_FFFF_FFFF_FFFFL)).isEqualTo("c");
        assertThat(quarters.shardFor(-1L)).isEqualTo("d");
    }

    @Test
    void rangeTakesTheFirstBoundAKeyIsBelow() {
        RangeVindex range = new RangeVindex(KeyType.INTEGER, List.of(
                new RangeVindex.Bound(SqlValue.of(1000L), "s0"), new RangeVindex.Bound(SqlValue.of(2000L), "s1"), new RangeVindex.Bound(null, "s2")));
        assertThat(range.shardOf(key(-5), halves)).contains("s0");
        assertThat(range.shardOf(key(999), halves)).contains("s0");
        assertThat(range.shardOf(key(1000), halves)).contains("s1");
        assertThat(range.shardOf(key(1_000_000), halves)).contains("s2");
        RangeVindex bounded = new RangeVindex(KeyType.INTEGER, List.of(new RangeVindex.Bound(SqlValue.of(10L), "s0")));
        assertThat(bounded.shardOf(key(10), halves)).isEmpty();
        assertThat(new RangeVindex(KeyType.INTEGER, List.of(new RangeVindex.Bound(SqlValue.of("10"), "s0"))))
                .as("equal definitions are equal: tables using them are co-located").isEqualTo(bounded);
    }

    @Test
    void rangeBoundsMustIncrease() {
        assertThatThrownBy(() -> new RangeVindex(KeyType.INTEGER, List.of(
                new RangeVindex.Bound(SqlValue.of(10L), "s0"), new RangeVindex.Bound(SqlValue.of(5L), "s1"))))
                .hasMessage("ranges[1].less_than: 5 must be above the previous bound 10");
        assertThatThrownBy(() -> new RangeVindex(KeyType.INTEGER, List.of(
                new RangeVindex.Bound(null, "s0"), new RangeVindex.Bound(SqlValue.of(5L), "s1"))))
                .hasMessage("ranges[0]: only the last range may omit less_than");
        assertThatThrownBy(() -> new RangeVindex(KeyType.INTEGER, List.of(new RangeVindex.Bound(SqlValue.of("x"), "s0"))))
                .hasMessage("ranges[0].less_than: 'x' is not a integer value");
    }

    @Test
    void listLooksValuesUpUnderTheCollation() {
        Map<String, List<SqlValue>> lists = new LinkedHashMap<>();
        lists.put("s0", List.of(SqlValue.ofText("eu"), SqlValue.ofText("uk")));
        lists.put("s1", List.of(SqlValue.ofText("us")));
        KeyType type = KeyType.of("string", null);
        ListVindex list = new ListVindex(type, lists);
        assertThat(list.shardOf(type.lookup(SqlValue.of("EU")).orElseThrow(), halves)).contains("s0");
        assertThat(list.shardOf(type.lookup(SqlValue.of("us ")).orElseThrow(), halves)).contains("s1");
        assertThat(list.shardOf(type.lookup(SqlValue.of("fr")).orElseThrow(), halves)).isEmpty();
        lists.put("s1", List.of(SqlValue.ofText("us"), SqlValue.ofText("UK")));
        assertThatThrownBy(() -> new ListVindex(type, lists))
                .hasMessage("lists.s1: 'UK' equals a value listed for shard s0 (under string utf8mb4_general_ci)");
    }

    private static ShardKey key(long value) {
        return KeyType.INTEGER.lookup(SqlValue.of(value)).orElseThrow();
    }
}
