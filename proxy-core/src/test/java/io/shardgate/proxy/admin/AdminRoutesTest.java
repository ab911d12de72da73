package io.shardgate.proxy.admin;

import org.junit.jupiter.api.Test;

import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

class AdminRoutesTest {
    private static AdminRoutes prefix(String prefix, int status) {
        return new AdminRoutes() {
            @Override
            public boolean handles(String method, String path) {
                return path.startsWith(prefix);
            }

            @Override
            public Reply handle(AdminRequest request) {
                return new Reply(status, "{}");
            }
        };
    }

    @Test
    void theFirstRoutesThatHandleARequestAnswerIt() {
        AdminRoutes all = AdminRoutes.all(prefix("/api/v1/topology", 201), prefix("/api/v1/jobs", 202), prefix("/api/v1", 203));
        assertThat(all.handles("GET", "/api/v1/jobs/x")).isTrue();
        assertThat(all.handles("GET", "/metrics")).isFalse();
        assertThat(all.handle(request("/api/v1/jobs/x")).status()).isEqualTo(202);
        assertThat(all.handle(request("/api/v1/topology")).status()).isEqualTo(201);
        assertThat(all.handle(request("/api/v1/other")).status()).isEqualTo(203);
    }

    private static AdminRequest request(String path) {
        return new AdminRequest("GET", path, Map.of(), Optional.empty(), "it", "");
    }
}
