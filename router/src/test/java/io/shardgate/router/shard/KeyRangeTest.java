package io.shardgate.router.shard;

import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class KeyRangeTest {

    @Test
    void halvesSplitAtTheTopBit() {
        KeyRange low = KeyRange.parse("-80");
        KeyRange high = KeyRange.parse("80-");
        assertThat(low.contains(0L)).isTrue();
        assertThat(low.contains(0x7FFF_FFFF_FFFF_FFFFL)).isTrue();
        assertThat(low.contains(0x8000_0000_0000_0000L)).isFalse();
        assertThat(high.contains(0x8000_0000_0000_0000L)).isTrue();
        assertThat(high.contains(-1L)).as("0xFFFF... is the largest id, unsigned").isTrue();
        assertThat(low.toString()).isEqualTo("-80");
        assertThat(KeyRange.parse("40-80").toString()).isEqualTo("40-80");
        assertThat(KeyRange.parse("-").contains(-1L)).isTrue();
    }

    @Test
    void shortBoundsArePaddedOnTheRight() {
        assertThat(KeyRange.parse("8-")).isEqualTo(KeyRange.parse("8000000000000000-"));
    }

    @Test
    void rejectsMalformedRanges() {
        assertThatThrownBy(() -> KeyRange.parse("80"))
                .hasMessageContaining("must be START-END in hex");
        assertThatThrownBy(() -> KeyRange.parse("zz-"))
                .hasMessageContaining("bound 'zz' must be 1 to 16 hex digits");
        assertThatThrownBy(() -> KeyRange.parse("80-40"))
                .hasMessageContaining("is not below its end");
    }

    @Test
    void coverMustHaveNoGapAndNoOverlap() {
        KeyRanges.requireCompleteCover(ranges("s0", "-80", "s1", "80-"));
        KeyRanges.requireCompleteCover(ranges("a", "40-80", "b", "-40", "c", "80-"));
        assertThatThrownBy(() -> KeyRanges.requireCompleteCover(ranges("s0", "-80", "s1", "90-")))
                .hasMessage("key ranges leave a gap between shard s0 (-80) and shard s1 (90-)");
        assertThatThrownBy(() -> KeyRanges.requireCompleteCover(ranges("s0", "-90", "s1", "80-")))
                .hasMessage("key ranges of shard s0 (-90) and shard s1 (80-) overlap");
        assertThatThrownBy(() -> KeyRanges.requireCompleteCover(ranges("s0", "-80")))
                .hasMessageContaining("gap above -80");
        assertThatThrownBy(() -> KeyRanges.requireCompleteCover(ranges("s1", "80-")))
                .hasMessageContaining("gap below 80-");
    }

    private static Map<String, KeyRange> ranges(String... pairs) {
        Map<String, KeyRange> map = new LinkedHashMap<>();
        for (int i = 0; i < pairs.length; i += 2) {
            map.put(pairs[i], KeyRange.parse(pairs[i + 1]));
        }
        return map;
    }
}
