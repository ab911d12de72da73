package io.shardgate.proxy.config;

import com.fasterxml.jackson.databind.JsonNode;
import io.shardgate.router.value.SqlValue;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * A position in the parsed YAML tree that knows its own key path, so every error names the key
 * and the problem. Unknown keys are errors: a typo must not silently fall back to a default.
 */
final class ConfigNode {
    private final JsonNode node;
    private final String path;

    ConfigNode(JsonNode node, String path) {
        this.node = node;
        this.path = path;
    }

    String path() {
        return path;
    }

    boolean isMissing() {
        return node == null || node.isMissingNode() || node.isNull();
    }

    ConfigNode get(String key) {
        JsonNode child = node == null ? null : node.get(key);
        return new ConfigNode(child, path.isEmpty() ? key : path + "." + key);
    }

    void requireObject(Set<String> allowedKeys) {
        if (isMissing()) {
            return;
        }
        if (!node.isObject()) {
            throw error("expected a mapping");
        }
        Iterator<String> names = node.fieldNames();
        while (names.hasNext()) {
            String name = names.next();
            if (!allowedKeys.contains(name)) {
                throw new ConfigException((path.isEmpty() ? name : path + "." + name)
                        + ": unknown key (expected one of: " + String.join(", ", sorted(allowedKeys)) + ")");
            }
        }
    }

    List<ConfigNode> elements() {
        if (isMissing()) {
            return List.of();
        }
        if (!node.isArray()) {
            throw error("expected a list");
        }
        List<ConfigNode> elements = new ArrayList<>();
        for (int i = 0; i < node.size(); i++) {
            elements.add(new ConfigNode(node.get(i), path + "[" + i + "]"));
        }
        return elements;
    }

    /** The keys of a mapping, in file order; none when missing. */
    Iterator<String> fieldNames() {
        if (isMissing()) {
            return java.util.Collections.emptyIterator();
        }
        if (!node.isObject()) {
            throw error("expected a mapping");
        }
        return node.fieldNames();
    }

    /** A scalar value as the router takes it: an integer (INTEGER, or BIG_INTEGER beyond a long), a DECIMAL for other numbers, else TEXT. */
    Optional<SqlValue> scalar() {
        if (isMissing()) {
            return Optional.empty();
        }
        if (!node.isValueNode()) {
            throw error("expected a value");
        }
        if (node.isIntegralNumber()) {
            return Optional.of(SqlValue.ofInteger(node.bigIntegerValue()));
        }
        if (node.isNumber()) {
            return Optional.of(SqlValue.ofDecimal(node.decimalValue()));
        }
        return Optional.of(SqlValue.ofText(node.asText()));
    }

    String requiredString() {
        if (isMissing()) {
            throw error("is required");
        }
        return string();
    }

    Optional<String> optionalString() {
        return isMissing() ? Optional.empty() : Optional.of(string());
    }

    private String string() {
        if (!node.isValueNode()) {
            throw error("expected a string");
        }
        String text = node.asText();
        if (text.isBlank()) {
            throw error("must not be empty");
        }
        return text;
    }

    int intValue(int defaultValue, int min, int max) {
        if (isMissing()) {
            return defaultValue;
        }
        if (!node.canConvertToInt() || !node.isIntegralNumber()) {
            throw error("expected a whole number, got '" + node.asText() + "'");
        }
        int value = node.asInt();
        if (value < min || value > max) {
            throw error(value + " is out of range (expected: " + min + ".." + max + ")");
        }
        return value;
    }

    long longValue(long defaultValue, long min, long max) {
        if (isMissing()) {
            return defaultValue;
        }
        if (!node.isIntegralNumber()) {
            throw error("expected a whole number, got '" + node.asText() + "'");
        }
        long value = node.asLong();
        if (value < min || value > max) {
            throw error(value + " is out of range (expected: " + min + ".." + max + ")");
        }
        return value;
    }

    boolean booleanValue(boolean defaultValue) {
        if (isMissing()) {
            return defaultValue;
        }
        if (!node.isBoolean()) {
            throw error("expected true or false, got '" + node.asText() + "'");
        }
        return node.asBoolean();
    }

    ConfigException error(String problem) {
        return new ConfigException((path.isEmpty() ? "config" : path) + ": " + problem);
    }

    private static List<String> sorted(Set<String> keys) {
        List<String> list = new ArrayList<>(keys);
        list.sort(null);
        return list;
    }
}
