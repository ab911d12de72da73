package io.shardgate.proxy.topology;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class EtcdStoreSettingsTest {
    private static final List<String> TWO = List.of("http://10.0.0.1:2379", "http://10.0.0.2:2379");

    @Test
    void keysAndDescriptionComeFromPrefixAndEndpoints() {
        EtcdStoreSettings settings = new EtcdStoreSettings(TWO, "/shardgate/default", Duration.ofSeconds(2),
                Duration.ofMillis(2500));
        assertThat(settings.topologyKey()).isEqualTo("/shardgate/default/topology");
        assertThat(settings.proxiesPrefix()).isEqualTo("/shardgate/default/proxies/");
        assertThat(settings.leaseTtlSeconds()).as("rounded up").isEqualTo(3);
        assertThat(settings.describe()).isEqualTo("etcd http://10.0.0.1:2379,http://10.0.0.2:2379");
    }

    @Test
    void refusesWhatCannotWork() {
        Duration s = Duration.ofSeconds(1);
        assertThatThrownBy(() -> new EtcdStoreSettings(List.of(), "/p", s, s))
                .hasMessage("etcd endpoints are empty");
        assertThatThrownBy(() -> new EtcdStoreSettings(List.of("10.0.0.1:2379"), "/p", s, s))
                .hasMessage("etcd endpoint 10.0.0.1:2379 is not http(s)://host:port");
        assertThatThrownBy(() -> new EtcdStoreSettings(TWO, "shardgate", s, s))
                .hasMessage("etcd prefix must start with / and not end with /: shardgate");
        assertThatThrownBy(() -> new EtcdStoreSettings(TWO, "/shardgate/", s, s))
                .hasMessage("etcd prefix must start with / and not end with /: /shardgate/");
        assertThatThrownBy(() -> new EtcdStoreSettings(TWO, "/p", Duration.ZERO, s))
                .hasMessage("etcd dial timeout must be positive: PT0S");
        assertThatThrownBy(() -> new EtcdStoreSettings(TWO, "/p", s, Duration.ofMillis(500)))
                .hasMessage("etcd lease TTL must be at least 1 s: PT0.5S");
    }
}
