package io.shardgate.proxy.admin;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.shardgate.proxy.Main;
import io.shardgate.proxy.Main.UsageException;

import java.io.IOException;
import java.io.PrintStream;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static java.util.Objects.requireNonNull;

/**
 * {@code shardgate job [--url URL] [--token TOKEN] [--as NAME] COMMAND ARGS}: reshard and table-move jobs through a
 * proxy's admin API (docs/operations.md, "Jobs"). Same options, environment and exit statuses as {@code shardgate admin}
 * ({@link AdminCommand}); {@code watch} polls the job and exits 0 once it waits for the operator (ready, switched) or finished, 1 when it failed.
 */
public final class JobCommand {
    public static final String USAGE = """
            usage: shardgate job [--url URL] [--token TOKEN] [--as NAME] COMMAND [ARGS]
              reshard a shard's key range or move tables, through a proxy's admin API (see docs/operations.md, "Jobs")

              --url, --token, --as   as for shardgate admin ($SHARDGATE_ADMIN_URL, $SHARDGATE_ADMIN_TOKEN, the OS user)

            commands:
              start reshard --source SHARD --target NAME=PRIMARY[,REPLICA...]@ENGINE:KEY_RANGE ...
                                  split SHARD's key range over new shards, one --target each, e.g.
                                  --target s1a=10.0.0.7:3306,10.0.0.8:3306@innodb:40-80 (ENGINE may be empty: the source's)
              start move --tables SCHEMA.TABLE[,...] --to SHARD [--from SHARD] [--engine ENGINE]
                                  move tables to another shard and/or engine
                  either with [--max-rows-per-second N]: the copy and the diff read at most N source rows a second
              list                every job: id, kind, phase, rows copied, runner, requested action
              show ID             one job (JSON)
              watch ID [--interval-ms N]
                                  follow a job's progress (per-table bars, rate, ETA, lag, diff, throttle) until it is
                                  ready or finished; redraws in place on a terminal, one line per change otherwise
              cutover ID          switch traffic to the targets (the job must be ready)
              cancel ID           stop the job; the source keeps serving
              reverse ID          move traffic back to the source after a cutover (the reverse streams kept it current)
              complete ID         end a job after its cutover: the reverse streams stop, the targets serve for good

              exit status: 0 done; 1 the API answered an error, could not be reached, or the watched job failed;
              2 bad arguments.
            """;
    private static final Set<String> OPTIONS = Set.of("--url", "--token", "--as", "--source", "--target", "--tables", "--to",
            "--from", "--engine", "--interval-ms", "--max-rows-per-second");
    private static final Duration WATCH_INTERVAL = Duration.ofSeconds(1);

    private final Map<String, String> environment;
    private final String userName;
    private final PrintStream out;
    private final PrintStream err;
    private final boolean terminal;
    private final Duration timeout;
    private final ObjectMapper json = new ObjectMapper();
    private final ReplyPrinter printer;

    /** @param terminal stdout is a terminal: {@code watch} redraws in place */
    public JobCommand(Map<String, String> environment, String userName, PrintStream out, PrintStream err, boolean terminal) {
        this(environment, userName, out, err, terminal, AdminCommand.TIMEOUT);
    }

    JobCommand(Map<String, String> environment, String userName, PrintStream out, PrintStream err, boolean terminal,
               Duration timeout) {
        this.environment = Map.copyOf(requireNonNull(environment, "environment is null"));
        this.userName = userName;
        this.out = requireNonNull(out, "out is null");
        this.err = requireNonNull(err, "err is null");
        this.printer = new ReplyPrinter("shardgate job", this.out, this.err, json);
        this.terminal = terminal;
        this.timeout = requireNonNull(timeout, "timeout is null");
    }

    public int run(List<String> args) {
        if (args.contains("--help") || args.contains("-h")) {
            out.print(USAGE);
            return 0;
        }
        return Main.guarded("job", USAGE, err, () -> execute(AdminArguments.parse(args, OPTIONS)));
    }

    private int execute(AdminArguments args) throws IOException, InterruptedException {
        List<String> operands = args.operands();
        switch (args.command()) {
            case "start" -> {
                if (operands.isEmpty()) {
                    throw new UsageException("start needs reshard or move");
                }
                String body = switch (operands.get(0)) {
                    case "reshard" -> {
                        args.expect(1, "reshard --source SHARD --target ...", "--source", "--target", "--max-rows-per-second");
                        yield reshard(args);
                    }
                    case "move" -> {
                        args.expect(1, "move --tables SCHEMA.TABLE --to SHARD", "--tables", "--to", "--from", "--engine",
                                "--max-rows-per-second");
                        yield move(args);
                    }
                    default -> throw new UsageException("start needs reshard or move, not '" + operands.get(0) + "'");
                };
                return printer.print(client(args).send("POST", "/api/v1/jobs", body, null), printer::pretty);
            }
            case "list" -> {
                args.expect(0, "");
                return printer.print(client(args).send("GET", "/api/v1/jobs", null, null), body -> JobProgressView.table(json.readTree(body)));
            }
            case "show" -> {
                args.expect(1, "ID");
                return printer.print(client(args).send("GET", jobPath(operands.get(0)), null, null), printer::pretty);
            }
            case "watch" -> {
                args.expect(1, "ID", "--interval-ms");
                return watch(client(args), operands.get(0), interval(args));
            }
            case "cutover", "cancel", "reverse", "complete" -> {
                args.expect(1, "ID");
                return printer.print(client(args).send("POST", jobPath(operands.get(0)) + "/" + args.command(), "", null), printer::pretty);
            }
            default -> throw new UsageException("unknown command '" + args.command() + "'");
        }
    }

    private AdminApiClient client(AdminArguments args) {
        return new AdminCommand(environment, userName, out, err, timeout).client(args);
    }

    private static String jobPath(String id) {
        if (id.isBlank()) {
            throw new UsageException("a job id is empty");
        }
        return "/api/v1/jobs/" + AdminApiClient.segment(id);
    }

    private static Duration interval(AdminArguments args) {
        String value = args.single("--interval-ms");
        if (value == null) {
            return WATCH_INTERVAL;
        }
        try {
            long millis = Long.parseLong(value);
            if (millis >= 1 && millis <= 3_600_000) {
                return Duration.ofMillis(millis);
            }
        } catch (NumberFormatException e) {
            // below
        }
        throw new UsageException("--interval-ms needs 1..3600000, not '" + value + "'");
    }

    /** Polls the job every {@code interval}, showing each change, until it is ready or finished. */
    private int watch(AdminApiClient client, String id, Duration interval) throws IOException, InterruptedException {
        int drawn = 0;
        String last = null;
        while (true) {
            AdminApiClient.Reply reply = client.send("GET", jobPath(id), null, null);
            if (!reply.ok()) {
                err.println("shardgate job: HTTP " + reply.status() + ": " + reply.error(json));
                return 1;
            }
            JsonNode job = json.readTree(reply.body());
            if (terminal) {
                List<String> lines = JobProgressView.lines(job);
                String frame = String.join("\n", lines);
                if (!frame.equals(last)) {
                    // Up to the first line drawn last time, clear to the end, draw again.
                    out.print((drawn > 0 ? "\033[" + drawn + "F\033[J" : "") + frame + "\n");
                    out.flush();
                    drawn = lines.size();
                    last = frame;
                }
            } else {
                String line = JobProgressView.line(job);
                if (!line.equals(last)) {
                    out.println(line);
                    last = line;
                }
            }
            if (JobProgressView.settled(job)) {
                return job.path("phase").asText().equals("failed") ? 1 : 0;
            }
            Thread.sleep(interval.toMillis());
        }
    }

    private String reshard(AdminArguments args) {
        String source = args.single("--source");
        if (source == null || source.isBlank()) {
            throw new UsageException("start reshard needs --source SHARD");
        }
        List<String> targets = args.all("--target");
        if (targets.isEmpty()) {
            throw new UsageException("start reshard needs --target NAME=PRIMARY[,REPLICA...]@ENGINE:KEY_RANGE, once per new shard");
        }
        ObjectNode spec = json.createObjectNode().put("source", source);
        ArrayNode array = spec.putArray("targets");
        targets.forEach(target -> array.add(target(target)));
        maxRowsPerSecond(args, spec);
        return json.createObjectNode().put("kind", "reshard").<ObjectNode>set("spec", spec).toString();
    }

    /** {@code s1a=10.0.0.7:3306,10.0.0.8:3306@innodb:40-80}: name, primary, replicas, engine (may be empty), key range. */
    private ObjectNode target(String text) {
        int equals = text.indexOf('=');
        int at = text.lastIndexOf('@');
        int colon = at < 0 ? -1 : text.indexOf(':', at);
        if (equals <= 0 || at < equals + 2 || colon < 0 || colon == text.length() - 1) {
            throw new UsageException("--target needs NAME=PRIMARY[,REPLICA...]@ENGINE:KEY_RANGE, got '" + text + "'");
        }
        String[] servers = text.substring(equals + 1, at).split(",", -1);
        ObjectNode target = json.createObjectNode().put("name", text.substring(0, equals))
                .put("primary", AdminCommand.hostPort(servers[0]));
        ArrayNode replicas = target.putArray("replicas");
        for (int i = 1; i < servers.length; i++) {
            replicas.add(AdminCommand.hostPort(servers[i]));
        }
        String engine = text.substring(at + 1, colon);
        if (!engine.isEmpty()) {
            target.put("engine", engine);
        }
        return target.put("key_range", text.substring(colon + 1));
    }

    /** {@code --max-rows-per-second N} as the spec's number (the API checks it). */
    private static void maxRowsPerSecond(AdminArguments args, ObjectNode spec) {
        String rate = args.single("--max-rows-per-second");
        if (rate != null) {
            try {
                spec.put("max_rows_per_second", Long.parseLong(rate.strip()));
            } catch (NumberFormatException e) {
                throw new UsageException("--max-rows-per-second needs a whole number of rows, got '" + rate + "'");
            }
        }
    }

    private String move(AdminArguments args) {
        List<String> tables = args.all("--tables").stream().flatMap(list -> List.of(list.split(",")).stream())
                .map(String::strip).filter(table -> !table.isEmpty()).toList();
        if (tables.isEmpty()) {
            throw new UsageException("start move needs --tables SCHEMA.TABLE[,...]");
        }
        String to = args.single("--to");
        if (to == null || to.isBlank()) {
            throw new UsageException("start move needs --to SHARD");
        }
        ObjectNode spec = json.createObjectNode();
        tables.forEach(spec.putArray("tables")::add);
        String from = args.single("--from");
        if (from != null) {
            spec.put("source", from);
        }
        spec.put("target", to);
        String engine = args.single("--engine");
        if (engine != null) {
            spec.put("engine", engine);
        }
        maxRowsPerSecond(args, spec);
        return json.createObjectNode().put("kind", "move").<ObjectNode>set("spec", spec).toString();
    }

}
