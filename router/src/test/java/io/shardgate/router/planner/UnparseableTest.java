package io.shardgate.router.planner;

import io.shardgate.errors.ErrorCode;
import io.shardgate.errors.ShardgateException;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The refusal of a statement the parser cannot read names it in the user's words, never in the parser's. */
class UnparseableTest {
    private final Planner planner = new Planner(ShopSchema.create());

    @Test
    void namesTheFirstWordAndQuotesTheStatement() {
        ShardgateException refusal = Unparseable.refusal("  /* why */ SELECT * FORM customers ");
        assertThat(refusal.code()).isEqualTo(ErrorCode.UNPARSEABLE);
        assertThat(refusal.errno()).isEqualTo(1235);
        assertThat(refusal.sqlState()).isEqualTo("42000");
        assertThat(refusal.errorMessage()).isEqualTo("Shardgate cannot plan this statement over sharded tables: its SQL parser"
                + " does not read this form of SELECT: 'SELECT * FORM customers'");
    }

    @Test
    void aStatementWithoutAFirstWordIsAStatement() {
        assertThat(Unparseable.refusal("'x' y").errorMessage()).endsWith("does not read this form of statement: ''x' y'");
        assertThat(Unparseable.refusal("((select (").errorMessage()).endsWith("this form of SELECT: '((select ('");
    }

    @Test
    void quotesAtMostEightyCharactersAndNeverHalfACharacter() {
        String longer = "SELECT " + "x".repeat(100);
        assertThat(Unparseable.excerpt(longer)).hasSize(83).endsWith("x...").startsWith("SELECT x");
        assertThat(Unparseable.excerpt("x".repeat(80))).isEqualTo("x".repeat(80));
        String emoji = "x".repeat(79) + "\uD83D\uDE00" + "yyy";
        assertThat(Unparseable.excerpt(emoji)).isEqualTo("x".repeat(79) + "...");
    }

    @Test
    void aRefusalBeforeTheParserIsItsOwn() {
        try {
            planner.plan("SELECT /*M!100000 1, */ 2 FROM customers", "shop");
            throw new AssertionError("planned");
        } catch (ShardgateException e) {
            assertThat(e.code()).isEqualTo(ErrorCode.UNSUPPORTED);
            assertThat(e.errorMessage()).isEqualTo("Shardgate does not support MariaDB executable comments (/*M! ... */) in a sharded"
                    + " deployment");
        }
    }

    @Test
    void thePlannerNeverShowsItsParsersMessage() {
        for (String sql : new String[] {"SELEC 1", "SELECT (", "SELECT 'abc", "SELECT * FROM customers WHERE id =",
                "INSERT INTO orders (id, customer_id) VALUES (1, 1) RETURNING id", "DELETE customers WHERE", "UPDATE SET x = 1"}) {
            try {
                planner.plan(sql, "shop");
                throw new AssertionError("planned: " + sql);
            } catch (ShardgateException e) {
                assertThat(e.code()).as(sql).isEqualTo(ErrorCode.UNPARSEABLE);
                assertThat(e.errorMessage()).as(sql).doesNotContain("pos ", "token ", "IDENTIFIER", "Exception", "TODO")
                        .contains("'" + sql + "'");
            }
        }
    }
}
