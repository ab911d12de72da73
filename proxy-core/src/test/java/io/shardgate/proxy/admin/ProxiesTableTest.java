package io.shardgate.proxy.admin;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

import java.io.IOException;

import static org.assertj.core.api.Assertions.assertThat;

class ProxiesTableTest {
    private final ObjectMapper json = new ObjectMapper();

    @Test
    void aMissingFieldIsADashAndAProxyWithoutAVersionDoesNotServeTheNewest() throws IOException {
        String table = ProxiesTable.render(json.readTree("""
                {"version":3,"proxies":[{"id":"p1","address":"h:1","started":null},{"address":"h:2","version":3}]}
                """));
        assertThat(table).isEqualTo("""
                ID  ADDRESS  VERSION  STARTED  NEWEST
                p1  h:1      -        -        no
                -   h:2      3        -        yes
                """);
    }

    @Test
    void noProxiesIsTheHeaderAlone() throws IOException {
        assertThat(ProxiesTable.render(json.readTree("{\"version\":1,\"proxies\":[]}")))
                .isEqualTo("ID  ADDRESS  VERSION  STARTED  NEWEST\n");
    }
}
