package io.shardgate.proxy.topology;

import org.junit.jupiter.api.Test;

import java.time.Instant;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class RegistrationJsonTest {
    private final RegistrationJson json = new RegistrationJson();
    private final ProxyRegistration proxy = new ProxyRegistration("p1", "10.0.0.5:3307", "10.0.0.5:8080", 7,
            Instant.parse("2026-11-26T12:00:00.125Z"));

    @Test
    void writesTheDocumentedFields() {
        assertThat(json.write(proxy)).isEqualTo("{\"id\":\"p1\",\"address\":\"10.0.0.5:3307\","
                + "\"admin_address\":\"10.0.0.5:8080\",\"version\":7,\"started\":\"2026-11-26T12:00:00.125Z\"}");
    }

    @Test
    void readsWhatItWrites() {
        assertThat(json.read(json.write(proxy))).isEqualTo(proxy);
    }

    @Test
    void refusesWhatIsNoRegistration() {
        assertThatThrownBy(() -> json.read("[1]")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("not a JSON object");
        assertThatThrownBy(() -> json.read("{\"id\":\"p1\"}")).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("proxy registration without \"address\"");
        assertThatThrownBy(() -> json.read("{\"id\":\"p1\",\"address\":\"a\",\"admin_address\":\"b\",\"started\":\"noon\"}"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("not a proxy registration");
        assertThatThrownBy(() -> json.read("{")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("not a proxy registration");
    }

    @Test
    void carriesTheCutoversWhoseHoldsItDrained() {
        ProxyRegistration drained = proxy.withHoldsDrained(java.util.List.of("reshard-1"));
        assertThat(json.write(drained)).endsWith(",\"holds_drained\":[\"reshard-1\"]}");
        assertThat(json.read(json.write(drained))).isEqualTo(drained);
        assertThat(json.read(json.write(drained)).holdsDrained()).containsExactly("reshard-1");
    }
}
