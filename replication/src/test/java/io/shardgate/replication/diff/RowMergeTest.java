package io.shardgate.replication.diff;

import io.shardgate.storage.checksum.RowChecksum;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class RowMergeTest {
    private final RowMerge merge = new RowMerge(KeyOrderTest.GENERAL_CI, List.of("t1", "t2"));

    private static RowChecksum row(String key, long crc) {
        return new RowChecksum(List.of(key), crc);
    }

    private List<String> compare(List<RowChecksum> source, List<RowChecksum> t1, List<RowChecksum> t2) {
        List<String> out = new ArrayList<>();
        merge.compare(source, List.of(t1, t2), mismatch -> out.add(mismatch.toString()));
        return out;
    }

    @Test
    void rowsSplitOverTwoTargetsInCollationOrderMatch() {
        // The servers order 'a' < 'B' < 'c' under utf8mb4_general_ci; a binary merge would see 'B' first.
        List<RowChecksum> source = List.of(row("a", 1), row("B", 2), row("c", 3), row("D", 4));
        assertThat(compare(source, List.of(row("a", 1), row("c", 3)), List.of(row("B", 2), row("D", 4)))).isEmpty();
    }

    @Test
    void keysEqualUnderTheCollationAreOneRow() {
        // 'A' on the target is the source's 'a': one row, whose stored bytes differ.
        assertThat(compare(List.of(row("a", 1), row("b", 2)), List.of(row("A", 9), row("b", 2)), List.of()))
                .containsExactly("DIFFERENT (a) on t1");
        assertThat(compare(List.of(row("x ", 5)), List.of(), List.of(row("X", 5)))).as("PAD SPACE and case").isEmpty();
    }

    @Test
    void missingExtraDifferentAndDuplicated() {
        List<RowChecksum> source = List.of(row("a", 1), row("b", 2), row("c", 3), row("e", 5));
        List<RowChecksum> t1 = List.of(row("a", 1), row("c", 30), row("e", 5));
        List<RowChecksum> t2 = List.of(row("d", 4), row("e", 5));
        assertThat(compare(source, t1, t2)).containsExactly(
                "MISSING_ON_TARGET (b)",
                "DIFFERENT (c) on t1",
                "EXTRA_ON_TARGET (d) on t2",
                "EXTRA_ON_TARGET (e) on t2");
    }

    @Test
    void theCopyThatMatchesIsKeptWhereverItIs() {
        assertThat(compare(List.of(row("a", 1)), List.of(row("a", 7)), List.of(row("a", 1))))
                .containsExactly("EXTRA_ON_TARGET (a) on t1");
        assertThat(compare(List.of(row("a", 1)), List.of(row("a", 7)), List.of(row("a", 8))))
                .containsExactly("DIFFERENT (a) on t1", "EXTRA_ON_TARGET (a) on t2");
        assertThat(compare(List.of(), List.of(), List.of())).isEmpty();
    }
}
