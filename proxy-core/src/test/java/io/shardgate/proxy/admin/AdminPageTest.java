package io.shardgate.proxy.admin;

import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpMethod;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Base64;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The admin page as packaged: where it is served, its headers, and the policy that lets only its own code run. */
class AdminPageTest {
    private final AdminPage page = AdminPage.load();

    @Test
    void servesGetUiWithAndWithoutTheSlashOnly() {
        assertThat(page.serves(HttpMethod.GET, "/ui")).isTrue();
        assertThat(page.serves(HttpMethod.GET, "/ui/")).isTrue();
        assertThat(page.serves(HttpMethod.POST, "/ui")).isFalse();
        assertThat(page.serves(HttpMethod.GET, "/ui/x")).isFalse();
        assertThat(page.serves(HttpMethod.GET, "/api/v1/topology")).isFalse();
    }

    @Test
    void theResponseIsTheWholePageUncachedUnderAPolicyThatAllowsOnlyItsOwnScriptAndStyle() throws Exception {
        FullHttpResponse response = page.response();
        try {
            String html = response.content().toString(StandardCharsets.UTF_8);
            assertThat(html).startsWith("<!DOCTYPE html>").endsWith("</html>\n");
            assertThat(response.headers().get(HttpHeaderNames.CONTENT_TYPE)).isEqualTo("text/html; charset=utf-8");
            assertThat(response.headers().get(HttpHeaderNames.CACHE_CONTROL)).isEqualTo("no-store");
            assertThat(response.headers().getInt(HttpHeaderNames.CONTENT_LENGTH)).isEqualTo(response.content().readableBytes());
            String policy = response.headers().get(HttpHeaderNames.CONTENT_SECURITY_POLICY);
            assertThat(policy).startsWith("default-src 'none'; ").contains("connect-src 'self'").doesNotContain("unsafe");
            String script = html.substring(html.indexOf("<script>") + 8, html.indexOf("</script>"));
            assertThat(policy).contains("script-src 'sha256-" + Base64.getEncoder().encodeToString(
                    MessageDigest.getInstance("SHA-256").digest(script.getBytes(StandardCharsets.UTF_8))) + "'");
        } finally {
            response.release();
        }
    }

    @Test
    void thePageLoadsNothingFromElsewhereAndNeverParsesDataAsHtml() throws Exception {
        FullHttpResponse response = page.response();
        String html = response.content().toString(StandardCharsets.UTF_8);
        response.release();
        assertThat(html.replace("'http://www.w3.org/2000/svg'", "")).doesNotContain("http://").doesNotContain("https://")
                .doesNotContain("src=");
        assertThat(html).doesNotContain("innerHTML").doesNotContain("outerHTML").doesNotContain("insertAdjacentHTML")
                .doesNotContain("document.write").doesNotContain("eval(");
        assertThat(html).contains("Authorization: 'Bearer ' + token()")
                .contains("sessionStorage").contains("setInterval(refresh, REFRESH_MS)").contains("const REFRESH_MS = 2000;");
    }

    @Test
    void aPageWithoutExactlyOneScriptAndOneStyleIsRefused() {
        assertThatThrownBy(() -> AdminPage.of("<style>a{}</style><p>no script</p>"))
                .hasMessage("the admin page must have exactly one plain <script> element");
        assertThatThrownBy(() -> AdminPage.of("<style>a{}</style><script>1</script><script>2</script>"))
                .hasMessage("the admin page must have exactly one plain <script> element");
        assertThat(AdminPage.of("<style>a{}</style><script>1</script>").policy())
                .contains("style-src 'sha256-").contains("script-src 'sha256-");
    }
}
