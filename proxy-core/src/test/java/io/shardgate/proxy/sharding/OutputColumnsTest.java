package io.shardgate.proxy.sharding;

import io.shardgate.proxy.protocol.ColumnDefinition;
import io.shardgate.router.exec.ColumnMeta;
import io.shardgate.router.exec.ValueKind;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class OutputColumnsTest {
    private static final ColumnDefinition STATUS = new ColumnDefinition("def", "shop", "orders", "orders", "status", "status",
            45, 64, ColumnDefinition.TYPE_VAR_STRING, 0, 0);
    /** SUM(amount) of a DECIMAL(10,2), as MariaDB describes it: DECIMAL(32,2), length 34. */
    private static final ColumnDefinition SUM_AMOUNT = ColumnDefinition.computed("AVG(amount)", ColumnDefinition.TYPE_NEWDECIMAL,
            63, 34, 0x80, 2);
    /** SUM(id) of a BIGINT: DECIMAL(41,0), length 42. */
    private static final ColumnDefinition SUM_ID = ColumnDefinition.computed("AVG(id)", ColumnDefinition.TYPE_NEWDECIMAL,
            63, 42, 0x80, 0);

    @Test
    void aColumnStraightFromTheShardsKeepsItsDefinition() {
        List<ColumnDefinition> out = OutputColumns.of(List.of(new ColumnMeta("status", ValueKind.STRING, 45, 0)), List.of(STATUS));
        assertThat(out).containsExactly(STATUS);
    }

    @Test
    void anAverageIsTypedAsMariaDbTypesAvg() {
        List<ColumnDefinition> out = OutputColumns.of(List.of(new ColumnMeta("AVG(amount)", ValueKind.DECIMAL, 63, 6),
                new ColumnMeta("AVG(id)", ValueKind.DECIMAL, 63, 4)), List.of(SUM_AMOUNT, SUM_ID));
        // DECIMAL(14,6): 14 digits, a sign and a point; DECIMAL(23,4): 23 digits, a sign and a point.
        assertThat(out.get(0).length()).isEqualTo(16);
        assertThat(out.get(0).decimals()).isEqualTo(6);
        assertThat(out.get(1).length()).isEqualTo(25);
        assertThat(out.get(1).decimals()).isEqualTo(4);
    }

    @Test
    void helperColumnsAreGoneAndUnknownColumnsAreDescribedByKind() {
        List<ColumnDefinition> out = OutputColumns.of(List.of(new ColumnMeta("n", ValueKind.INTEGER, 63, 0)),
                List.of(STATUS, SUM_ID));
        assertThat(out).hasSize(1);
        assertThat(out.get(0).name()).isEqualTo("n");
        assertThat(out.get(0).type()).isEqualTo(ColumnDefinition.TYPE_LONGLONG);
    }
}
