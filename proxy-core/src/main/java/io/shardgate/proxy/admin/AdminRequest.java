package io.shardgate.proxy.admin;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * An authorised admin request, copied out of Netty's buffers so it can be served off the event loop.
 *
 * @param ifMatch the {@code If-Match} header (quotes removed), when sent
 * @param actor   who makes the change: the {@code X-Shardgate-Actor} header, else "admin@" and the client's address
 */
public record AdminRequest(String method, String path, Map<String, List<String>> parameters, Optional<String> ifMatch,
                           String actor, String body) {
}
