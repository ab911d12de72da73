package io.shardgate.storage.checksum;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class TableChecksumTest {
    private static final TableColumns ORDERS = new TableColumns(List.of("id", "customer", "note"), List.of("note"),
            List.of("id"));

    @Test
    void queryOverTheWholeTable() {
        assertThat(TableChecksum.sql(TableName.parse("shop.orders"), ORDERS, PkRange.all()))
                .isEqualTo("SELECT COUNT(*), BIT_XOR(CAST(CRC32(CONCAT_WS('#', `id`, `customer`, `note`,"
                        + " CONCAT(ISNULL(`note`)))) AS UNSIGNED)) FROM `shop`.`orders`");
    }

    @Test
    void noNullFlagsWithoutNullableColumns() {
        TableColumns notNull = new TableColumns(List.of("id", "v"), List.of(), List.of("id"));
        assertThat(TableChecksum.sql(TableName.parse("s.t"), notNull, PkRange.all()))
                .isEqualTo("SELECT COUNT(*), BIT_XOR(CAST(CRC32(CONCAT_WS('#', `id`, `v`)) AS UNSIGNED)) FROM `s`.`t`");
    }

    @Test
    void keyRanges() {
        assertThat(TableChecksum.sql(TableName.parse("s.t"), ORDERS, PkRange.of(10, 20)))
                .endsWith(" FROM `s`.`t` WHERE `id` >= ? AND `id` < ?");
        assertThat(TableChecksum.sql(TableName.parse("s.t"), ORDERS, new PkRange(List.of(), List.of(5))))
                .endsWith(" FROM `s`.`t` WHERE `id` < ?");
        TableColumns composite = new TableColumns(List.of("a", "b", "v"), List.of(), List.of("a", "b"));
        assertThat(TableChecksum.sql(TableName.parse("s.t"), composite, new PkRange(List.of(1, 2), List.of(3, 4))))
                .endsWith(" WHERE (`a`, `b`) >= (?, ?) AND (`a`, `b`) < (?, ?)");
        assertThatThrownBy(() -> TableChecksum.sql(TableName.parse("s.t"), composite, PkRange.of(1, 2)))
                .hasMessage("a bound has 1 values for a primary key of 2 columns [a, b]");
        TableColumns keyless = new TableColumns(List.of("v"), List.of(), List.of());
        assertThatThrownBy(() -> TableChecksum.sql(TableName.parse("s.t"), keyless, PkRange.of(1, 2)))
                .hasMessage("a primary-key range needs a table with a primary key");
    }

    @Test
    void anEngineMayForceThePrimaryKey() {
        assertThat(TableChecksum.sql(TableName.parse("s.t"), ORDERS, PkRange.of(10, 20), TableChecksum.ScanHint.PRIMARY))
                .endsWith(" FROM `s`.`t` FORCE INDEX (PRIMARY) WHERE `id` >= ? AND `id` < ?");
        assertThat(new io.shardgate.storage.MyRocksAdapter().checksum().hint()).isEqualTo(TableChecksum.ScanHint.PRIMARY);
        assertThat(new io.shardgate.storage.InnoDbAdapter().checksum().hint()).isEqualTo(TableChecksum.ScanHint.KEY_RANGE);
        assertThat(new TableChecksum().hint()).isEqualTo(TableChecksum.ScanHint.NONE);
    }

    @Test
    void compositeBoundsAreAlsoSpeltOutForTheRangeOptimizer() {
        TableColumns composite = new TableColumns(List.of("a", "b", "c", "v"), List.of(), List.of("a", "b", "c"));
        assertThat(TableChecksum.sql(TableName.parse("s.t"), composite, new PkRange(List.of(1, 2, 3), List.of(4, 5, 6)),
                TableChecksum.ScanHint.KEY_RANGE)).endsWith(" FROM `s`.`t` WHERE (`a` > ? OR (`a` = ? AND `b` > ?) OR (`a` = ? AND `b` = ? AND `c` >= ?))"
                        + " AND (`a` < ? OR (`a` = ? AND `b` < ?) OR (`a` = ? AND `b` = ? AND `c` < ?))"
                        + " AND (`a`, `b`, `c`) >= (?, ?, ?) AND (`a`, `b`, `c`) < (?, ?, ?)");
        assertThat(TableChecksum.sql(TableName.parse("s.t"), composite, new PkRange(List.of(1, 2, 3), List.of()),
                TableChecksum.ScanHint.PRIMARY)).endsWith(" FROM `s`.`t` FORCE INDEX (PRIMARY) WHERE (`a` > ? OR"
                + " (`a` = ? AND `b` > ?) OR (`a` = ? AND `b` = ? AND `c` >= ?)) AND (`a`, `b`, `c`) >= (?, ?, ?)");
        assertThat(TableChecksum.sql(TableName.parse("s.t"), ORDERS, PkRange.of(1, 2), TableChecksum.ScanHint.KEY_RANGE))
                .as("one column needs no spelling out").endsWith(" WHERE `id` >= ? AND `id` < ?");
    }

    @Test
    void rowChecksumsAreUnsigned32Bit() {
        assertThat(new RowChecksum(java.util.Arrays.asList(1L, "a"), 0xFFFF_FFFFL).key()).containsExactly(1L, "a");
        assertThatThrownBy(() -> new RowChecksum(List.of(1L), -1)).hasMessageContaining("unsigned 32-bit");
    }

    @Test
    void identifiersAreQuoted() {
        TableColumns odd = new TableColumns(List.of("we`ird"), List.of(), List.of());
        assertThat(TableChecksum.sql(TableName.parse("`my.db`.`t`"), odd, PkRange.all()))
                .isEqualTo("SELECT COUNT(*), BIT_XOR(CAST(CRC32(CONCAT_WS('#', `we``ird`)) AS UNSIGNED)) FROM `my.db`.`t`");
    }

    @Test
    void tableNames() {
        assertThat(TableName.parse(" shop.orders ")).isEqualTo(new TableName("shop", "orders"));
        assertThat(TableName.parse("`a.b`.`c`")).isEqualTo(new TableName("a.b", "c"));
        assertThat(TableName.parse("shop.orders").toString()).isEqualTo("shop.orders");
        assertThatThrownBy(() -> TableName.parse("orders")).hasMessage("table 'orders' must be written schema.table");
        assertThatThrownBy(() -> TableName.parse("a.b.c")).hasMessage("table 'a.b.c' must be written schema.table");
        assertThatThrownBy(() -> TableName.parse("shop.")).hasMessage("schema and table must not be empty");
    }

    @Test
    void resultsCombineBySumAndXor() {
        ChecksumResult a = new ChecksumResult(500, 0x5f1c3a9bL);
        ChecksumResult b = new ChecksumResult(500, 0x91ab33c0L);
        assertThat(a.combine(b)).isEqualTo(new ChecksumResult(1000, 0xceb7095bL));
        assertThat(a.combine(b).hex()).isEqualTo("ceb7095b");
        assertThat(new ChecksumResult(0, 7).hex()).isEqualTo("00000007");
        assertThat(ChecksumResult.empty().combine(a)).isEqualTo(a);
        assertThatThrownBy(() -> new ChecksumResult(1, 1L << 32)).hasMessageContaining("unsigned 32-bit");
    }

    @Test
    void commandArguments() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
        PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8);
        ChecksumCommand command = new ChecksumCommand();
        assertThat(command.run(List.of(new ChecksumTarget("s0", "jdbc:mariadb://127.0.0.1:1/", "u", "p")), "orders", o, e))
                .isEqualTo(2);
        assertThat(err.toString(StandardCharsets.UTF_8)).isEqualTo("checksum: table 'orders' must be written schema.table\n");
        err.reset();
        assertThat(command.run(List.of(), "shop.orders", o, e)).isEqualTo(2);
        assertThat(err.toString(StandardCharsets.UTF_8)).isEqualTo("checksum: no shards to checksum\n");
        assertThat(out.size()).isZero();
        assertThat(new ChecksumTarget("s0", "jdbc:x", "u", "secret").toString()).doesNotContain("secret");
    }
}
