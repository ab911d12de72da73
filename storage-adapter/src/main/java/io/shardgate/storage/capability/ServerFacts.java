package io.shardgate.storage.capability;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * What one server reported about itself, read once at startup (see {@link ServerFactsReader}).
 * Engine capabilities are derived from these facts by pure functions, so they can be tested
 * with facts written by hand.
 *
 * @param version             {@code SELECT VERSION()}
 * @param engines             {@code information_schema.ENGINES}: engine name (upper case) to SUPPORT
 *                            ({@code YES}, {@code DEFAULT}, {@code NO}, {@code DISABLED})
 * @param plugins             {@code information_schema.PLUGINS}: plugin name (upper case) to PLUGIN_STATUS
 * @param variables           {@code SHOW GLOBAL VARIABLES}: name (lower case) to value
 * @param status              the few {@code SHOW GLOBAL STATUS} values that describe abilities
 *                            ({@code Innodb_have_*}): name (lower case) to value
 * @param columnFamilyOptions {@code information_schema.ROCKSDB_CF_OPTIONS}: column family to
 *                            option type (upper case) to value; empty without MyRocks
 */
public record ServerFacts(String version, Map<String, String> engines, Map<String, String> plugins,
                          Map<String, String> variables, Map<String, String> status,
                          Map<String, Map<String, String>> columnFamilyOptions) {
    public ServerFacts {
        requireNonNull(version, "version is null");
        engines = upperKeys(requireNonNull(engines, "engines is null"), true);
        plugins = upperKeys(requireNonNull(plugins, "plugins is null"), true);
        variables = lowerKeys(requireNonNull(variables, "variables is null"));
        status = lowerKeys(requireNonNull(status, "status is null"));
        Map<String, Map<String, String>> families = new LinkedHashMap<>();
        requireNonNull(columnFamilyOptions, "columnFamilyOptions is null")
                .forEach((family, options) -> families.put(family, upperKeys(options, false)));
        columnFamilyOptions = Map.copyOf(families);
    }

    /**
     * True when the server can create tables in {@code engineName} now: SUPPORT is {@code YES}
     * or {@code DEFAULT}.
     */
    public boolean hasEngine(String engineName) {
        String support = engines.get(engineName.toUpperCase(Locale.ROOT));
        return "YES".equals(support) || "DEFAULT".equals(support);
    }

    /** The engine's SUPPORT column, or "absent" when the server does not list it at all. */
    public String engineSupport(String engineName) {
        return engines.getOrDefault(engineName.toUpperCase(Locale.ROOT), "absent");
    }

    public boolean pluginActive(String pluginName) {
        return "ACTIVE".equals(plugins.get(pluginName.toUpperCase(Locale.ROOT)));
    }

    public Optional<String> variable(String name) {
        return Optional.ofNullable(variables.get(name.toLowerCase(Locale.ROOT)));
    }

    /** A numeric variable; a missing or non-numeric value is an error naming the variable. */
    public long longVariable(String name) {
        String value = variable(name).orElseThrow(() ->
                new IllegalStateException("the server did not report the variable " + name));
        try {
            return Long.parseLong(value.trim());
        } catch (NumberFormatException e) {
            throw new IllegalStateException("variable " + name + " is not a number: '" + value + "'", e);
        }
    }

    /** {@code ON}, {@code YES}, {@code 1} and {@code TRUE} are true; a missing variable is {@code otherwise}. */
    public boolean isOn(String name, boolean otherwise) {
        return variable(name).map(ServerFacts::truthy).orElse(otherwise);
    }

    /** Like {@link #isOn} for a status value. */
    public boolean statusOn(String name) {
        String value = status.get(name.toLowerCase(Locale.ROOT));
        return value != null && truthy(value);
    }

    static boolean truthy(String value) {
        String v = value.trim().toUpperCase(Locale.ROOT);
        return v.equals("ON") || v.equals("YES") || v.equals("1") || v.equals("TRUE");
    }

    private static Map<String, String> upperKeys(Map<String, String> map, boolean upperValues) {
        Map<String, String> copy = new LinkedHashMap<>();
        map.forEach((key, value) -> copy.put(key.toUpperCase(Locale.ROOT),
                upperValues && value != null ? value.toUpperCase(Locale.ROOT) : value == null ? "" : value));
        return Map.copyOf(copy);
    }

    private static Map<String, String> lowerKeys(Map<String, String> map) {
        Map<String, String> copy = new LinkedHashMap<>();
        map.forEach((key, value) -> copy.put(key.toLowerCase(Locale.ROOT), value == null ? "" : value));
        return Map.copyOf(copy);
    }
}
