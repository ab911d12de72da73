package io.shardgate.proxy.session;

import io.shardgate.proxy.backend.TextResult;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class UserVariableCaptureTest {

    @Test
    void queryReadsValueHexCharsetAndCollationOfEach() {
        assertThat(UserVariableCapture.query(List.of("a", "b c"))).isEqualTo(
                "SELECT @`a`, HEX(@`a`), CHARSET(@`a`), COLLATION(@`a`), @`b c`, HEX(@`b c`), CHARSET(@`b c`), COLLATION(@`b c`) LIMIT 1");
    }

    private static byte[] b(String s) {
        return s == null ? null : s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void literalsKeepTypeBytesCharsetAndCollation() {
        List<String> names = List.of("i", "d", "f", "s", "bin", "n");
        List<TextResult.Column> columns = new ArrayList<>();
        int[] types = {8, 246, 5, 251, 251, 251};
        for (int type : types) {
            columns.add(new TextResult.Column("v", type, 0, 63));
            for (int k = 0; k < 3; k++) {
                columns.add(new TextResult.Column("meta", 253, 0, 45));
            }
        }
        List<byte[]> row = Arrays.asList(
                b("-42"), b("FFFFFFFFFFFFFFD6"), b("binary"), b("binary"),
                b("1.50"), b("2"), b("binary"), b("binary"),
                b("1e300"), b("..."), b("binary"), b("binary"),
                b("\u00e9"), b("C3A9"), b("utf8mb4"), b("utf8mb4_bin"),
                b("x"), b("00FF"), b("binary"), b("binary"),
                null, null, b("binary"), b("binary"));
        Map<String, String> literals = UserVariableCapture.literals(names, new TextResult(columns, List.of(row)));
        assertThat(literals).containsExactly(
                Map.entry("i", "-42"),
                Map.entry("d", "1.50"),
                Map.entry("f", "1e300"),
                Map.entry("s", "_utf8mb4 X'C3A9' COLLATE utf8mb4_bin"),
                Map.entry("bin", "_binary X'00FF'"),
                Map.entry("n", "NULL"));
        assertThat(UserVariableCapture.literal(5, "1.5", "", "binary", "binary")).isEqualTo("1.5e0");
    }

    @Test
    void aResultOfTheWrongShapeIsRefused() {
        assertThatThrownBy(() -> UserVariableCapture.literals(List.of("a"), new TextResult(List.of(), List.of())))
                .isInstanceOf(IllegalStateException.class);
    }
}
