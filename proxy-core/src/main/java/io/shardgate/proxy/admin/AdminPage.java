package io.shardgate.proxy.admin;

import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;

import static java.util.Objects.requireNonNull;

/**
 * {@code GET /ui} (and {@code /ui/}): the admin page, one self-contained HTML file ({@code ui.html} next to this
 * class: inline CSS and JS, nothing fetched from elsewhere). It is served without the admin token because it holds
 * no data: it asks the operator for the token (or reads {@code #token=...} from the URL fragment, which never
 * reaches a server), keeps it in {@code sessionStorage}, and sends it with each of its calls to the admin API.
 *
 * <p>Its Content-Security-Policy lets only this page's own inline script and style run (by their SHA-256) and its
 * calls go only to this admin listener: a value the page shows cannot load a script, and the token cannot leave.
 */
final class AdminPage {
    static final String RESOURCE = "ui.html";

    private final byte[] html;
    private final String policy;

    private AdminPage(byte[] html, String policy) {
        this.html = html;
        this.policy = policy;
    }

    /** {@code html} with a policy that allows its one inline script and one inline style. */
    static AdminPage of(String html) {
        requireNonNull(html, "html is null");
        return new AdminPage(html.getBytes(StandardCharsets.UTF_8), "default-src 'none'; script-src " + hashOf(html, "script")
                + "; style-src " + hashOf(html, "style")
                + "; connect-src 'self'; img-src data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'");
    }

    /** The page packaged with the proxy. */
    static AdminPage load() {
        try (InputStream in = AdminPage.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException("the admin page " + RESOURCE + " is missing from the proxy's jar");
            }
            return of(new String(in.readAllBytes(), StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the admin page " + RESOURCE, e);
        }
    }

    boolean serves(HttpMethod method, String path) {
        return HttpMethod.GET.equals(method) && (path.equals("/ui") || path.equals("/ui/"));
    }

    /** The page, with headers that keep it out of caches and frames. */
    FullHttpResponse response() {
        FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK,
                Unpooled.wrappedBuffer(html));
        response.headers()
                .set(HttpHeaderNames.CONTENT_TYPE, "text/html; charset=utf-8")
                .set(HttpHeaderNames.CACHE_CONTROL, "no-store")
                .set(HttpHeaderNames.CONTENT_SECURITY_POLICY, policy)
                .set("X-Content-Type-Options", "nosniff")
                .set("Referrer-Policy", "no-referrer");
        HttpUtil.setContentLength(response, html.length);
        return response;
    }

    String policy() {
        return policy;
    }

    /** {@code 'sha256-...'} of the text of the page's one {@code <tag>} element, as CSP hashes inline code. */
    private static String hashOf(String html, String tag) {
        int open = html.indexOf("<" + tag + ">");
        int close = html.indexOf("</" + tag + ">");
        if (open < 0 || close < open || html.indexOf("<" + tag, open + 1) >= 0) {
            throw new IllegalArgumentException("the admin page must have exactly one plain <" + tag + "> element");
        }
        String body = html.substring(open + tag.length() + 2, close);
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(body.getBytes(StandardCharsets.UTF_8));
            return "'sha256-" + Base64.getEncoder().encodeToString(digest) + "'";
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JVM", e);
        }
    }
}
