package io.shardgate.proxy.frontend;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class SqlTextTest {

    @Test
    void searchIgnoresAsciiCase() {
        assertThat(SqlText.containsIgnoreCase("abc CONNECTION_id", "connection_id")).isTrue();
        assertThat(SqlText.containsIgnoreCase("connection_i", "connection_id")).isFalse();
        assertThat(SqlText.containsIgnoreCase("", "x")).isFalse();
    }

    @Test
    void firstLetterSkipsBlanks() {
        assertThat(SqlText.startsWithLetter("  \n Kill 3", 'k')).isTrue();
        assertThat(SqlText.startsWithLetter("SELECT 1", 'k')).isFalse();
        assertThat(SqlText.startsWithLetter("   ", 'k')).isFalse();
    }
}
