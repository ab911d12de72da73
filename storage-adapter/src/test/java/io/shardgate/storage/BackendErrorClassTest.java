package io.shardgate.storage;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.assertj.core.api.Assertions.assertThat;

class BackendErrorClassTest {

    @ParameterizedTest
    @CsvSource({
            "1213, RETRYABLE", "1205, RETRYABLE",
            "1665, MISCONFIGURATION", "4057, MISCONFIGURATION", "4059, MISCONFIGURATION",
            "1296, CAPACITY",
            "1034, CORRUPTION", "1712, CORRUPTION",
            "1286, ENGINE_UNAVAILABLE",
            "2013, OUTCOME_UNKNOWN", "2006, OUTCOME_UNKNOWN", "1927, OUTCOME_UNKNOWN",
            "1062, OTHER", "1064, OTHER", "1146, OTHER", "0, OTHER", "-1, OTHER"})
    void sortsErrorNumbers(int errno, BackendErrorClass expected) {
        assertThat(BackendErrorClass.of(errno)).isEqualTo(expected);
    }
}
