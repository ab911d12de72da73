package io.shardgate.proxy.admin;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.shardgate.proxy.Main;
import io.shardgate.proxy.Main.UsageException;

import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

import static java.util.Objects.requireNonNull;

/**
 * {@code shardgate admin [--url URL] [--token TOKEN] [--as NAME] COMMAND ARGS}: the operators' command for the
 * topology admin API (docs/operations.md). Each command is one request; a 2xx answer is printed on stdout (pretty
 * JSON, or a table for {@code proxies}) with status 0; an API error is {@code shardgate admin: HTTP <code>: <error>}
 * on stderr with status 1, as is an API that does not answer; bad arguments print the usage on stderr, status 2.
 */
public final class AdminCommand {
    public static final String USAGE = """
            usage: shardgate admin [--url URL] [--token TOKEN] [--as NAME] COMMAND [ARGS]
              change the topology live through a proxy's admin API (see docs/operations.md)

              --url URL      the proxy's admin listener (default: $SHARDGATE_ADMIN_URL, else http://127.0.0.1:8307)
              --token TOKEN  the admin token (default: $SHARDGATE_ADMIN_TOKEN)
              --as NAME      who makes the change, recorded in the history (default: the OS user name)

            commands:
              topology                        version, store, state, document and proxies (JSON)
              proxies                         each proxy's id, address, version and start, and whether it serves the newest version
              history                         who changed what, and when (JSON)
              get-document                    the document alone (JSON) on stdout; "version N" on stderr
              put-document FILE --if-match N  replace the whole document, if its version is still N
              add-replica SHARD HOST:PORT     add a replica to a shard
              remove-replica SHARD HOST:PORT  remove a replica from a shard
              drain HOST:PORT                 set a backend draining
              serve HOST:PORT                 set a backend serving
              offline HOST:PORT               set a backend offline
              routing KEY=VALUE...            change routing settings, e.g. max_replica_lag_ms=500 (a number is sent
                                              as a JSON number, anything else as a string)
              add-shard NAME --primary HOST:PORT [--replica HOST:PORT ...] [--engine E]
                                              add a shard with an empty key range
              remove-shard NAME               remove a shard that owns no keys (a cancelled or reversed reshard's
                                              target), once no job that has not ended uses it

              every write also takes --if-match N: it applies only while the topology's version is N (else HTTP 409).
              exit status: 0 done; 1 the API answered an error or could not be reached; 2 bad arguments.
            """;
    static final String DEFAULT_URL = "http://127.0.0.1:8307";
    static final Duration TIMEOUT = Duration.ofSeconds(10);

    /** A JSON number literal (RFC 8259 section 6): sent as a number; any other routing value is sent as a string. */
    private static final Pattern JSON_NUMBER = Pattern.compile("-?(0|[1-9][0-9]*)(\\.[0-9]+)?([eE][+-]?[0-9]+)?");

    private final Map<String, String> environment;
    private final String userName;
    private final PrintStream out;
    private final PrintStream err;
    private final Duration timeout;
    private final ObjectMapper json = new ObjectMapper();
    private final ReplyPrinter printer;

    /**
     * @param environment where {@code SHARDGATE_ADMIN_URL} and {@code SHARDGATE_ADMIN_TOKEN} are looked up ({@code System.getenv()})
     * @param userName    the default actor ({@code System.getProperty("user.name")}); null or empty sends none
     */
    public AdminCommand(Map<String, String> environment, String userName, PrintStream out, PrintStream err) {
        this(environment, userName, out, err, TIMEOUT);
    }

    AdminCommand(Map<String, String> environment, String userName, PrintStream out, PrintStream err, Duration timeout) {
        this.environment = Map.copyOf(requireNonNull(environment, "environment is null"));
        this.userName = userName;
        this.out = requireNonNull(out, "out is null");
        this.err = requireNonNull(err, "err is null");
        this.printer = new ReplyPrinter("shardgate admin", this.out, this.err, json);
        this.timeout = requireNonNull(timeout, "timeout is null");
    }

    /** Runs {@code args} (what follows {@code admin}); returns the exit status. */
    public int run(List<String> args) {
        if (args.contains("--help") || args.contains("-h")) {
            out.print(USAGE);
            return 0;
        }
        return Main.guarded("admin", USAGE, err, () -> execute(AdminArguments.parse(args)));
    }

    private int execute(AdminArguments args) throws IOException, InterruptedException {
        String command = args.command();
        switch (command) {
            case "topology", "history", "proxies", "get-document" -> args.expect(0, "");
            case "add-replica", "remove-replica" -> args.expect(2, "SHARD HOST:PORT", "--if-match");
            case "drain", "serve", "offline" -> args.expect(1, "HOST:PORT", "--if-match");
            case "remove-shard" -> args.expect(1, "NAME", "--if-match");
            case "add-shard" -> args.expect(1, "NAME --primary HOST:PORT", "--if-match", "--primary", "--replica", "--engine");
            case "put-document" -> args.expect(1, "FILE --if-match N", "--if-match");
            case "routing" -> {
                if (args.operands().isEmpty()) {
                    throw new UsageException("routing needs KEY=VALUE...");
                }
                args.expect(args.operands().size(), "KEY=VALUE...", "--if-match");
            }
            default -> throw new UsageException("unknown command '" + command + "'");
        }
        Long ifMatch = args.ifMatch();
        if (command.equals("put-document") && ifMatch == null) {
            throw new UsageException("put-document needs --if-match N (the version the document was read at; get-document prints it)");
        }
        Call call = call(args);
        return printer.print(client(args).send(call.method(), call.path(), call.body(), ifMatch), call.format());
    }

    /** One command's request, and how its 2xx answer is printed. */
    private record Call(String method, String path, String body, ReplyPrinter.Formatter format) {
    }

    /** The request {@code args} asks for, checked before anything is sent. */
    private Call call(AdminArguments args) throws IOException {
        List<String> operands = args.operands();
        return switch (args.command()) {
            case "topology" -> new Call("GET", "/api/v1/topology", null, printer::pretty);
            case "history" -> new Call("GET", "/api/v1/topology/history", null, printer::pretty);
            case "proxies" -> new Call("GET", "/api/v1/topology", null, body -> ProxiesTable.render(json.readTree(body)));
            case "get-document" -> new Call("GET", "/api/v1/topology", null, this::document);
            case "put-document" -> new Call("PUT", "/api/v1/topology", readDocument(Path.of(operands.get(0))), printer::pretty);
            case "add-replica" -> new Call("POST", "/api/v1/shards/" + AdminApiClient.segment(name(operands.get(0))) + "/replicas",
                    json.createObjectNode().put("address", hostPort(operands.get(1))).toString(), printer::pretty);
            case "remove-replica" -> new Call("DELETE", "/api/v1/shards/" + AdminApiClient.segment(name(operands.get(0)))
                    + "/replicas/" + AdminApiClient.segment(hostPort(operands.get(1))), null, printer::pretty);
            case "drain", "serve", "offline" -> {
                String state = switch (args.command()) {
                    case "drain" -> "draining";
                    case "serve" -> "serving";
                    default -> "offline";
                };
                yield new Call("PUT", "/api/v1/backends/" + AdminApiClient.segment(hostPort(operands.get(0))) + "/state",
                        json.createObjectNode().put("state", state).toString(), printer::pretty);
            }
            case "routing" -> new Call("PATCH", "/api/v1/routing", routing(operands).toString(), printer::pretty);
            case "add-shard" -> new Call("POST", "/api/v1/shards", shard(args).toString(), printer::pretty);
            case "remove-shard" -> new Call("DELETE", "/api/v1/shards/" + AdminApiClient.segment(name(operands.get(0))), null,
                    printer::pretty);
            default -> throw new IllegalStateException(args.command());
        };
    }

    /** The API client {@code --url}, {@code --token} and {@code --as} (or the environment and the OS user) name; {@code job} uses it too. */
    AdminApiClient client(AdminArguments args) {
        String url = args.single("--url");
        if (url == null) {
            url = environment.getOrDefault("SHARDGATE_ADMIN_URL", "");
            url = url.isBlank() ? DEFAULT_URL : url.strip();
        }
        try {
            URI uri = URI.create(url);
            if (!("http".equals(uri.getScheme()) || "https".equals(uri.getScheme())) || uri.getHost() == null
                    || uri.getRawQuery() != null || uri.getRawFragment() != null) {
                throw new IllegalArgumentException("expected http://HOST:PORT");
            }
        } catch (IllegalArgumentException e) {
            throw new UsageException("bad admin URL '" + url + "' (expected e.g. " + DEFAULT_URL + ")");
        }
        String token = args.single("--token");
        if (token == null) {
            token = environment.get("SHARDGATE_ADMIN_TOKEN");
        }
        if (token == null || token.isEmpty()) {
            throw new UsageException("no admin token: give --token TOKEN or set SHARDGATE_ADMIN_TOKEN");
        }
        String actor = args.single("--as");
        if (actor == null) {
            actor = userName == null || userName.isEmpty() ? null : userName;
        }
        if (!headerValue(token)) {
            throw new UsageException("the admin token must be printable ASCII");
        }
        if (actor != null && !headerValue(actor)) {
            throw new UsageException("the actor '" + actor + "' must be printable ASCII (--as NAME; default: the OS user name)");
        }
        return new AdminApiClient(url.replaceAll("/+$", ""), token, actor, timeout);
    }

    private static boolean headerValue(String value) {
        return value.chars().allMatch(c -> c >= 0x20 && c < 0x7f);
    }


    /** {@code get-document}: the document on stdout, its version on stderr, so stdout can go straight to a file. */
    private String document(String body) throws JsonProcessingException {
        JsonNode topology = json.readTree(body);
        err.println("version " + topology.path("version").asText("?"));
        return json.writerWithDefaultPrettyPrinter().writeValueAsString(topology.path("document"));
    }

    private String readDocument(Path file) throws IOException {
        String text;
        try {
            text = Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new IOException("cannot read " + file + ": " + e, e);
        }
        try {
            if (!json.readTree(text).isObject()) {
                throw new IOException(file + " is not a JSON object (expected the document, as get-document prints it)");
            }
        } catch (JsonProcessingException e) {
            throw new IOException(file + " is not JSON: " + e.getOriginalMessage(), e);
        }
        return text;
    }

    /** {@code routing KEY=VALUE...}: one object; a JSON number literal is sent as a number, anything else as a string. */
    private ObjectNode routing(List<String> pairs) throws JsonProcessingException {
        ObjectNode body = json.createObjectNode();
        for (String pair : pairs) {
            int equals = pair.indexOf('=');
            if (equals <= 0) {
                throw new UsageException("expected KEY=VALUE, got '" + pair + "'");
            }
            String key = pair.substring(0, equals);
            String value = pair.substring(equals + 1);
            if (body.has(key)) {
                throw new UsageException("routing key '" + key + "' given twice");
            }
            if (JSON_NUMBER.matcher(value).matches()) {
                body.set(key, json.readTree(value));
            } else {
                body.put(key, value);
            }
        }
        return body;
    }

    private ObjectNode shard(AdminArguments args) {
        String primary = args.single("--primary");
        if (primary == null) {
            throw new UsageException("add-shard needs --primary HOST:PORT");
        }
        ObjectNode body = json.createObjectNode().put("name", name(args.operands().get(0))).put("primary", hostPort(primary));
        ArrayNode replicas = body.putArray("replicas");
        for (String replica : args.all("--replica")) {
            replicas.add(hostPort(replica));
        }
        String engine = args.single("--engine");
        if (engine != null) {
            body.put("engine", engine);
        }
        return body;
    }

    private static String name(String name) {
        if (name.isBlank()) {
            throw new UsageException("a shard's name is empty");
        }
        return name;
    }

    /** A backend's address: HOST:PORT with a port in 1..65535, as the config's addresses are. */
    static String hostPort(String address) {
        int colon = address.lastIndexOf(':');
        if (colon > 0 && colon < address.length() - 1 && address.substring(colon + 1).chars().allMatch(Character::isDigit)
                && address.length() - colon - 1 <= 5) {
            int port = Integer.parseInt(address.substring(colon + 1));
            if (port >= 1 && port <= 65535) {
                return address;
            }
        }
        throw new UsageException("expected HOST:PORT, got '" + address + "'");
    }
}
