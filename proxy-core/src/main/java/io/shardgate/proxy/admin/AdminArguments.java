package io.shardgate.proxy.admin;

import io.shardgate.proxy.Main.UsageException;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code shardgate admin}'s command line split into the command, its operands and its options (each {@code --name value},
 * anywhere on the line; only {@code --replica} may repeat). Bad arguments are {@link UsageException}s.
 */
record AdminArguments(String command, List<String> operands, Map<String, List<String>> options) {
    private static final Set<String> OPTIONS = Set.of("--url", "--token", "--as", "--if-match", "--primary", "--replica", "--engine");
    private static final List<String> GLOBAL = List.of("--url", "--token", "--as");

    static AdminArguments parse(List<String> args) {
        return parse(args, OPTIONS);
    }

    /** With the options {@code known} (the global ones among them): {@code shardgate job} has its own. */
    static AdminArguments parse(List<String> args, Set<String> known) {
        List<String> positional = new ArrayList<>();
        Map<String, List<String>> options = new HashMap<>();
        for (int i = 0; i < args.size(); i++) {
            String arg = args.get(i);
            if (arg.startsWith("--")) {
                if (!known.contains(arg)) {
                    throw new UsageException("unknown option '" + arg + "'");
                }
                if (i + 1 >= args.size()) {
                    throw new UsageException(arg + " needs a value");
                }
                options.computeIfAbsent(arg, key -> new ArrayList<>()).add(args.get(++i));
            } else {
                positional.add(arg);
            }
        }
        if (positional.isEmpty()) {
            throw new UsageException("give a command");
        }
        Map<String, List<String>> values = new HashMap<>();
        options.forEach((option, given) -> values.put(option, List.copyOf(given)));
        return new AdminArguments(positional.get(0), List.copyOf(positional.subList(1, positional.size())), Map.copyOf(values));
    }

    /** Checks the operand count and that only the global options and {@code allowed} are given. */
    void expect(int count, String operandsUsage, String... allowed) {
        if (operands.size() != count) {
            throw new UsageException(command + (operandsUsage.isEmpty() ? " takes no arguments" : " needs " + operandsUsage)
                    + (operands.size() > count ? ", got '" + String.join(" ", operands) + "'" : ""));
        }
        List<String> permitted = new ArrayList<>(GLOBAL);
        permitted.addAll(List.of(allowed));
        for (String option : options.keySet()) {
            if (!permitted.contains(option)) {
                throw new UsageException(option + " does not apply to " + command);
            }
        }
    }

    /** The value of an option given at most once, or null. */
    String single(String option) {
        List<String> values = all(option);
        if (values.size() > 1) {
            throw new UsageException(option + " given more than once");
        }
        return values.isEmpty() ? null : values.get(0);
    }

    List<String> all(String option) {
        return options.getOrDefault(option, List.of());
    }

    Long ifMatch() {
        String value = single("--if-match");
        if (value == null) {
            return null;
        }
        try {
            long version = Long.parseLong(value);
            if (version >= 0) {
                return version;
            }
        } catch (NumberFormatException e) {
            // below
        }
        throw new UsageException("--if-match needs a version number, not '" + value + "'");
    }
}
