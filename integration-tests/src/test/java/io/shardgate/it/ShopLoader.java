package io.shardgate.it;

import io.shardgate.it.ShopQueries.Client;
import io.shardgate.it.ShopData.Customer;
import io.shardgate.it.ShopData.OrderRow;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

import static io.shardgate.it.ShopData.literal;
import static io.shardgate.it.ShopData.multiRowInserts;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Writes the {@code shop} data set ({@link ShopData}) through a server in the many forms a client
 * can use, reads back what each shard stored, and builds the same data set for one unsharded server.
 */
final class ShopLoader {
    static final String CUSTOMER_COLUMNS = "(id, name, country, created)";
    static final String ORDER_COLUMNS = "(id, customer_id, amount, status, placed)";
    static final String ORDER_COLUMNS_WITHOUT_ID = "(customer_id, amount, status, placed)";

    private ShopLoader() {
    }

    /** What was written through Shardgate, read back from each shard primary, and the ids orders got. */
    record Loaded(Map<String, List<Customer>> customers, Map<String, List<OrderRow>> orders,
                  Map<String, QueryResult> countries, Map<String, QueryResult> settings, Map<Integer, Long> reportedIds) {
        /** Each order's id as stored on a shard, by ordinal (the first one found if a row is on several shards). */
        Map<Integer, Long> orderIds() {
            Map<Integer, Long> ids = new HashMap<>();
            orders.values().forEach(rows -> rows.forEach(row -> ids.putIfAbsent(row.ordinal(), row.id())));
            return ids;
        }
    }

    /**
     * Inserts the data set through the server at {@code hostPort} (Shardgate, in the test), schema
     * shop, in several forms: single-row and multi-row, text and server-prepared, MariaDB
     * Connector/J and MySQL Connector/J (whose rewriteBatchedStatements sends multi-row text
     * INSERTs). One order in 20 has no id and takes one from the sequence: the column left out, or
     * NULL. Returns the generated keys reported for the single-row inserts that left the id out, by
     * order ordinal (0 when none was reported).
     */
    static Map<Integer, Long> insertDataSet(String hostPort, String user, String password) throws SQLException {
        List<Customer> customers = ShopData.customers();
        List<OrderRow> orders = ShopData.orders();
        Map<Integer, Long> reportedIds = new TreeMap<>();
        try (Connection text = DriverManager.getConnection(Client.MARIADB_TEXT.url(hostPort), user, password);
             Connection prepared = DriverManager.getConnection(Client.MARIADB_PREPARED.url(hostPort), user, password);
             Connection batching = DriverManager.getConnection(Client.MYSQL_TEXT.url(hostPort) + "&rewriteBatchedStatements=true",
                     user, password);
             Statement statement = text.createStatement()) {
            assertThat(statement.executeUpdate(multiRowInserts("countries", "(code, name)", ShopData.COUNTRIES,
                    c -> "(" + literal(c.code()) + ", " + literal(c.name()) + ")", 100).get(0))).isEqualTo(ShopData.COUNTRIES.size());
            for (ShopData.Setting setting : ShopData.SETTINGS) {
                statement.executeUpdate("INSERT INTO settings (k, v) VALUES (" + literal(setting.key()) + ", " + literal(setting.value()) + ")");
            }

            // Customers 1-250 single-row text, 251-500 single-row prepared, 501-1250 rewritten batches, 1251-2000 multi-row prepared.
            for (Customer customer : customers.subList(0, 250)) {
                assertThat(statement.executeUpdate("INSERT INTO customers " + CUSTOMER_COLUMNS + " VALUES " + customer.values())).isEqualTo(1);
            }
            try (PreparedStatement insert = prepared.prepareStatement("INSERT INTO customers " + CUSTOMER_COLUMNS + " VALUES (?, ?, ?, ?)")) {
                for (Customer customer : customers.subList(250, 500)) {
                    bind(insert, 1, customer.parameters());
                    assertThat(insert.executeUpdate()).isEqualTo(1);
                }
            }
            try (PreparedStatement insert = batching.prepareStatement("INSERT INTO customers " + CUSTOMER_COLUMNS + " VALUES (?, ?, ?, ?)")) {
                List<Customer> batch = customers.subList(500, 1250);
                for (int i = 0; i < batch.size(); i++) {
                    bind(insert, 1, batch.get(i).parameters());
                    insert.addBatch();
                    if (i % 250 == 249) {
                        insert.executeBatch();
                    }
                }
            }
            try (PreparedStatement insert = prepared.prepareStatement("INSERT INTO customers " + CUSTOMER_COLUMNS + " VALUES "
                    + placeholders(50, 4))) {
                List<Customer> rest = customers.subList(1250, ShopData.CUSTOMERS);
                for (int start = 0; start < rest.size(); start += 50) {
                    int p = 1;
                    for (Customer customer : rest.subList(start, start + 50)) {
                        p = bind(insert, p, customer.parameters());
                    }
                    assertThat(insert.executeUpdate()).isEqualTo(50);
                }
            }

            // Orders 0-1999 text single-row (ids left out for one in 40, and one multi-row INSERT without ids for 50 more).
            List<OrderRow> withoutIdColumn = new ArrayList<>();
            for (OrderRow order : orders.subList(0, 2000)) {
                if (order.fromSequence() && order.ordinal() % 40 == 20) {
                    withoutIdColumn.add(order);
                }
                else if (order.fromSequence()) {
                    assertThat(statement.executeUpdate("INSERT INTO orders " + ORDER_COLUMNS_WITHOUT_ID + " VALUES "
                            + order.valuesWithoutId(), Statement.RETURN_GENERATED_KEYS)).isEqualTo(1);
                    reportedIds.put(order.ordinal(), generatedKey(statement));
                }
                else {
                    assertThat(statement.executeUpdate("INSERT INTO orders " + ORDER_COLUMNS + " VALUES " + order.valuesWithId("NULL")))
                            .isEqualTo(1);
                }
            }
            assertThat(statement.executeUpdate(multiRowInserts("orders", ORDER_COLUMNS_WITHOUT_ID, withoutIdColumn,
                    OrderRow::valuesWithoutId, withoutIdColumn.size()).get(0))).isEqualTo(withoutIdColumn.size());

            // Orders 2000-3999 single-row prepared, without the id column when it comes from the sequence.
            try (PreparedStatement withId = prepared.prepareStatement("INSERT INTO orders " + ORDER_COLUMNS + " VALUES (?, ?, ?, ?, ?)");
                 PreparedStatement withoutId = prepared.prepareStatement("INSERT INTO orders " + ORDER_COLUMNS_WITHOUT_ID
                         + " VALUES (?, ?, ?, ?)", Statement.RETURN_GENERATED_KEYS)) {
                for (OrderRow order : orders.subList(2000, 4000)) {
                    if (order.fromSequence()) {
                        bind(withoutId, 1, order.customerId(), order.amount(), order.status(), order.placed());
                        assertThat(withoutId.executeUpdate()).isEqualTo(1);
                        reportedIds.put(order.ordinal(), generatedKey(withoutId));
                    }
                    else {
                        bind(withId, 1, order.id(), order.customerId(), order.amount(), order.status(), order.placed());
                        assertThat(withId.executeUpdate()).isEqualTo(1);
                    }
                }
            }

            // Orders 4000-11999 in rewritten batches (MySQL Connector/J), NULL ids from the sequence.
            try (PreparedStatement insert = batching.prepareStatement("INSERT INTO orders " + ORDER_COLUMNS + " VALUES (?, ?, ?, ?, ?)")) {
                List<OrderRow> batch = orders.subList(4000, 12000);
                for (int i = 0; i < batch.size(); i++) {
                    OrderRow order = batch.get(i);
                    bind(insert, 1, order.id(), order.customerId(), order.amount(), order.status(), order.placed());
                    insert.addBatch();
                    if (i % 500 == 499) {
                        insert.executeBatch();
                    }
                }
            }

            // Orders 12000-19999 as 100-row server-prepared INSERTs, NULL ids from the sequence.
            try (PreparedStatement insert = prepared.prepareStatement("INSERT INTO orders " + ORDER_COLUMNS + " VALUES "
                    + placeholders(100, 5))) {
                List<OrderRow> rest = orders.subList(12000, ShopData.ORDERS);
                for (int start = 0; start < rest.size(); start += 100) {
                    int p = 1;
                    for (OrderRow order : rest.subList(start, start + 100)) {
                        p = bind(insert, p, order.id(), order.customerId(), order.amount(), order.status(), order.placed());
                    }
                    assertThat(insert.executeUpdate()).isEqualTo(100);
                }
            }
        }
        return reportedIds;
    }

    /** The shop tables as stored on each shard ({@code shards}: connections in schema shop), with each order's ordinal. */
    static Loaded readShards(Map<String, Connection> shards, Map<Integer, Long> reportedIds) throws SQLException {
        Map<LocalDateTime, Integer> ordinalByPlaced = ShopData.orders().stream()
                .collect(Collectors.toMap(OrderRow::placed, OrderRow::ordinal));
        Map<String, List<Customer>> storedCustomers = new LinkedHashMap<>();
        Map<String, List<OrderRow>> storedOrders = new LinkedHashMap<>();
        Map<String, QueryResult> countries = new LinkedHashMap<>();
        Map<String, QueryResult> settings = new LinkedHashMap<>();
        for (Map.Entry<String, Connection> entry : shards.entrySet()) {
            String shard = entry.getKey();
            Connection c = entry.getValue();
            try (Statement s = c.createStatement()) {
                List<Customer> customerRows = new ArrayList<>();
                try (ResultSet rows = s.executeQuery("SELECT id, name, country, created FROM customers")) {
                    while (rows.next()) {
                        customerRows.add(new Customer(rows.getLong(1), rows.getString(2), rows.getString(3),
                                rows.getObject(4, LocalDate.class)));
                    }
                }
                List<OrderRow> orderRows = new ArrayList<>();
                try (ResultSet rows = s.executeQuery("SELECT id, customer_id, amount, status, placed FROM orders")) {
                    while (rows.next()) {
                        LocalDateTime placed = rows.getObject(5, LocalDateTime.class);
                        orderRows.add(new OrderRow(ordinalByPlaced.getOrDefault(placed, -1), rows.getLong(1), rows.getLong(2),
                                rows.getBigDecimal(3), rows.getString(4), placed));
                    }
                }
                storedCustomers.put(shard, customerRows);
                storedOrders.put(shard, orderRows);
                countries.put(shard, QueryResult.run(c, "SELECT code, name FROM countries ORDER BY code"));
                settings.put(shard, QueryResult.run(c, "SELECT k, v FROM settings ORDER BY k"));
            }
        }
        return new Loaded(storedCustomers, storedOrders, countries, settings, reportedIds);
    }

    /** INSERTs of the whole data set into one server, orders with the ids {@code orderIds} gives by ordinal. */
    static String[] fullDataSet(Map<Integer, Long> orderIds) {
        List<OrderRow> orders = ShopData.orders().stream()
                .map(o -> new OrderRow(o.ordinal(), orderIds.get(o.ordinal()), o.customerId(), o.amount(), o.status(), o.placed()))
                .toList();
        assertThat(orders.stream().filter(o -> o.id() == null).map(OrderRow::ordinal).limit(10).toList())
                .as("orders found on no shard, so the oracle cannot hold the same rows").isEmpty();
        List<String> inserts = new ArrayList<>();
        inserts.addAll(multiRowInserts("shop.customers", CUSTOMER_COLUMNS, ShopData.customers(), Customer::values, 1000));
        inserts.addAll(multiRowInserts("shop.orders", ORDER_COLUMNS, orders, o -> o.valuesWithId("NULL"), 1000));
        inserts.addAll(multiRowInserts("shop.countries", "(code, name)", ShopData.COUNTRIES,
                c -> "(" + literal(c.code()) + ", " + literal(c.name()) + ")", 100));
        inserts.addAll(multiRowInserts("shop.settings", "(k, v)", ShopData.SETTINGS,
                s -> "(" + literal(s.key()) + ", " + literal(s.value()) + ")", 100));
        return inserts.toArray(String[]::new);
    }

    /** Binds {@code values} from parameter {@code first} on (null as SQL NULL); returns the next parameter index. */
    static int bind(PreparedStatement statement, int first, Object... values) throws SQLException {
        int p = first;
        for (Object value : values) {
            if (value == null) {
                statement.setNull(p++, Types.NULL);
            }
            else {
                statement.setObject(p++, value);
            }
        }
        return p;
    }

    private static String placeholders(int rows, int columns) {
        String row = "(" + String.join(", ", Collections.nCopies(columns, "?")) + ")";
        return String.join(", ", Collections.nCopies(rows, row));
    }

    /** The generated key the OK packet reported, or 0 when the driver saw none. */
    private static long generatedKey(Statement statement) throws SQLException {
        try (ResultSet keys = statement.getGeneratedKeys()) {
            return keys.next() ? keys.getLong(1) : 0;
        }
    }
}
