package io.shardgate.proxy.protocol;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Ids from MariaDB 10.11's information_schema.COLLATION_CHARACTER_SET_APPLICABILITY. */
class CollationCharsetsTest {

    @ParameterizedTest
    @ValueSource(ints = {33, 45, 46, 83, 192, 215, 223, 224, 247, 576, 578, 608, 610, 1057, 1069, 1070, 1107, 1216, 1238, 1248,
        1270, 2048, 2247, 2304, 2503, 255, 309})
    void utf8Collations(int id) {
        assertThat(CollationCharsets.isUtf8(id)).isTrue();
        assertThat(CollationCharsets.charset(id)).isEqualTo(StandardCharsets.UTF_8);
    }

    @ParameterizedTest
    @ValueSource(ints = {8, 47, 63, 1032, 1071, 35, 54, 216, 222, 248, 640, 672, 2560, 2816, 3072, 0, 1})
    void everythingElseIsLatin1(int id) {
        assertThat(CollationCharsets.isUtf8(id)).isFalse();
        assertThat(CollationCharsets.charset(id)).isEqualTo(StandardCharsets.ISO_8859_1);
    }
}
