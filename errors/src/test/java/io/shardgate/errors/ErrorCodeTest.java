package io.shardgate.errors;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.util.HashSet;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

class ErrorCodeTest {
    @ParameterizedTest
    @EnumSource(ErrorCode.class)
    void everyEntryIsData(ErrorCode code) {
        assertThat(code.errno()).as("errno of %s", code).isBetween(1000, 4999);
        assertThat(code.sqlState()).as("SQLSTATE of %s", code).matches("[0-9A-Z]{5}");
        assertThat(code.template()).as("template of %s", code).isNotBlank().doesNotContain("|", "`");
        assertThat(code.description()).as("description of %s", code).isNotBlank().doesNotContain("|");
    }

    @Test
    void onlyInternalIs1105() {
        Set<ErrorCode> internal = new HashSet<>();
        for (ErrorCode code : ErrorCode.values()) {
            if (code.errno() == 1105) {
                internal.add(code);
            }
        }
        assertThat(internal).containsExactly(ErrorCode.INTERNAL);
    }

    @Test
    void anExceptionCarriesItsCodeAndFilledTemplate() {
        ShardgateException e = ErrorCode.UNKNOWN_PARTITION.exception("s9", "db.t");

        assertThat(e.code()).isEqualTo(ErrorCode.UNKNOWN_PARTITION);
        assertThat(e.errno()).isEqualTo(1735);
        assertThat(e.sqlState()).isEqualTo("HY000");
        assertThat(e).hasMessage("Unknown partition 's9' in table 'db.t'");
        assertThat(e.errorMessage()).isEqualTo(e.getMessage());
    }

    @Test
    void positionalTemplatesTakeTheirArgumentsInAnyOrder() {
        assertThat(ErrorCode.CONFLICTING_COMPRESSION.message("s1", "InnoDB", "PAGE_COMPRESSED=1", "why"))
                .isEqualTo("Incorrect usage of PAGE_COMPRESSED=1 on shard s1 (InnoDB): why");
    }

    @Test
    void aSubclassKeepsItsOwnMessageAndFillsTheTemplateForTheClient() {
        Throwable cause = new IllegalStateException("down");
        ShardgateException e = new ShardgateException(ErrorCode.SEQUENCE_UNAVAILABLE, "sequence t.id on shard s0", cause) {
            private static final long serialVersionUID = 1L;
        };

        assertThat(e).hasMessage("sequence t.id on shard s0").hasCause(cause);
        assertThat(e.errorMessage()).isEqualTo("Cannot take a value of the global sequence t.id on shard s0");
        assertThat(e.withCause(cause).errorMessage()).isEqualTo(e.errorMessage());
    }
}
