package io.shardgate.proxy.sharding;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class OneShotTransactionTest {

    @Test
    void setTransactionBecomesSessionScopedByItsTokens() {
        assertThat(OneShotTransaction.sessionScoped("/* x */ set transaction ISOLATION LEVEL READ COMMITTED"))
                .isEqualTo("/* x */ set SESSION transaction ISOLATION LEVEL READ COMMITTED");
        assertThat(OneShotTransaction.sessionScoped("SET SESSION TRANSACTION READ ONLY")).isEqualTo("SET SESSION TRANSACTION READ ONLY");
    }
}
