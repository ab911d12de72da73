package io.shardgate.proxy.admin;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.PrintStream;

import static java.util.Objects.requireNonNull;

/**
 * How the admin and job commands print an answer: a 2xx body as a {@link Formatter} makes it, on stdout (exit status
 * 0); any other answer as the API's error on stderr, after the command's name (exit status 1).
 */
final class ReplyPrinter {
    /** Turns a 2xx answer's body into what is printed; a body that is not JSON after all is printed as it came. */
    @FunctionalInterface
    interface Formatter {
        String apply(String body) throws JsonProcessingException;
    }

    private final String command;
    private final PrintStream out;
    private final PrintStream err;
    private final ObjectMapper json;

    ReplyPrinter(String command, PrintStream out, PrintStream err, ObjectMapper json) {
        this.command = requireNonNull(command, "command is null");
        this.out = requireNonNull(out, "out is null");
        this.err = requireNonNull(err, "err is null");
        this.json = requireNonNull(json, "json is null");
    }

    int print(AdminApiClient.Reply reply, Formatter format) {
        if (reply.ok()) {
            String text;
            try {
                text = reply.body().isBlank() ? "" : format.apply(reply.body());
            } catch (JsonProcessingException e) {
                text = reply.body(); // not JSON after all: as it came
            }
            out.print(text.isEmpty() || text.endsWith("\n") ? text : text + "\n");
            return 0;
        }
        err.println(command + ": HTTP " + reply.status() + ": " + reply.error(json));
        return 1;
    }

    /** The body, indented. */
    String pretty(String body) throws JsonProcessingException {
        return json.writerWithDefaultPrettyPrinter().writeValueAsString(json.readTree(body));
    }
}
