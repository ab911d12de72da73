package io.shardgate.proxy.admin;

import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.QueryStringDecoder;
import io.shardgate.proxy.config.HostPort;
import io.shardgate.proxy.transport.Transport;

import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import java.util.function.Supplier;

import static java.util.Objects.requireNonNull;

/**
 * The admin HTTP API on its own port. {@code GET /health} is open (200 while serving, 503
 * otherwise), and so is {@code GET /ui}, the admin page ({@link AdminPage}: it holds no data and sends the
 * token with its own calls); everything else needs {@code Authorization: Bearer <admin.token>}.
 */
public final class AdminServer implements AutoCloseable {
    private final Channel channel;

    private AdminServer(Channel channel) {
        this.channel = channel;
    }

    public static AdminServer start(Transport transport, EventLoopGroup group, HostPort listen, String token,
                                    PrometheusMeterRegistry registry, BooleanSupplier serving,
                                    Map<String, Supplier<String>> jsonEndpoints)
            throws InterruptedException {
        return start(transport, group, listen, token, registry, serving, jsonEndpoints, Map.of(), () -> { });
    }

    /**
     * With endpoints that read the request's query parameters (an {@link IllegalArgumentException}
     * from one is a 400 with its message), and {@code beforeScrape} run before each /metrics.
     */
    public static AdminServer start(Transport transport, EventLoopGroup group, HostPort listen, String token,
                                    PrometheusMeterRegistry registry, BooleanSupplier serving,
                                    Map<String, Supplier<String>> jsonEndpoints,
                                    Map<String, Function<Map<String, List<String>>, String>> queryEndpoints,
                                    Runnable beforeScrape)
            throws InterruptedException {
        return start(transport, group, listen, token, registry, serving, () -> "", jsonEndpoints, queryEndpoints, beforeScrape,
                AdminRoutes.NONE, Runnable::run);
    }

    /**
     * With {@code /health}'s second line from {@code healthDetail} (such as {@code DEGRADED}), and {@code routes}
     * (any method) served on {@code blocking}.
     */
    public static AdminServer start(Transport transport, EventLoopGroup group, HostPort listen, String token,
                                    PrometheusMeterRegistry registry, BooleanSupplier serving, Supplier<String> healthDetail,
                                    Map<String, Supplier<String>> jsonEndpoints,
                                    Map<String, Function<Map<String, List<String>>, String>> queryEndpoints,
                                    Runnable beforeScrape, AdminRoutes routes, java.util.concurrent.Executor blocking)
            throws InterruptedException {
        Map<String, Supplier<String>> endpoints = Map.copyOf(jsonEndpoints);
        Map<String, Function<Map<String, List<String>>, String>> withParameters = Map.copyOf(queryEndpoints);
        requireNonNull(beforeScrape, "beforeScrape is null");
        requireNonNull(token, "token is null");
        byte[] expected = ("Bearer " + token).getBytes(StandardCharsets.UTF_8);
        AdminPage page = AdminPage.load();
        ServerBootstrap bootstrap = new ServerBootstrap()
                .group(group)
                .channel(transport.serverSocketChannel())
                .childHandler(new ChannelInitializer<Channel>() {
                    @Override
                    protected void initChannel(Channel ch) {
                        ch.pipeline().addLast(new HttpServerCodec());
                        ch.pipeline().addLast(new HttpObjectAggregator(64 * 1024));
                        ch.pipeline().addLast(new Routes(expected, registry, serving, healthDetail, endpoints, withParameters,
                                beforeScrape, routes, blocking, page));
                    }
                });
        return new AdminServer(bootstrap.bind(new InetSocketAddress(listen.host(), listen.port())).sync().channel());
    }

    public int port() {
        return ((InetSocketAddress) channel.localAddress()).getPort();
    }

    @Override
    public void close() {
        channel.close().awaitUninterruptibly();
    }

    private static final class Routes extends SimpleChannelInboundHandler<FullHttpRequest> {
        private final byte[] expectedAuthorization;
        private final PrometheusMeterRegistry registry;
        private final BooleanSupplier serving;
        private final Map<String, Supplier<String>> jsonEndpoints;
        private final Map<String, Function<Map<String, List<String>>, String>> queryEndpoints;
        private final Runnable beforeScrape;
        private final Supplier<String> healthDetail;
        private final AdminRoutes routes;
        private final java.util.concurrent.Executor blocking;
        private final AdminPage page;

        Routes(byte[] expectedAuthorization, PrometheusMeterRegistry registry, BooleanSupplier serving, Supplier<String> healthDetail,
               Map<String, Supplier<String>> jsonEndpoints, Map<String, Function<Map<String, List<String>>, String>> queryEndpoints,
               Runnable beforeScrape, AdminRoutes routes, java.util.concurrent.Executor blocking, AdminPage page) {
            this.page = page;
            this.healthDetail = healthDetail;
            this.routes = routes;
            this.blocking = blocking;
            this.expectedAuthorization = expectedAuthorization;
            this.registry = registry;
            this.serving = serving;
            this.jsonEndpoints = jsonEndpoints;
            this.queryEndpoints = queryEndpoints;
            this.beforeScrape = beforeScrape;
        }

        @Override
        protected void channelRead0(ChannelHandlerContext ctx, FullHttpRequest request) {
            QueryStringDecoder uri = new QueryStringDecoder(request.uri());
            String path = uri.path();
            if (path.equals("/health") && HttpMethod.GET.equals(request.method())) {
                boolean up = serving.getAsBoolean();
                String detail = up ? healthDetail.get() : "";
                respond(ctx, request, up ? HttpResponseStatus.OK : HttpResponseStatus.SERVICE_UNAVAILABLE,
                        "text/plain", (up ? "ok\n" : "not serving\n") + (detail.isEmpty() ? "" : detail + "\n"));
                return;
            }
            if (page.serves(request.method(), path)) {
                send(ctx, HttpUtil.isKeepAlive(request), page.response());
                return;
            }
            String authorization = request.headers().get(HttpHeaderNames.AUTHORIZATION, "");
            if (!MessageDigest.isEqual(authorization.getBytes(StandardCharsets.UTF_8), expectedAuthorization)) {
                respond(ctx, request, HttpResponseStatus.UNAUTHORIZED, "text/plain",
                        "missing or wrong admin token (Authorization: Bearer ...)\n");
                return;
            }
            if (routes.handles(request.method().name(), path)) {
                serveBlocking(ctx, request, uri);
                return;
            }
            if (!HttpMethod.GET.equals(request.method())) {
                respond(ctx, request, HttpResponseStatus.METHOD_NOT_ALLOWED, "text/plain", "only GET\n");
                return;
            }
            if (path.equals("/metrics")) {
                beforeScrape.run();
                respond(ctx, request, HttpResponseStatus.OK, "text/plain; version=0.0.4; charset=utf-8", registry.scrape());
                return;
            }
            Function<Map<String, List<String>>, String> withParameters = queryEndpoints.get(path);
            if (withParameters != null) {
                try {
                    respond(ctx, request, HttpResponseStatus.OK, "application/json", withParameters.apply(uri.parameters()));
                } catch (IllegalArgumentException e) {
                    respond(ctx, request, HttpResponseStatus.BAD_REQUEST, "text/plain", e.getMessage() + "\n");
                }
                return;
            }
            Supplier<String> json = jsonEndpoints.get(path);
            if (json != null) {
                respond(ctx, request, HttpResponseStatus.OK, "application/json", json.get());
                return;
            }
            respond(ctx, request, HttpResponseStatus.NOT_FOUND, "text/plain", "no such endpoint: " + path + "\n");
        }

        /** Copies the request out of Netty's buffers and answers it from the blocking routes' thread. */
        private void serveBlocking(ChannelHandlerContext ctx, FullHttpRequest request, QueryStringDecoder uri) {
            String ifMatch = request.headers().get(HttpHeaderNames.IF_MATCH);
            String actor = request.headers().get("X-Shardgate-Actor");
            if (actor == null || actor.isBlank()) {
                actor = "admin@" + (ctx.channel().remoteAddress() instanceof InetSocketAddress remote
                        ? remote.getAddress().getHostAddress() : String.valueOf(ctx.channel().remoteAddress()));
            }
            AdminRequest copy = new AdminRequest(request.method().name(), uri.path(), uri.parameters(),
                    java.util.Optional.ofNullable(ifMatch).map(value -> value.replace("\"", "").trim()), actor,
                    request.content().toString(StandardCharsets.UTF_8));
            boolean keepAlive = HttpUtil.isKeepAlive(request);
            blocking.execute(() -> {
                AdminRoutes.Reply reply;
                try {
                    reply = routes.handle(copy);
                } catch (RuntimeException e) {
                    reply = new AdminRoutes.Reply(500, com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.objectNode()
                            .put("error", "internal error: " + e) + "\n");
                }
                respond(ctx, keepAlive, HttpResponseStatus.valueOf(reply.status()), "application/json", reply.json());
            });
        }

        private static void respond(ChannelHandlerContext ctx, FullHttpRequest request, HttpResponseStatus status,
                                    String contentType, String body) {
            respond(ctx, HttpUtil.isKeepAlive(request), status, contentType, body);
        }

        private static void respond(ChannelHandlerContext ctx, boolean keepAlive, HttpResponseStatus status,
                                    String contentType, String body) {
            FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status,
                    Unpooled.copiedBuffer(body, StandardCharsets.UTF_8));
            response.headers().set(HttpHeaderNames.CONTENT_TYPE, contentType);
            HttpUtil.setContentLength(response, response.content().readableBytes());
            send(ctx, keepAlive, response);
        }

        private static void send(ChannelHandlerContext ctx, boolean keepAlive, FullHttpResponse response) {
            HttpUtil.setKeepAlive(response, keepAlive);
            var future = ctx.writeAndFlush(response);
            if (!keepAlive) {
                future.addListener(ChannelFutureListener.CLOSE);
            }
        }
    }
}
