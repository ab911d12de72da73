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
    void stringSearchFindsWhatTheCharByCharSearchFinds() {
        // A String is searched with indexOf, any other CharSequence char by char: same answers, non-ASCII included.
        String[] texts = {"", "d", "DROP", "xdrop", "dro", "Dd drOp", "SET SESSION_TRACK_schema=0", "session_trac",
                "connection_id", "\u0130connection_ID", "CONNECTION_\u0130D", "shard\u212Agate", "SHARDGATE", "shardgat",
                "a @@transaction_isolation", "TRANSACTION", "\u00e9drop\u20ac", "ddrop", "dropdrop"};
        String[] needles = {"drop", "session_track_", "connection_id", "shardgate", "transaction_", "id"};
        int found = 0;
        for (String text : texts) {
            for (String needle : needles) {
                boolean fast = SqlText.containsIgnoreCase(text, needle);
                assertThat(fast).as("%s in %s", needle, text).isEqualTo(SqlText.containsIgnoreCase(new StringBuilder(text), needle));
                found += fast ? 1 : 0;
            }
        }
        assertThat(found).isEqualTo(15);
    }

    @Test
    void firstLetterSkipsBlanks() {
        assertThat(SqlText.startsWithLetter("  \n Kill 3", 'k')).isTrue();
        assertThat(SqlText.startsWithLetter("SELECT 1", 'k')).isFalse();
        assertThat(SqlText.startsWithLetter("   ", 'k')).isFalse();
    }
}
