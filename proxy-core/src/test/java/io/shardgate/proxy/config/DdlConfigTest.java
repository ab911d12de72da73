package io.shardgate.proxy.config;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class DdlConfigTest {
    private static final String MINIMAL = """
            admin: { token: change-me }
            users:
              - { name: app, password: app }
            backend_user: { name: shardgate, password: secret }
            shards:
              - name: s0
                primary: 127.0.0.1:24001
            """;

    @Test
    void defaults() {
        assertThat(new ConfigLoader().parse(MINIMAL).ddl()).isEqualTo(DdlConfig.DEFAULTS);
        assertThat(DdlConfig.DEFAULTS).isEqualTo(new DdlConfig(15_000, 4L * 1024 * 1024));
    }

    @Test
    void mapping() {
        ShardgateConfig config = new ConfigLoader().parse(MINIMAL + "ddl: { blocking_max_rows: 0, blocking_max_bytes: 1048576 }\n");
        assertThat(config.ddl()).isEqualTo(new DdlConfig(0, 1_048_576));
        assertThatThrownBy(() -> new ConfigLoader().parse(MINIMAL + "ddl: { blocking_max_rows: -1 }\n"))
                .hasMessageStartingWith("ddl.blocking_max_rows: -1 is out of range");
        assertThatThrownBy(() -> new ConfigLoader().parse(MINIMAL + "ddl: { max_rows: 5 }\n"))
                .hasMessage("ddl.max_rows: unknown key (expected one of: blocking_max_bytes, blocking_max_rows)");
    }
}
