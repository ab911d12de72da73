package io.shardgate.replication.diff;

import io.shardgate.storage.checksum.PkRange;
import org.junit.jupiter.api.Test;

import java.math.BigInteger;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class LanesTest {

    @Test
    void anIntegerRangeSplitsIntoEqualSpansThatPartitionIt() {
        assertThat(Lanes.split(new PkRange(List.of(100L), List.of(400L)), 3, KeyOrderTest.INTEGER)).containsExactly(
                new PkRange(List.of(100L), List.of(200L)),
                new PkRange(List.of(200L), List.of(300L)),
                new PkRange(List.of(300L), List.of(400L)));
    }

    @Test
    void theLastPartTakesTheRemainderAndKeepsTheOriginalBounds() {
        List<PkRange> parts = Lanes.split(new PkRange(List.of(1), List.of(12)), 2, KeyOrderTest.INTEGER);
        assertThat(parts).containsExactly(new PkRange(List.of(1), List.of(6L)), new PkRange(List.of(6L), List.of(12)));
    }

    @Test
    void keysBeyondALongStayBigIntegers() {
        BigInteger lower = BigInteger.valueOf(Long.MAX_VALUE);
        BigInteger upper = lower.add(BigInteger.valueOf(10));
        assertThat(Lanes.split(new PkRange(List.of(lower), List.of(upper)), 2, KeyOrderTest.INTEGER)).containsExactly(
                new PkRange(List.of(lower), List.of(lower.add(BigInteger.valueOf(5)))),
                new PkRange(List.of(lower.add(BigInteger.valueOf(5))), List.of(upper)));
    }

    @Test
    void rangesThatCannotBeSplitStayWhole() {
        PkRange open = new PkRange(List.of(100L), List.of());
        PkRange first = new PkRange(List.of(), List.of(100L));
        PkRange narrow = new PkRange(List.of(100L), List.of(102L));
        PkRange text = new PkRange(List.of("a"), List.of("z"));
        assertThat(Lanes.split(open, 2, KeyOrderTest.INTEGER)).containsExactly(open);
        assertThat(Lanes.split(first, 2, KeyOrderTest.INTEGER)).containsExactly(first);
        assertThat(Lanes.split(narrow, 3, KeyOrderTest.INTEGER)).containsExactly(narrow);
        assertThat(Lanes.split(text, 2, KeyOrderTest.GENERAL_CI)).containsExactly(text);
        assertThat(Lanes.split(new PkRange(List.of(1L), List.of(100L)), 1, KeyOrderTest.INTEGER)).hasSize(1);
    }
}
