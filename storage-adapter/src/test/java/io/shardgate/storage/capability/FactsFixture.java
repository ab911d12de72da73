package io.shardgate.storage.capability;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Loads {@link ServerFacts} from a text fixture under {@code src/test/resources/facts}: one fact
 * per line, tab-separated ({@code version V}, {@code engine NAME SUPPORT},
 * {@code plugin NAME STATUS}, {@code variable NAME VALUE}, {@code status NAME VALUE},
 * {@code cf FAMILY OPTION VALUE}); {@code #} starts a comment line. The fixtures were read from
 * real servers on this machine.
 */
public final class FactsFixture {
    /** InnoDB only: no plugins loaded. */
    public static final String PLAIN = "mariadb-10.11-plain.facts";
    /** ha_rocksdb and provider_lz4 loaded. */
    public static final String ROCKSDB_LZ4 = "mariadb-10.11-rocksdb-lz4.facts";

    private FactsFixture() {
    }

    public static ServerFacts load(String name) {
        try (InputStream in = FactsFixture.class.getResourceAsStream("/facts/" + name)) {
            if (in == null) {
                throw new IllegalArgumentException("no fixture /facts/" + name);
            }
            return parse(new String(in.readAllBytes(), StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static ServerFacts parse(String text) {
        String version = "";
        Map<String, String> engines = new LinkedHashMap<>();
        Map<String, String> plugins = new LinkedHashMap<>();
        Map<String, String> variables = new LinkedHashMap<>();
        Map<String, String> status = new LinkedHashMap<>();
        Map<String, Map<String, String>> families = new LinkedHashMap<>();
        for (String line : text.split("\n")) {
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            String[] f = line.split("\t", -1);
            switch (f[0]) {
                case "version" -> version = f[1];
                case "engine" -> engines.put(f[1], f[2]);
                case "plugin" -> plugins.put(f[1], f[2]);
                case "variable" -> variables.put(f[1], f[2]);
                case "status" -> status.put(f[1], f[2]);
                case "cf" -> families.computeIfAbsent(f[1], k -> new LinkedHashMap<>()).put(f[2], f[3]);
                default -> throw new IllegalArgumentException("unknown fact kind in: " + line);
            }
        }
        return new ServerFacts(version, engines, plugins, variables, status, families);
    }

    /** {@code facts} with one variable set (or added). */
    public static ServerFacts withVariable(ServerFacts facts, String name, String value) {
        Map<String, String> variables = new LinkedHashMap<>(facts.variables());
        variables.put(name, value);
        return new ServerFacts(facts.version(), facts.engines(), facts.plugins(), variables, facts.status(),
                facts.columnFamilyOptions());
    }

    /** {@code facts} with one status value set (or added). */
    public static ServerFacts withStatus(ServerFacts facts, String name, String value) {
        Map<String, String> status = new LinkedHashMap<>(facts.status());
        status.put(name, value);
        return new ServerFacts(facts.version(), facts.engines(), facts.plugins(), facts.variables(), status,
                facts.columnFamilyOptions());
    }

    /** {@code facts} with one column family option set. */
    public static ServerFacts withFamilyOption(ServerFacts facts, String family, String option, String value) {
        Map<String, Map<String, String>> families = new LinkedHashMap<>();
        facts.columnFamilyOptions().forEach((name, options) -> families.put(name, new LinkedHashMap<>(options)));
        families.computeIfAbsent(family, k -> new LinkedHashMap<>()).put(option, value);
        return new ServerFacts(facts.version(), facts.engines(), facts.plugins(), facts.variables(), facts.status(),
                families);
    }
}
