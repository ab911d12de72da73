package io.shardgate.proxy.admin;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;

/**
 * The remote side of {@code shardgate admin} in its tests: the JDK's HTTP server on 127.0.0.1 (a free port) that
 * records every request and answers each with one status, content type and body the test sets. With
 * {@link #holdAnswers()} it answers nothing until closed, for the client's timeout.
 */
final class FakeAdminApi implements AutoCloseable {
    /** One request as it arrived: the raw (still percent-encoded) path, and its headers by their names. */
    record Recorded(String method, String rawPath, String authorization, String ifMatch, String actor, String contentType,
                    String body) {
    }

    private final HttpServer server;
    private final List<Recorded> requests = new CopyOnWriteArrayList<>();
    private final CountDownLatch released = new CountDownLatch(1);
    private volatile boolean hold;
    private volatile int status = 200;
    private volatile String contentType = "application/json";
    private volatile String body = "{\"version\":8}";
    private volatile List<String> turns = List.of();
    private final java.util.concurrent.atomic.AtomicInteger turn = new java.util.concurrent.atomic.AtomicInteger();

    FakeAdminApi() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/", this::handle);
        server.start();
    }

    String url() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    FakeAdminApi answer(int status, String body) {
        return answer(status, "application/json", body);
    }

    FakeAdminApi answer(int status, String contentType, String body) {
        this.status = status;
        this.contentType = contentType;
        this.body = body;
        return this;
    }

    /** Answers 200 with each of {@code bodies} in turn, the last one from then on (for {@code job watch}). */
    FakeAdminApi answerInTurn(String... bodies) {
        this.status = 200;
        this.contentType = "application/json";
        this.turns = List.of(bodies);
        return this;
    }

    void holdAnswers() {
        hold = true;
    }

    List<Recorded> requests() {
        return List.copyOf(requests);
    }

    /** The one request the command made. */
    Recorded only() {
        if (requests.size() != 1) {
            throw new AssertionError("expected one request, got " + requests);
        }
        return requests.get(0);
    }

    private void handle(HttpExchange exchange) throws IOException {
        String requestBody;
        try (InputStream in = exchange.getRequestBody()) {
            requestBody = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        requests.add(new Recorded(exchange.getRequestMethod(), exchange.getRequestURI().getRawPath(),
                exchange.getRequestHeaders().getFirst("Authorization"), exchange.getRequestHeaders().getFirst("If-Match"),
                exchange.getRequestHeaders().getFirst("X-Shardgate-Actor"), exchange.getRequestHeaders().getFirst("Content-Type"),
                requestBody));
        if (hold) {
            try {
                released.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        List<String> inTurn = turns;
        String text = inTurn.isEmpty() ? body : inTurn.get(Math.min(turn.getAndIncrement(), inTurn.size() - 1));
        byte[] answer = text.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", contentType);
        exchange.sendResponseHeaders(status, answer.length == 0 ? -1 : answer.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(answer);
        }
    }

    @Override
    public void close() {
        released.countDown();
        server.stop(0);
    }
}
