package io.shardgate.replication.stream.cli;

import io.shardgate.replication.gtid.MariaDbGtidPosition;

import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import static java.util.Objects.requireNonNull;

/**
 * The parsed arguments of {@code stream}. Parsing never touches the network; an error is an
 * {@link IllegalArgumentException} whose message is the one line to print.
 */
record StreamArgs(String source, String target, String user, String password, MariaDbGtidPosition from,
                  MariaDbGtidPosition until, Set<String> schemas, int workers, int progressSeconds) {
    static final String USAGE = "usage: stream --source HOST:PORT --target HOST:PORT --user U --password P"
            + " [--from-gtid POS] [--until-gtid POS] [--schemas a,b] [--workers N] [--progress-seconds S]";

    static StreamArgs parse(List<String> args) {
        requireNonNull(args, "args is null");
        String source = null;
        String target = null;
        String user = null;
        String password = null;
        MariaDbGtidPosition from = null;
        MariaDbGtidPosition until = null;
        Set<String> schemas = Set.of();
        int workers = 4;
        int progress = 5;
        for (int i = 0; i < args.size(); i++) {
            String name = args.get(i);
            if (!name.startsWith("--")) {
                throw new IllegalArgumentException("unexpected argument '" + name + "'");
            }
            if (i + 1 >= args.size()) {
                throw new IllegalArgumentException(name + " needs a value");
            }
            String value = args.get(++i);
            switch (name) {
                case "--source" -> source = value;
                case "--target" -> target = value;
                case "--user" -> user = value;
                case "--password" -> password = value;
                case "--from-gtid" -> from = MariaDbGtidPosition.parse(value);
                case "--until-gtid" -> until = MariaDbGtidPosition.parse(value);
                case "--schemas" -> schemas = new LinkedHashSet<>(Arrays.stream(value.split(","))
                        .map(String::trim).filter(s -> !s.isEmpty()).toList());
                case "--workers" -> workers = positive(name, value);
                case "--progress-seconds" -> progress = positive(name, value);
                default -> throw new IllegalArgumentException("unknown option " + name);
            }
        }
        if (source == null || target == null || user == null || password == null) {
            throw new IllegalArgumentException("--source, --target, --user and --password are required");
        }
        return new StreamArgs(source, target, user, password, from, until, Set.copyOf(schemas), workers, progress);
    }

    private static int positive(String name, String value) {
        try {
            int n = Integer.parseInt(value);
            if (n < 1) {
                throw new IllegalArgumentException(name + " must be at least 1, got " + value);
            }
            return n;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(name + " must be a number, got '" + value + "'", e);
        }
    }
}
