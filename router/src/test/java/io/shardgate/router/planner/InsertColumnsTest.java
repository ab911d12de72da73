package io.shardgate.router.planner;

import io.shardgate.errors.ShardgateException;
import io.shardgate.router.plan.PlanPrinter;
import io.shardgate.router.schema.Column;
import io.shardgate.router.schema.ColumnCatalog;
import io.shardgate.router.schema.SchemaSnapshot;
import io.shardgate.router.schema.TableColumns;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * INSERT without a column list when the catalog does not give one list: columns not loaded yet, shards that
 * disagree, generated columns, and a table name written in another case than the sharding schema's.
 */
class InsertColumnsTest {

    private static List<String> plan(ColumnCatalog columns, String sql) {
        return PlanPrinter.lines(new Planner(ShopSchema.create(), columns).plan(sql, "shop").root());
    }

    @Test
    void columnsNotLoadedYetAreA1235SayingSo() {
        assertThatThrownBy(() -> plan(ColumnCatalog.NONE, "INSERT INTO customers VALUES (4, 'a')"))
                .isInstanceOf(ShardgateException.class)
                .hasMessage("Shardgate does not support INSERT without a column list into sharded table shop.customers yet: its columns"
                        + " are not known (they are read from the shards at startup, after DDL and by the periodic schema check); name the columns")
                .extracting(e -> ((ShardgateException) e).errno()).isEqualTo(1235);
        assertThat(plan(ColumnCatalog.NONE, "INSERT INTO customers (id, name) VALUES (4, 'a')")).as("a column list needs no catalog")
                .hasSize(2);
    }

    @Test
    void shardsThatDisagreeOnTheListAreA1235NamingTheShardAndTheDifference() {
        SchemaSnapshot snapshot = SchemaSnapshot.empty(List.of("s0", "s1"))
                .withShard("s0", List.of("shop"), List.of(ShopSchema.table("tickets", "id bigint(20),customer_id varchar(32)")))
                .withShard("s1", List.of("shop"), List.of(ShopSchema.table("tickets", "id bigint(20),customer_id varchar(32),extra int(11)")));
        assertThatThrownBy(() -> plan(snapshot, "INSERT INTO tickets VALUES (1, 'a')"))
                .hasMessage("Shardgate does not support INSERT without a column list into sharded table shop.tickets while its shards"
                        + " disagree on its columns (on shard s1 extra column extra int(11) (against shard s0)); name the columns");
        SchemaSnapshot typeOnly = SchemaSnapshot.empty(List.of("s0", "s1"))
                .withShard("s0", List.of("shop"), List.of(ShopSchema.table("tickets", "id bigint(20),customer_id varchar(32)")))
                .withShard("s1", List.of("shop"), List.of(ShopSchema.table("tickets", "id bigint(20),customer_id varchar(64)")));
        assertThat(plan(typeOnly, "INSERT INTO tickets VALUES (1, 'a')")).as("another type only: the list is the same")
                .containsExactly("InsertSplit `shop`.`tickets`.`customer_id` hash(string utf8mb4_bin) rows=1 role=PRIMARY",
                        "  s1: INSERT INTO tickets VALUES (1, 'a')");
    }

    @Test
    void generatedColumnsAreInTheImplicitListAndTheRowGoesAsWritten() {
        TableColumns items = new TableColumns("shop", "order_items", List.of(Column.of("id", 1, "bigint(20)"),
                new Column("total", 2, "decimal(12,2)", Optional.empty(), Column.Generated.VIRTUAL, Optional.empty(), false),
                Column.of("customer_id", 3, "bigint(20)"), Column.of("qty", 4, "int(11)")));
        SchemaSnapshot snapshot = SchemaSnapshot.empty(List.of("s0", "s1")).withShard("s0", List.of("shop"), List.of(items));
        assertThat(plan(snapshot, "INSERT INTO order_items VALUES (1, DEFAULT, 4, 2)")).containsExactly(
                "InsertSplit `shop`.`order_items`.`customer_id` hash(integer) rows=1 role=PRIMARY",
                "  s1: INSERT INTO order_items VALUES (1, DEFAULT, 4, 2)");
        assertThatThrownBy(() -> plan(snapshot, "INSERT INTO order_items VALUES (1, 4, 2)"))
                .hasMessage("Column count doesn't match value count at row 1");
        assertThatThrownBy(() -> plan(snapshot, "INSERT INTO order_items VALUES ()"))
                .hasMessage("Shardgate does not support a row of defaults (VALUES ()) in an INSERT into sharded table shop.order_items");
    }

    @Test
    void aTableNameInAnotherCaseIsFoundAsTheShardingSchemaSpellsIt() {
        assertThat(plan(ShopSchema.columns(), "INSERT INTO Shop.CUSTOMERS VALUES (4, 'a', NULL, NULL, NULL, 0, NULL)"))
                .containsExactly("InsertSplit `shop`.`CUSTOMERS`.`id` hash(integer) rows=1 role=PRIMARY",
                        "  s1: INSERT INTO Shop.CUSTOMERS VALUES (4, 'a', NULL, NULL, NULL, 0, NULL)");
    }
}
