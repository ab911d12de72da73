package io.shardgate.proxy.reshard;

import io.shardgate.replication.diff.DiffCheckpoint;
import io.shardgate.storage.checksum.TableName;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.Arrays;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** A diff checkpoint survives the job store: its key values come back with the types the driver read them as. */
class ReshardDiffTest {
    private final TableName table = new TableName("shop", "customers");

    @Test
    void keyValuesRoundTripWithTheirTypes() {
        byte[] bytes = {0, 1, (byte) 0xff};
        DiffCheckpoint checkpoint = new DiffCheckpoint(table, Arrays.asList(42L, new BigInteger("18446744073709551615"),
                new BigDecimal("12.50"), "Ä b", bytes, null), false, 3, 10, 1500, 2);
        DiffCheckpoint back = ReshardDiff.read(table, ReshardDiff.write(checkpoint));
        assertThat(back.comparedBelow()).hasSize(6);
        assertThat(back.comparedBelow().get(0)).isEqualTo(42L);
        assertThat(back.comparedBelow().get(1)).isEqualTo(new BigInteger("18446744073709551615"));
        assertThat(back.comparedBelow().get(2)).isEqualTo(new BigDecimal("12.50"));
        assertThat(back.comparedBelow().get(3)).isEqualTo("Ä b");
        assertThat((byte[]) back.comparedBelow().get(4)).containsExactly(bytes);
        assertThat(back.comparedBelow().get(5)).isNull();
        assertThat(back.finished()).isFalse();
        assertThat(List.of(back.chunksDone(), back.chunksTotalEstimate(), back.rowsCompared(), back.mismatches()))
                .containsExactly(3L, 10L, 1500L, 2L);
    }

    @Test
    void aFinishedCleanDiffStaysFinishedAndClean() {
        DiffCheckpoint done = new DiffCheckpoint(table, List.of(99L), true, 6, 6, 9965, 0);
        assertThat(ReshardDiff.read(table, ReshardDiff.write(done)).clean()).isTrue();
    }
}
