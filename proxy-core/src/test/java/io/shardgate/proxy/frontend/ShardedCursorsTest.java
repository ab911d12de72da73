package io.shardgate.proxy.frontend;

import io.shardgate.router.classify.StatementClass;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** Which planned executes open a cursor ({@link ShardedCursors#opens}), and that closing a statement without one is immediate. */
class ShardedCursorsTest {

    @Test
    void theReadOnlyCursorFlagOpensACursorForStatementsWithAResultSetOnly() {
        assertThat(ShardedCursors.opens(0x01, StatementClass.READ)).isTrue();
        assertThat(ShardedCursors.opens(0x01, StatementClass.SHOW)).as("MariaDB opens one for SHOW too").isTrue();
        assertThat(ShardedCursors.opens(0x01, StatementClass.LOCKING_READ)).isTrue();
        assertThat(ShardedCursors.opens(0x09, StatementClass.READ)).as("with MariaDB's PARAMETER_COUNT_AVAILABLE bit").isTrue();
        assertThat(ShardedCursors.opens(0x00, StatementClass.READ)).isFalse();
        assertThat(ShardedCursors.opens(0x02, StatementClass.READ)).as("CURSOR_TYPE_FOR_UPDATE alone").isFalse();
        assertThat(ShardedCursors.opens(0x01, StatementClass.WRITE)).as("a write answers as without the flag").isFalse();
    }

    @Test
    void aStatementWithoutACursorHasNothingToFetchOrClose() {
        ShardedCursors cursors = new ShardedCursors();
        assertThat(cursors.fetch(3, 7, null)).isNull();
        assertThat(cursors.close(3)).isCompleted();
        cursors.closeAll();
        assertThat(cursors.fetch(3, 7, null)).isNull();
    }
}
