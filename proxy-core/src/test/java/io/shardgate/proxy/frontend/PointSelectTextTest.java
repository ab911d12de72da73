package io.shardgate.proxy.frontend;

import io.shardgate.router.value.SqlValue;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class PointSelectTextTest {

    @Test
    void aPointSelectBecomesItsPreparedFormAndItsLiteral() {
        PointSelectText point = PointSelectText.of("SELECT c FROM sbtest1 WHERE id=5023");
        assertThat(point).isEqualTo(new PointSelectText("SELECT c FROM sbtest1 WHERE id=?", SqlValue.ofLong(5023)));
        assertThat(PointSelectText.of("select a, `b c`, d from `t` where `k` = 0 ;"))
                .isEqualTo(new PointSelectText("select a, `b c`, d from `t` where `k` = ? ;", SqlValue.ofLong(0)));
        assertThat(PointSelectText.of("SELECT * FROM t WHERE id = 999999999999999999").parameter())
                .isEqualTo(SqlValue.ofLong(999999999999999999L));
    }

    @Test
    void everyOtherShapeKeepsItsText() {
        for (String sql : new String[] {
                "SELECT c FROM t WHERE id=007", // not the digits the server would print
                "SELECT c FROM t WHERE id=1e3", "SELECT c FROM t WHERE id=1.0", "SELECT c FROM t WHERE id=-1",
                "SELECT c FROM t WHERE id=1234567890123456789", // 19 digits
                "SELECT c FROM t WHERE id='1'", "SELECT c FROM t WHERE id=0x10", "SELECT c FROM t WHERE id=12abc",
                "SELECT c FROM t WHERE id=?", "SELECT c FROM t WHERE id=@x",
                "SELECT c FROM t WHERE id=1 FOR UPDATE", "SELECT c FROM t WHERE id=1 LIMIT 1", "SELECT c FROM t WHERE id=1 AND k=2",
                "SELECT c FROM t WHERE id=1; SELECT 2", "SELECT c FROM t WHERE id>1", "SELECT c FROM t WHERE 1=1",
                "SELECT c FROM s.t WHERE id=1", "SELECT t.c FROM t WHERE id=1", "SELECT c AS x FROM t WHERE id=1",
                "SELECT DISTINCT c FROM t WHERE id=1", "SELECT COUNT(*) FROM t WHERE id=1", "SELECT c, FROM t WHERE id=1",
                "SELECT c FROM t, u WHERE id=1", "SELECT c FROM t JOIN u WHERE id=1",
                "SELECT /*+ shardgate primary */ c FROM t WHERE id=1", "SELECT c FROM t WHERE id=/*!1*/2",
                "SELECT c FROM t WHERE id=1 -- x", "SELECT c FROM t WHERE id=1 # x",
                "UPDATE t SET c=1 WHERE id=1", "(SELECT c FROM t WHERE id=1)", "SELECT c FROM t WHERE id=1 UNION SELECT 1",
        }) {
            assertThat(PointSelectText.of(sql)).as(sql).isNull();
        }
    }
}
