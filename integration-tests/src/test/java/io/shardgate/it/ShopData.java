package io.shardgate.it;

import io.shardgate.router.vindex.XxHash64;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.Function;

/**
 * The {@code shop} schema of the sharding acceptance tests and a deterministic data set for it:
 * 2000 customers, 20000 orders (customers 1991 to 2000 have none), a few countries and settings,
 * and a natively partitioned {@code events} table. Also the documented placement of an integer key
 * under {@code vindex: hash} with key ranges {@code -80}/{@code 80-} (docs/sharding.md), so a test
 * can say where a row must be without asking Shardgate.
 */
final class ShopData {
    static final int CUSTOMERS = 2000;
    static final int CUSTOMERS_WITH_ORDERS = 1990;
    static final int ORDERS = 20000;
    static final int EVENTS = 1500;
    /** Explicit order ids are this plus the order's ordinal, far above what a sequence hands out first. */
    static final long EXPLICIT_ORDER_ID_BASE = 1_000_000_000L;

    /** The same DDL for both shards and the oracle; no ENGINE clause, so each server's default applies. */
    static final String[] DDL = {
        "CREATE DATABASE shop",
        "CREATE TABLE shop.customers (id BIGINT PRIMARY KEY, name VARCHAR(64), country CHAR(2), created DATE)",
        "CREATE TABLE shop.orders (id BIGINT PRIMARY KEY, customer_id BIGINT, amount DECIMAL(10,2), status VARCHAR(16),"
                + " placed DATETIME, KEY (customer_id))",
        "CREATE TABLE shop.countries (code CHAR(2) PRIMARY KEY, name VARCHAR(64))",
        "CREATE TABLE shop.settings (k VARCHAR(32) PRIMARY KEY, v VARCHAR(64))",
        "CREATE TABLE shop.events (id BIGINT PRIMARY KEY, kind VARCHAR(16)) PARTITION BY RANGE (id)"
                + " (PARTITION p0 VALUES LESS THAN (1000), PARTITION p1 VALUES LESS THAN MAXVALUE)",
    };
    static final List<String> TABLES = List.of("countries", "customers", "events", "orders", "settings");

    /** Pairwise different under utf8mb4_general_ci, with accents and mixed case so that ordering needs the collation. */
    private static final List<String> FIRST_NAMES = List.of("alice", "Bob", "carol", "Émile", "dave", "Zoë", "yann",
            "Øyvind", "Ängel", "bea", "Chloé", "david");
    private static final List<String> LAST_NAMES = List.of("Smith", "jones", "Müller", "Garcia", "nguyen", "Kowalski",
            "Rossi", "dubois", "Tanaka", "Silva", "Ivanova", "Berg", "Olsen", "Novak", "Costa", "Weber", "Ahn", "Lopez",
            "Keller", "Moreau", "Sato", "Fischer", "Bauer", "Petit", "Ortiz");
    /** Country codes with weights: an uneven spread, so HAVING keeps some groups and drops others. */
    private static final String[] COUNTRY_CODES = {"DE", "FR", "GB", "US", "JP", "BR", "IN", "CA"};
    private static final int[] COUNTRY_WEIGHTS = {5, 3, 3, 8, 2, 1, 2, 1};
    private static final String[] STATUSES = {"new", "paid", "shipped", "cancelled", "returned"};
    private static final int[] STATUS_WEIGHTS = {2, 5, 6, 1, 1};
    private static final DateTimeFormatter DATETIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss");
    private static final LocalDateTime FIRST_PLACED = LocalDateTime.of(2023, 1, 1, 0, 0);

    static final List<Country> COUNTRIES = List.of(new Country("BR", "Brazil"), new Country("CA", "Canada"),
            new Country("DE", "Germany"), new Country("FR", "France"), new Country("GB", "United Kingdom"),
            new Country("IN", "India"), new Country("JP", "Japan"), new Country("NZ", "New Zealand"),
            new Country("US", "United States"), new Country("ZA", "South Africa"));
    static final List<Setting> SETTINGS = List.of(new Setting("currency", "EUR"), new Setting("locale", "de_DE"),
            new Setting("max_cart", "40"), new Setting("theme", "dark"), new Setting("vat", "0.19"));

    record Customer(long id, String name, String country, LocalDate created) {
        String values() {
            return "(" + id + ", " + literal(name) + ", " + literal(country) + ", " + literal(created.toString()) + ")";
        }

        Object[] parameters() {
            return new Object[] {id, name, country, created};
        }
    }

    /**
     * One order; {@code id} is null when the order takes its id from the global sequence.
     * {@code placed} is unique, so it finds the row again whatever id it got.
     */
    record OrderRow(int ordinal, Long id, long customerId, BigDecimal amount, String status, LocalDateTime placed) {
        boolean fromSequence() {
            return id == null;
        }

        /** The VALUES tuple with {@code id} first ({@code idText} for an order without one, such as NULL). */
        String valuesWithId(String idText) {
            return "(" + (id == null ? idText : id.toString()) + ", " + valuesWithoutId().substring(1);
        }

        String valuesWithoutId() {
            return "(" + customerId + ", " + amount.toPlainString() + ", " + literal(status) + ", "
                    + literal(placedText()) + ")";
        }

        String placedText() {
            return DATETIME.format(placed);
        }
    }

    record Country(String code, String name) {
    }

    record Setting(String key, String value) {
    }

    private ShopData() {
    }

    static List<Customer> customers() {
        Random random = new Random(2000);
        List<Customer> customers = new ArrayList<>(CUSTOMERS);
        for (long id = 1; id <= CUSTOMERS; id++) {
            String name = FIRST_NAMES.get((int) (id % FIRST_NAMES.size())) + " "
                    + LAST_NAMES.get((int) ((id / FIRST_NAMES.size()) % LAST_NAMES.size()));
            String country = COUNTRY_CODES[weighted(random, COUNTRY_WEIGHTS)];
            LocalDate created = LocalDate.of(2020, 1, 1).plusDays(random.nextInt(1461));
            customers.add(new Customer(id, name, id % 61 == 0 ? null : country, created));
        }
        return customers;
    }

    static List<OrderRow> orders() {
        Random random = new Random(20000);
        List<OrderRow> orders = new ArrayList<>(ORDERS);
        for (int n = 0; n < ORDERS; n++) {
            long customer = 1 + random.nextInt(CUSTOMERS_WITH_ORDERS);
            BigDecimal amount = BigDecimal.valueOf(1 + random.nextInt(50000), 2);
            String status = STATUSES[weighted(random, STATUS_WEIGHTS)];
            // 7919 is prime to 20000, so this is a permutation: placed is unique and not in id order.
            LocalDateTime placed = FIRST_PLACED.plusSeconds((n * 7919L % ORDERS) * 1500);
            orders.add(new OrderRow(n, n % 20 == 0 ? null : EXPLICIT_ORDER_ID_BASE + n, customer, amount, status, placed));
        }
        return orders;
    }

    /** Events 1 to {@link #EVENTS}; native partition p0 holds ids below 1000. */
    static List<String> eventValues(long fromId, long toId) {
        List<String> values = new ArrayList<>();
        for (long id = fromId; id <= toId; id++) {
            values.add("(" + id + ", '" + (id % 3 == 0 ? "buy" : id % 3 == 1 ? "view" : "click") + "')");
        }
        return values;
    }

    /**
     * The shard that owns integer key {@code key} under {@code vindex: hash} and the key ranges
     * s0 {@code -80}, s1 {@code 80-}: XXH64 (seed 0) of the key's decimal digits, as an unsigned
     * number, below 0x8000000000000000 is s0.
     */
    static String shardOf(long key) {
        long keyspaceId = XxHash64.hash(Long.toString(key).getBytes(StandardCharsets.US_ASCII));
        return Long.compareUnsigned(keyspaceId, 0x8000000000000000L) < 0 ? "s0" : "s1";
    }

    /** The first key from {@code from} up that {@link #shardOf} places on {@code shard}. */
    static long firstKeyOn(String shard, long from) {
        long key = from;
        while (!shardOf(key).equals(shard)) {
            key++;
        }
        return key;
    }

    /** {@code INSERT INTO table columns VALUES ...} statements of at most {@code perStatement} rows. */
    static <T> List<String> multiRowInserts(String table, String columns, List<T> rows, Function<T, String> values,
                                             int perStatement) {
        List<String> statements = new ArrayList<>();
        for (int start = 0; start < rows.size(); start += perStatement) {
            StringBuilder sql = new StringBuilder("INSERT INTO ").append(table).append(' ').append(columns).append(" VALUES ");
            List<T> chunk = rows.subList(start, Math.min(rows.size(), start + perStatement));
            for (int i = 0; i < chunk.size(); i++) {
                sql.append(i == 0 ? "" : ", ").append(values.apply(chunk.get(i)));
            }
            statements.add(sql.toString());
        }
        return statements;
    }

    static String literal(String value) {
        return value == null ? "NULL" : "'" + value.replace("\\", "\\\\").replace("'", "''") + "'";
    }

    private static int weighted(Random random, int[] weights) {
        int total = 0;
        for (int weight : weights) {
            total += weight;
        }
        int pick = random.nextInt(total);
        for (int i = 0; i < weights.length; i++) {
            pick -= weights[i];
            if (pick < 0) {
                return i;
            }
        }
        throw new AssertionError("unreachable");
    }
}
