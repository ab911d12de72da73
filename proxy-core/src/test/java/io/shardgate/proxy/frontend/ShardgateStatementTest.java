package io.shardgate.proxy.frontend;

import io.shardgate.proxy.routing.CausalToken;
import io.shardgate.replication.gtid.MariaDbGtidPosition;
import org.junit.jupiter.api.Test;

import java.util.OptionalLong;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ShardgateStatementTest {

    @Test
    void recognisesTheStatementsShardgateAnswersItself() {
        assertThat(ShardgateStatement.parse("SET @@session.shardgate_max_lag_ms = 250"))
                .contains(new ShardgateStatement.SetMaxLag(OptionalLong.of(250)));
        assertThat(ShardgateStatement.parse("set session shardgate_max_lag_ms=DEFAULT;"))
                .contains(new ShardgateStatement.SetMaxLag(OptionalLong.empty()));
        assertThat(ShardgateStatement.parse("SELECT @@shardgate_causal_token")).contains(new ShardgateStatement.GetCausalToken());
        assertThat(ShardgateStatement.parse("SELECT @@session.shardgate_max_lag_ms")).contains(new ShardgateStatement.GetMaxLag());
        assertThat(ShardgateStatement.parse("SET @@session.shardgate_causal_token = 'sg1:mariadb:0-1-5'"))
                .contains(new ShardgateStatement.SetCausalToken("sg1:mariadb:0-1-5"));
        assertThat(ShardgateStatement.parse(" show shardgate backends ")).contains(new ShardgateStatement.Show(ShowShardgate.BACKENDS));
    }

    @Test
    void leavesEverythingElseToTheBackends() {
        assertThat(ShardgateStatement.parse("SELECT c FROM sbtest1 WHERE id = 5")).isEmpty();
        assertThat(ShardgateStatement.parse("/*+ shardgate max_lag_ms=0 */ SELECT 1")).isEmpty();
        assertThat(ShardgateStatement.parse("SELECT @@shardgate_max_lag_ms, 1")).isEmpty();
        assertThat(ShardgateStatement.parse("SET @@session.shardgate_max_lag_ms = -1")).isEmpty();
        assertThat(ShardgateStatement.parse("SELECT 'SHOW SHARDGATE BACKENDS'")).isEmpty();
        assertThat(ShardgateStatement.parse("SELECT 1 /* SELECT @@shardgate_causal_token */")).isEmpty();
        assertThat(ShardgateStatement.parse("SET @x = 'shardgate_max_lag_ms = 5'")).isEmpty();
        assertThat(ShardgateStatement.parse("SET @@session.shardgate_causal_token = 'a\\'b'")).isEmpty();
    }

    @Test
    void everyShowShardgateStatementIsReadByOneGrammar() {
        for (ShowShardgate show : ShowShardgate.values()) {
            assertThat(ShardgateStatement.parse(show.statement())).as(show.statement()).contains(new ShardgateStatement.Show(show));
            assertThat(ShardgateStatement.parse("/* c */ show\nshardgate " + show.name().toLowerCase() + " ;"))
                    .contains(new ShardgateStatement.Show(show));
        }
        assertThat(ShardgateStatement.parse("SHOW SHARDGATE HELP")).contains(new ShardgateStatement.Show(ShowShardgate.HELP));
        assertThat(ShardgateStatement.parse("SHOW SHARDGATE TOPOLOGIES")).contains(new ShardgateStatement.NotUnderstood("TOPOLOGIES"));
        assertThat(ShardgateStatement.parse("SHOW SHARDGATE 'x' y")).contains(new ShardgateStatement.NotUnderstood("'x' y"));
        assertThat(ShardgateStatement.parse("SHOW SHARDGATE")).contains(new ShardgateStatement.NotUnderstood(""));
        assertThat(ShardgateStatement.parse("SHOW SHARDGATE BACKENDS LIKE 'x'")).as("the server's own error").isEmpty();
        assertThat(ShardgateStatement.parse("SHOW shardgate_tables")).isEmpty();
    }

    @Test
    void explainShardgateIsRecognisedWithTheStatementItExplains() {
        assertThat(ShardgateStatement.parse("EXPLAIN SHARDGATE SELECT * FROM t WHERE id = 1"))
                .contains(new ShardgateStatement.Explain("SELECT * FROM t WHERE id = 1"));
        assertThat(ShardgateStatement.parse("explain shardgate;")).contains(new ShardgateStatement.NotUnderstood(""));
        assertThat(ShardgateStatement.parse("EXPLAIN SELECT * FROM shardgate")).isEmpty();
    }

    @Test
    void commentsMayStandAnywhere() {
        assertThat(ShardgateStatement.parse("/* app */ SET /* x */ shardgate_max_lag_ms := 5 -- budget\n"))
                .contains(new ShardgateStatement.SetMaxLag(OptionalLong.of(5)));
        assertThat(ShardgateStatement.parse("SET SESSION shardgate_allow_blocking_ddl = 'ON'"))
                .contains(new ShardgateStatement.SetAllowBlockingDdl(true));
        assertThat(ShardgateStatement.parse("set shardgate_allow_blocking_ddl=off;"))
                .contains(new ShardgateStatement.SetAllowBlockingDdl(false));
        assertThat(ShardgateStatement.parse("SELECT @@local.shardgate_max_lag_ms # mine\n")).contains(new ShardgateStatement.GetMaxLag());
    }

    @Test
    void causalTokensRoundTripAndRejectStrangers() {
        MariaDbGtidPosition position = MariaDbGtidPosition.parse("0-1-42,1-2-7");
        assertThat(CausalToken.of(position)).isEqualTo("sg1:mariadb:0-1-42,1-2-7");
        assertThat(CausalToken.parse(CausalToken.of(position)).everyShard()).isEqualTo(position);
        assertThat(CausalToken.parse("").everyShard()).isEqualTo(MariaDbGtidPosition.empty());
        assertThatThrownBy(() -> CausalToken.parse("3E11FA47-71CA-11E1-9E33-C80AA9429562:1-5"))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
