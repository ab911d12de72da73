package io.shardgate.proxy.frontend;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class TemporaryTableNamesTest {

    @Test
    void createdNames() {
        assertThat(TemporaryTableNames.created("CREATE TEMPORARY TABLE scratch (x INT)")).isEqualTo("scratch");
        assertThat(TemporaryTableNames.created("create or replace temporary table if not exists `My Tmp` (x int)")).isEqualTo("my tmp");
        assertThat(TemporaryTableNames.created("CREATE TEMPORARY TABLE shop.t1 AS SELECT 1")).isEqualTo("t1");
        assertThat(TemporaryTableNames.created("CREATE TEMPORARY TABLE `shop`.`t.2` (x INT)")).isEqualTo("t.2");
        assertThat(TemporaryTableNames.created("CREATE TABLE t (x INT)")).isNull();
        assertThat(TemporaryTableNames.created("/* a */ CREATE /* b */ TEMPORARY TABLE `x``y` (v INT)")).isEqualTo("x`y");
        assertThat(TemporaryTableNames.created("SELECT 'CREATE TEMPORARY TABLE t (x INT)'")).isNull();
    }

    @Test
    void droppedNames() {
        assertThat(TemporaryTableNames.dropped("DROP TEMPORARY TABLE IF EXISTS a, shop.b, `C`")).containsExactly("a", "b", "c");
        assertThat(TemporaryTableNames.dropped("drop table scratch")).containsExactly("scratch");
        assertThat(TemporaryTableNames.dropped("DROP DATABASE shop")).isEmpty();
        assertThat(TemporaryTableNames.dropped("SELECT 1")).isEmpty();
        assertThat(TemporaryTableNames.dropped("-- cleanup\nDROP TABLE a /* , b */, c")).containsExactly("a", "c");
        assertThat(TemporaryTableNames.dropped("INSERT INTO log VALUES ('DROP TABLE t')")).isEmpty();
        assertThat(TemporaryTableNames.of("INSERT INTO log VALUES ('DROP TABLE t')", false)).isNull();
    }
}
