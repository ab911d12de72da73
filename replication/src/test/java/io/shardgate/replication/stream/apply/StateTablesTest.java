package io.shardgate.replication.stream.apply;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class StateTablesTest {
    @Test
    void theDefaultStreamKeepsTheTablesItAlwaysHad() {
        assertThat(StateTables.of("")).isEqualTo(new StateTables("`_shardgate`.`apply_position`", "`_shardgate`.`schema_history`"));
    }

    @Test
    void aNamespaceHasTablesOfItsOwn() {
        StateTables tables = StateTables.of("rev_j1_s2");
        assertThat(tables.positions()).isEqualTo("`_shardgate`.`apply_position_rev_j1_s2`");
        assertThat(tables.history()).isEqualTo("`_shardgate`.`schema_history_rev_j1_s2`");
    }

    @Test
    void aNamespaceThatCouldBreakOutOfItsNameOrGrowPastTheLimitIsRefused() {
        assertThatThrownBy(() -> StateTables.of("x`; DROP TABLE t")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> StateTables.of("a-b")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> StateTables.of("é")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> StateTables.of("n".repeat(41))).hasMessageContaining("at most 40");
        assertThat(StateTables.of("n".repeat(40)).history()).hasSizeLessThanOrEqualTo("`_shardgate`.``".length() + 64);
    }
}
