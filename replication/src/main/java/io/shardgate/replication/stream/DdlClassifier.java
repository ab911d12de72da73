package io.shardgate.replication.stream;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

import static java.util.Objects.requireNonNull;

/**
 * Reads a logged statement that is not a transaction marker and tells which schemas it changes.
 * Only the leading keywords and the table names are read; the statement itself is applied as
 * logged.
 *
 * <ul>
 *   <li>{@code CREATE/ALTER/DROP DATABASE x}: a barrier for every schema, recorded for {@code x}.</li>
 *   <li>{@code CREATE/ALTER/DROP/TRUNCATE/RENAME TABLE}, {@code CREATE/DROP INDEX ... ON t}: the
 *       schemas of the named tables ({@code db.t}, or the default database for a bare {@code t}).</li>
 *   <li>Views and other schema DDL the reader cannot place: a barrier for every schema.</li>
 *   <li>Not carried (empty result): temporary tables, accounts and grants, triggers, stored
 *       routines and events (a trigger on the target would fire a second time for rows the
 *       stream already carries), table maintenance, FLUSH.</li>
 * </ul>
 */
public final class DdlClassifier {
    private static final Set<String> NOT_CARRIED = Set.of("USER", "ROLE", "TRIGGER", "PROCEDURE", "FUNCTION",
            "EVENT", "SERVER", "TEMPORARY", "PACKAGE", "SEQUENCE");
    private static final Set<String> DDL_VERBS = Set.of("CREATE", "ALTER", "DROP", "RENAME", "TRUNCATE");

    public DdlClassifier() {
    }

    /** The DDL change, or empty when the statement is not carried by the stream. */
    public Optional<DdlChange> classify(String defaultSchema, String sql) {
        requireNonNull(sql, "sql is null");
        String db = defaultSchema == null ? "" : defaultSchema;
        List<Token> tokens = Lexer.tokens(sql);
        if (tokens.isEmpty()) {
            return Optional.empty();
        }
        String verb = tokens.get(0).upper();
        if (!DDL_VERBS.contains(verb)) {
            return Optional.empty();
        }
        int i = 1;
        // Skip modifiers between the verb and the object kind.
        while (i < tokens.size() && isModifier(tokens.get(i).upper())) {
            i++;
        }
        if (i >= tokens.size() && !verb.equals("TRUNCATE")) {
            return Optional.empty();
        }
        String object = i < tokens.size() ? tokens.get(i).upper() : "";
        if (NOT_CARRIED.contains(object) || tokens.stream().limit(i + 1).anyMatch(t -> t.upper().equals("TEMPORARY"))) {
            return Optional.empty();
        }
        if (verb.equals("CREATE") || verb.equals("ALTER")) {
            for (int k = i; k < Math.min(tokens.size(), i + 12); k++) {
                String word = tokens.get(k).upper();
                if (word.equals("TRIGGER") || word.equals("PROCEDURE") || word.equals("FUNCTION") || word.equals("EVENT")) {
                    return Optional.empty();
                }
            }
        }
        switch (object) {
            case "DATABASE", "SCHEMA" -> {
                int n = skipIfExists(tokens, i + 1);
                String name = n < tokens.size() && tokens.get(n).isName() ? tokens.get(n).text() : db;
                return Optional.of(new DdlChange(db, sql, name.isEmpty() ? Set.of() : Set.of(name), true));
            }
            case "TABLE" -> {
                return Optional.of(tableDdl(db, sql, verb, tokens, skipIfExists(tokens, i + 1)));
            }
            case "INDEX" -> {
                for (int k = i + 1; k < tokens.size() - 1; k++) {
                    if (tokens.get(k).upper().equals("ON")) {
                        Set<String> schemas = new LinkedHashSet<>();
                        readName(tokens, k + 1, db, schemas);
                        return Optional.of(new DdlChange(db, sql, schemas, false));
                    }
                }
                return Optional.of(new DdlChange(db, sql, Set.of(), true));
            }
            default -> {
                if (verb.equals("TRUNCATE")) {
                    return Optional.of(tableDdl(db, sql, verb, tokens, i));
                }
                return Optional.of(new DdlChange(db, sql, db.isEmpty() ? Set.of() : Set.of(db), true));
            }
        }
    }

    private static DdlChange tableDdl(String db, String sql, String verb, List<Token> tokens, int start) {
        Set<String> schemas = new LinkedHashSet<>();
        int next = readName(tokens, start, db, schemas);
        if (verb.equals("DROP") || verb.equals("RENAME")) {
            // DROP TABLE a, b ...; RENAME TABLE a TO b, c TO d
            int k = next;
            while (k < tokens.size()) {
                String word = tokens.get(k).upper();
                if (word.equals(",") || word.equals("TO")) {
                    k = readName(tokens, k + 1, db, schemas);
                } else {
                    k++;
                }
            }
        } else {
            // CREATE TABLE t LIKE x.y; ALTER TABLE t RENAME [TO|AS] x.y
            for (int k = next; k < tokens.size() - 1; k++) {
                String word = tokens.get(k).upper();
                if (word.equals("LIKE") || (verb.equals("ALTER") && word.equals("RENAME"))) {
                    int n = k + 1;
                    if (n < tokens.size() && (tokens.get(n).upper().equals("TO") || tokens.get(n).upper().equals("AS"))) {
                        n++;
                    }
                    if (n < tokens.size() && tokens.get(n).isName() && !isKeywordAfterRename(tokens.get(n).upper())) {
                        readName(tokens, n, db, schemas);
                    }
                }
            }
        }
        boolean unknown = schemas.isEmpty();
        return new DdlChange(db, sql, schemas, unknown);
    }

    private static boolean isKeywordAfterRename(String word) {
        return word.equals("COLUMN") || word.equals("INDEX") || word.equals("KEY");
    }

    /** Reads {@code name} or {@code db.name} at {@code i}, adds its schema, returns the index after it. */
    private static int readName(List<Token> tokens, int i, String db, Set<String> schemas) {
        i = skipIfExists(tokens, i);
        if (i >= tokens.size() || !tokens.get(i).isName()) {
            return i;
        }
        if (i + 2 < tokens.size() && tokens.get(i + 1).text().equals(".") && tokens.get(i + 2).isName()) {
            schemas.add(tokens.get(i).text());
            return i + 3;
        }
        if (!db.isEmpty()) {
            schemas.add(db);
        }
        return i + 1;
    }

    private static int skipIfExists(List<Token> tokens, int i) {
        if (i + 1 < tokens.size() && tokens.get(i).upper().equals("IF")) {
            if (tokens.get(i + 1).upper().equals("EXISTS")) {
                return i + 2;
            }
            if (i + 2 < tokens.size() && tokens.get(i + 1).upper().equals("NOT") && tokens.get(i + 2).upper().equals("EXISTS")) {
                return i + 3;
            }
        }
        return i;
    }

    private static boolean isModifier(String word) {
        return switch (word) {
            case "OR", "REPLACE", "ONLINE", "OFFLINE", "IGNORE", "UNIQUE", "FULLTEXT", "SPATIAL", "TEMPORARY" -> true;
            default -> false;
        };
    }

    private record Token(String text, boolean quoted) {
        String upper() {
            return quoted ? "" : text.toUpperCase(Locale.ROOT);
        }

        boolean isName() {
            return quoted || (!text.isEmpty() && (Character.isLetterOrDigit(text.charAt(0)) || text.charAt(0) == '_'
                    || text.charAt(0) == '$'));
        }
    }

    /** Splits SQL into words, backquoted names and single punctuation; drops comments and string literals. */
    private static final class Lexer {
        static List<Token> tokens(String sql) {
            List<Token> tokens = new ArrayList<>();
            int i = 0;
            int n = sql.length();
            while (i < n) {
                char c = sql.charAt(i);
                if (Character.isWhitespace(c)) {
                    i++;
                } else if (c == '/' && i + 1 < n && sql.charAt(i + 1) == '*') {
                    int end = sql.indexOf("*/", i + 2);
                    i = end < 0 ? n : end + 2;
                } else if (c == '#' || (c == '-' && i + 2 < n && sql.charAt(i + 1) == '-'
                        && Character.isWhitespace(sql.charAt(i + 2)))) {
                    int end = sql.indexOf('\n', i);
                    i = end < 0 ? n : end + 1;
                } else if (c == '`') {
                    StringBuilder name = new StringBuilder();
                    i++;
                    while (i < n) {
                        char d = sql.charAt(i);
                        if (d == '`') {
                            if (i + 1 < n && sql.charAt(i + 1) == '`') {
                                name.append('`');
                                i += 2;
                                continue;
                            }
                            i++;
                            break;
                        }
                        name.append(d);
                        i++;
                    }
                    tokens.add(new Token(name.toString(), true));
                } else if (c == '\'' || c == '"') {
                    i++;
                    while (i < n && sql.charAt(i) != c) {
                        i += sql.charAt(i) == '\\' ? 2 : 1;
                    }
                    i++;
                    tokens.add(new Token("''", false));
                } else if (Character.isLetterOrDigit(c) || c == '_' || c == '$') {
                    int start = i;
                    while (i < n && (Character.isLetterOrDigit(sql.charAt(i)) || sql.charAt(i) == '_' || sql.charAt(i) == '$')) {
                        i++;
                    }
                    tokens.add(new Token(sql.substring(start, i), false));
                } else {
                    tokens.add(new Token(String.valueOf(c), false));
                    i++;
                }
            }
            return tokens;
        }
    }
}
