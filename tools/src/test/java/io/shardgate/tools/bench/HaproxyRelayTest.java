package io.shardgate.tools.bench;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class HaproxyRelayTest {
    @Test
    void configIsAPlainTcpRelayFromOneLocalPortToTheServer() {
        String config = HaproxyRelay.config(45123, "127.0.0.1:3399");
        assertThat(config)
                .contains("global\n    nbthread 2\n    maxconn 4096\n")
                .contains("defaults\n    mode tcp\n    timeout connect 1h\n    timeout client 1h\n    timeout server 1h\n")
                .contains("listen relay\n    bind 127.0.0.1:45123\n    server s0 127.0.0.1:3399\n")
                .doesNotContain("daemon");
    }
}
