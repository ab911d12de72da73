package io.shardgate.it;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The correctness suite of the sharding acceptance tests: queries over the {@code shop} data set
 * ({@link ShopData}), each to be answered through Shardgate exactly as one unsharded server answers
 * it, and the comparison that runs them on both.
 */
final class ShopQueries {
    private ShopQueries() {
    }

    /** The clients a query runs through; the oracle is asked through the same one. */
    enum Client {
        MARIADB_TEXT("mariadb", "useServerPrepStmts=false", false),
        MARIADB_PREPARED("mariadb", "useServerPrepStmts=true", true),
        MYSQL_TEXT("mysql", "sslMode=DISABLED&useServerPrepStmts=false", false),
        MYSQL_PREPARED("mysql", "sslMode=DISABLED&useServerPrepStmts=true", true),
        /** Prepared, read through a COM_STMT_FETCH cursor 7 rows at a time (the oracle's own cursor on its side). */
        MYSQL_CURSOR("mysql", "sslMode=DISABLED&useServerPrepStmts=true&useCursorFetch=true&defaultFetchSize=7", true);

        private final String driver;
        private final String options;
        private final boolean prepared;

        Client(String driver, String options, boolean prepared) {
            this.driver = driver;
            this.options = options;
            this.prepared = prepared;
        }

        boolean prepared() {
            return prepared;
        }

        String url(String hostPort) {
            return "jdbc:" + driver + "://" + hostPort + "/shop?" + options;
        }
    }

    /**
     * One query of the correctness suite. {@code ordered}: compare rows in order (the ORDER BY is
     * total), else as multisets. The oracle's row count must be within [{@code minRows}, {@code maxRows}]:
     * that checks the query means what it is meant to on this data.
     */
    record Query(String sql, boolean ordered, Client client, List<Object> parameters, int minRows, int maxRows) {
        static Query ordered(String sql) {
            return new Query(sql, true, Client.MARIADB_TEXT, List.of(), 1, Integer.MAX_VALUE);
        }

        static Query unordered(String sql) {
            return new Query(sql, false, Client.MARIADB_TEXT, List.of(), 1, Integer.MAX_VALUE);
        }

        Query via(Client through) {
            return new Query(sql, ordered, through, parameters, minRows, maxRows);
        }

        Query with(Object... values) {
            return new Query(sql, ordered, client, Arrays.asList(values), minRows, maxRows);
        }

        Query rows(int exactly) {
            return rows(exactly, exactly);
        }

        Query rows(int min, int max) {
            return new Query(sql, ordered, client, parameters, min, max);
        }

        @Override
        public String toString() {
            return "[" + client + "] " + sql + (parameters.isEmpty() ? "" : " " + parameters);
        }
    }

    static final List<Query> QUERIES = List.of(
            // point and IN lookups on the shard key
            Query.ordered("SELECT * FROM customers WHERE id = 5").rows(1),
            Query.ordered("SELECT id, name, country, created FROM customers WHERE id = ?").via(Client.MARIADB_PREPARED).with(1234L).rows(1),
            Query.ordered("SELECT id, name, country FROM customers WHERE id = ?").via(Client.MYSQL_PREPARED).with(61L).rows(1),
            Query.ordered("SELECT * FROM orders WHERE customer_id = 42 ORDER BY id"),
            Query.ordered("SELECT * FROM customers WHERE id = '17'").rows(1),
            Query.ordered("SELECT name FROM customers WHERE id = 999999").rows(0),
            Query.ordered("SELECT * FROM customers WHERE id IN (1, 2, 3, 4, 5, 1999, 2000) ORDER BY id").rows(7),
            Query.ordered("SELECT id, customer_id, amount FROM orders WHERE customer_id IN (?, ?, ?) ORDER BY id")
                    .via(Client.MARIADB_PREPARED).with(7L, 8L, 1500L),
            Query.ordered("SELECT id, status FROM orders WHERE customer_id = 42 AND status = 'shipped' ORDER BY id"),
            Query.unordered("SELECT o.id, o.amount FROM orders o WHERE o.customer_id IN (11, 12, 13, 14)").via(Client.MYSQL_TEXT),
            // ranges and full scans
            Query.ordered("SELECT id, name FROM customers WHERE id BETWEEN 100 AND 160 ORDER BY id").rows(61),
            Query.ordered("SELECT id, customer_id, amount FROM orders WHERE amount >= 490 ORDER BY amount DESC, id"),
            Query.unordered("SELECT id, country FROM customers WHERE created >= '2022-06-01' AND created < '2022-07-01'"),
            Query.unordered("SELECT * FROM orders WHERE placed BETWEEN ? AND ?").via(Client.MARIADB_PREPARED)
                    .with(LocalDateTime.of(2023, 3, 1, 0, 0), LocalDateTime.of(2023, 3, 2, 0, 0)),
            Query.unordered("SELECT * FROM orders").rows(ShopData.ORDERS),
            Query.unordered("SELECT * FROM customers").via(Client.MYSQL_TEXT).rows(ShopData.CUSTOMERS),
            // ORDER BY ... LIMIT with offsets (every ORDER BY here is total)
            Query.ordered("SELECT id, name FROM customers ORDER BY name, id LIMIT 10 OFFSET 35").rows(10),
            Query.ordered("SELECT id, customer_id, amount FROM orders ORDER BY amount DESC, id LIMIT 10 OFFSET 35").rows(10),
            Query.ordered("SELECT id, placed FROM orders ORDER BY placed LIMIT 20").rows(20),
            Query.ordered("SELECT id, amount FROM orders ORDER BY amount, id LIMIT 5, 7").rows(7),
            Query.ordered("SELECT customer_id, id, status FROM orders WHERE status = 'returned'"
                    + " ORDER BY customer_id DESC, id DESC LIMIT 25 OFFSET 100").rows(25),
            Query.ordered("SELECT id, country FROM customers ORDER BY country, id").rows(ShopData.CUSTOMERS),
            Query.ordered("SELECT id, country, name FROM customers ORDER BY country DESC, id LIMIT 50 OFFSET 1900").rows(50),
            Query.ordered("SELECT id, amount FROM orders WHERE status = ? ORDER BY amount DESC, id LIMIT ? OFFSET ?")
                    .via(Client.MARIADB_PREPARED).with("paid", 10, 35).rows(10),
            Query.ordered("SELECT name, id FROM customers ORDER BY name DESC, id DESC LIMIT 40").via(Client.MYSQL_PREPARED).rows(40),
            Query.ordered("SELECT id, created FROM customers ORDER BY created DESC, id DESC LIMIT 15").rows(15),
            Query.ordered("SELECT c.id, c.name, o.id, o.placed FROM customers c JOIN orders o ON o.customer_id = c.id"
                    + " ORDER BY o.placed DESC LIMIT 12 OFFSET 3").rows(12),
            // aggregates without GROUP BY
            Query.ordered("SELECT COUNT(*) FROM orders").rows(1),
            Query.ordered("SELECT COUNT(*), SUM(amount), MIN(amount), MAX(amount) FROM orders").rows(1),
            Query.ordered("SELECT AVG(amount) FROM orders").rows(1),
            Query.ordered("SELECT AVG(amount) AS avg_amount, COUNT(*) n FROM orders WHERE status = 'paid'").via(Client.MYSQL_TEXT).rows(1),
            Query.ordered("SELECT MIN(placed), MAX(placed), COUNT(*) FROM orders WHERE status = ?").via(Client.MARIADB_PREPARED)
                    .with("cancelled").rows(1),
            Query.ordered("SELECT SUM(amount), COUNT(*) FROM orders WHERE customer_id = 77").rows(1),
            Query.ordered("SELECT COUNT(*) FROM customers WHERE country IS NULL").rows(1),
            Query.ordered("SELECT MAX(id), MIN(id), COUNT(country), COUNT(*) FROM customers").rows(1),
            Query.ordered("SELECT AVG(id), SUM(id) FROM customers").rows(1),
            Query.ordered("SELECT MIN(name), MAX(name), MIN(created) FROM customers").via(Client.MYSQL_PREPARED).rows(1),
            // GROUP BY, HAVING
            Query.unordered("SELECT status, COUNT(*), SUM(amount) FROM orders GROUP BY status").rows(5),
            Query.ordered("SELECT status, COUNT(*) AS n FROM orders GROUP BY status ORDER BY n DESC, status").rows(5),
            Query.ordered("SELECT country, COUNT(*) FROM customers GROUP BY country HAVING COUNT(*) > 200 ORDER BY country").rows(2, 8),
            Query.ordered("SELECT customer_id, COUNT(*) AS n, SUM(amount) FROM orders GROUP BY customer_id"
                    + " HAVING COUNT(*) >= 17 ORDER BY customer_id").rows(1, 200),
            Query.ordered("SELECT status, AVG(amount), MIN(placed), MAX(placed) FROM orders GROUP BY status ORDER BY status DESC").rows(5),
            Query.ordered("SELECT c.country, o.status, COUNT(*) FROM customers c JOIN orders o ON o.customer_id = c.id"
                    + " GROUP BY c.country, o.status ORDER BY c.country, o.status").rows(40, 45),
            Query.ordered("SELECT status, COUNT(*) FROM orders WHERE amount > ? GROUP BY status HAVING SUM(amount) > ? ORDER BY status")
                    .via(Client.MARIADB_PREPARED).with(new BigDecimal("100.00"), new BigDecimal("500000")).rows(1, 4),
            Query.ordered("SELECT country, MIN(created), MAX(created), COUNT(*) FROM customers GROUP BY country ORDER BY country")
                    .via(Client.MYSQL_TEXT).rows(9),
            Query.ordered("SELECT customer_id, MAX(amount) FROM orders WHERE customer_id BETWEEN 1 AND 50 GROUP BY customer_id"
                    + " ORDER BY customer_id LIMIT 10 OFFSET 5").rows(10),
            // DISTINCT
            Query.unordered("SELECT DISTINCT country FROM customers").rows(9),
            Query.ordered("SELECT DISTINCT status FROM orders ORDER BY status").rows(5),
            Query.ordered("SELECT DISTINCT name FROM customers ORDER BY name").rows(300),
            Query.ordered("SELECT DISTINCT c.country, o.status FROM customers c JOIN orders o ON o.customer_id = c.id"
                    + " WHERE o.amount > 400 ORDER BY c.country, o.status"),
            Query.ordered("SELECT DISTINCT customer_id FROM orders WHERE amount > 499 ORDER BY customer_id"),
            // co-located joins (customers.id = orders.customer_id)
            Query.ordered("SELECT c.id, c.name, o.id, o.amount FROM customers c JOIN orders o ON c.id = o.customer_id"
                    + " WHERE c.id = 10 ORDER BY o.id"),
            Query.ordered("SELECT c.name, o.id, o.amount FROM customers c JOIN orders o ON c.id = o.customer_id"
                    + " WHERE o.amount > 495 ORDER BY o.id"),
            Query.ordered("SELECT c.country, SUM(o.amount), COUNT(*) FROM customers c JOIN orders o ON o.customer_id = c.id"
                    + " WHERE c.id BETWEEN 1 AND 300 GROUP BY c.country ORDER BY c.country"),
            Query.ordered("SELECT c.id, COUNT(o.id) FROM customers c LEFT JOIN orders o ON o.customer_id = c.id GROUP BY c.id"
                    + " HAVING COUNT(o.id) = 0 ORDER BY c.id").rows(10, 20),
            Query.ordered("SELECT c.id, c.name FROM customers c WHERE NOT EXISTS (SELECT 1 FROM orders o WHERE o.customer_id = c.id)"
                    + " ORDER BY c.id").via(Client.MARIADB_PREPARED).rows(10, 20),
            Query.ordered("SELECT c.id, c.name FROM customers c WHERE c.id IN (SELECT o.customer_id FROM orders o WHERE o.amount > 499.5)"
                    + " ORDER BY c.id"),
            Query.ordered("SELECT o.id, o.amount, c.name FROM orders o JOIN customers c ON c.id = o.customer_id"
                    + " WHERE o.customer_id = ? ORDER BY o.id").via(Client.MYSQL_PREPARED).with(321L),
            // reference-table joins and reads
            Query.ordered("SELECT o.id, o.amount, co.name FROM orders o JOIN customers c ON c.id = o.customer_id"
                    + " JOIN countries co ON co.code = c.country WHERE o.customer_id = 123 ORDER BY o.id"),
            Query.ordered("SELECT co.name, COUNT(*) FROM customers c JOIN countries co ON co.code = c.country"
                    + " GROUP BY co.name ORDER BY co.name").rows(8),
            Query.ordered("SELECT c.id, co.name FROM customers c LEFT JOIN countries co ON co.code = c.country"
                    + " WHERE c.id < 130 ORDER BY c.id").rows(129),
            Query.ordered("SELECT co.name, SUM(o.amount) FROM orders o JOIN customers c ON c.id = o.customer_id"
                    + " JOIN countries co ON co.code = c.country GROUP BY co.name ORDER BY co.name").rows(8),
            Query.ordered("SELECT o.status, co.code, COUNT(*) FROM orders o JOIN customers c ON c.id = o.customer_id"
                    + " JOIN countries co ON co.code = c.country WHERE co.code IN ('BR', 'CA')"
                    + " GROUP BY o.status, co.code ORDER BY o.status, co.code").rows(10),
            Query.ordered("SELECT code, name FROM countries ORDER BY code").rows(ShopData.COUNTRIES.size()),
            // the unsharded table
            Query.ordered("SELECT k, v FROM settings ORDER BY k").rows(ShopData.SETTINGS.size()),
            Query.ordered("SELECT v FROM settings WHERE k = ?").via(Client.MARIADB_PREPARED).with("vat").rows(1),
            Query.unordered("SELECT * FROM settings").via(Client.MYSQL_TEXT).rows(ShopData.SETTINGS.size()),
            // expressions and functions in the select list, predicates of every kind
            Query.ordered("SELECT id, UPPER(name), LENGTH(name), CONCAT(country, '-', id) FROM customers WHERE id BETWEEN 500 AND 520"
                    + " ORDER BY id").rows(21),
            Query.ordered("SELECT id, amount * 2 AS doubled, amount + 0.5, ROUND(amount, 0) FROM orders WHERE customer_id = 99 ORDER BY id"),
            Query.ordered("SELECT id, CASE WHEN amount > 250 THEN 'big' ELSE 'small' END AS size FROM orders"
                    + " WHERE customer_id IN (5, 6) ORDER BY id"),
            Query.ordered("SELECT id, COALESCE(country, '??') FROM customers WHERE id < 60 ORDER BY id").rows(59),
            Query.ordered("SELECT id, YEAR(created), MONTH(created), DATE_FORMAT(created, '%Y/%m') FROM customers"
                    + " WHERE id BETWEEN 1 AND 30 ORDER BY id").rows(30),
            Query.ordered("SELECT id, name FROM customers WHERE name LIKE 'Bob%' ORDER BY id"),
            Query.ordered("SELECT id, name FROM customers WHERE name LIKE '%ü%' ORDER BY id"),
            Query.unordered("SELECT id FROM customers WHERE country IN ('DE', 'FR') AND created > '2022-01-01'"),
            Query.ordered("SELECT id, status FROM orders WHERE customer_id = 42 AND (status = 'paid' OR amount < 100) ORDER BY id")
                    .rows(0, 100),
            Query.ordered("SELECT id FROM customers WHERE country IS NOT NULL AND id NOT IN (1, 2, 3) ORDER BY id LIMIT 5").rows(5),
            Query.ordered("SELECT * FROM orders WHERE customer_id = ? ORDER BY id").via(Client.MARIADB_PREPARED).with(77L),
            Query.ordered("SELECT * FROM customers WHERE id = ? OR id = ? ORDER BY id").via(Client.MYSQL_PREPARED).with(10L, 20L).rows(2),
            Query.ordered("SELECT id, placed, amount, status FROM orders WHERE customer_id = 1500 AND id > ? ORDER BY id")
                    .via(Client.MARIADB_PREPARED).with(0L),
            // more aggregates and groups
            Query.ordered("SELECT COUNT(*) FROM orders WHERE amount BETWEEN 100 AND 200").rows(1),
            Query.ordered("SELECT SUM(amount) AS total FROM orders WHERE placed >= '2023-01-01'").rows(1),
            Query.unordered("SELECT status, MAX(amount), MIN(amount) FROM orders GROUP BY status").rows(5),
            Query.ordered("SELECT country, COUNT(*) AS n FROM customers GROUP BY country ORDER BY n DESC, country").rows(9),
            Query.ordered("SELECT customer_id, COUNT(*) FROM orders WHERE customer_id IN (1, 2, 3) GROUP BY customer_id"
                    + " ORDER BY customer_id").rows(1, 3),
            Query.ordered("SELECT status, COUNT(*), SUM(amount) FROM orders WHERE customer_id = 500 GROUP BY status ORDER BY status")
                    .rows(1, 5),
            // more ORDER BY ... LIMIT
            Query.ordered("SELECT id, amount FROM orders WHERE status = 'paid' ORDER BY amount, id LIMIT 3").rows(3),
            Query.ordered("SELECT id FROM customers ORDER BY id DESC LIMIT 1").rows(1),
            Query.ordered("SELECT id, name FROM customers ORDER BY name DESC, id LIMIT 7 OFFSET 1993").rows(7),
            Query.ordered("SELECT id, placed FROM orders WHERE customer_id BETWEEN 10 AND 20 ORDER BY placed DESC, id LIMIT 30").rows(30),
            // UNION
            Query.unordered("SELECT id FROM customers WHERE id < 10 UNION ALL SELECT customer_id FROM orders WHERE customer_id < 4"),
            Query.ordered("SELECT code FROM countries UNION SELECT code FROM countries ORDER BY code").rows(ShopData.COUNTRIES.size()),
            // more co-located joins and subqueries
            Query.ordered("SELECT c.id, c.name, SUM(o.amount) FROM customers c JOIN orders o ON o.customer_id = c.id"
                    + " WHERE c.id IN (3, 4, 5) GROUP BY c.id, c.name ORDER BY c.id").rows(1, 3),
            Query.ordered("SELECT o.id FROM orders o WHERE EXISTS (SELECT 1 FROM customers c WHERE c.id = o.customer_id"
                    + " AND c.country = 'DE') AND o.amount > 490 ORDER BY o.id"),
            Query.ordered("SELECT c.id, o.id FROM customers c LEFT JOIN orders o ON o.customer_id = c.id WHERE c.id BETWEEN 1 AND 40"
                    + " ORDER BY c.id, o.id"),
            Query.ordered("SELECT name FROM customers WHERE id IN (SELECT customer_id FROM orders WHERE customer_id = 9) ORDER BY name"),
            Query.ordered("SELECT c.id, o.id, o.amount FROM customers c, orders o WHERE o.customer_id = c.id AND c.id = ? ORDER BY o.id")
                    .via(Client.MYSQL_PREPARED).with(1234L),
            // reference and unsharded tables, no table at all
            Query.ordered("SELECT COUNT(*) FROM countries").rows(1),
            Query.ordered("SELECT co.code, co.name FROM countries co WHERE co.name LIKE '%a%' ORDER BY co.code"),
            Query.ordered("SELECT k, LENGTH(v) FROM settings ORDER BY k").rows(ShopData.SETTINGS.size()),
            Query.ordered("SELECT 1 + 1, 'x', NULL, 3.14").rows(1),
            Query.ordered("SELECT code, name FROM countries WHERE code IN (?, ?) ORDER BY code").via(Client.MARIADB_PREPARED)
                    .with("DE", "FR").rows(2),
            // subqueries over other shards that do not reference their statement (run first)
            Query.ordered("SELECT name FROM customers WHERE id = (SELECT MAX(customer_id) FROM orders)").rows(1),
            Query.ordered("SELECT COUNT(*) FROM orders WHERE amount > (SELECT AVG(amount) FROM orders)").rows(1),
            Query.ordered("SELECT id, name FROM customers WHERE country IN (SELECT country FROM customers WHERE id = 5) AND id < 200"
                    + " ORDER BY id"),
            Query.ordered("SELECT COUNT(*) FROM customers WHERE country NOT IN (SELECT country FROM customers WHERE id < 0)").rows(1),
            Query.ordered("SELECT COUNT(*) FROM customers WHERE EXISTS (SELECT 1 FROM orders WHERE amount > 499.9)").rows(1),
            Query.ordered("SELECT id FROM customers WHERE id IN (SELECT id FROM orders WHERE amount > 499.5) ORDER BY id"),
            Query.ordered("SELECT c.name FROM customers c WHERE c.id IN (SELECT o.id FROM orders o WHERE o.status = 'returned'"
                    + " AND o.amount > 495) ORDER BY c.name, c.id"),
            Query.ordered("SELECT id, amount FROM orders WHERE customer_id = ? AND amount >= (SELECT MAX(amount) FROM orders"
                    + " WHERE status = ?) - 50 ORDER BY id").via(Client.MARIADB_PREPARED).with(42L, "paid").rows(0, 100),
            // more shapes: pinned statements, DISTINCT aggregates, GROUP_CONCAT, ROLLUP, subqueries run first
            Query.ordered("SELECT c.name, q.m FROM customers c, (SELECT customer_id, MAX(id) m FROM orders WHERE customer_id = 7"
                    + " GROUP BY customer_id) q WHERE c.id = 7 AND q.customer_id = c.id").rows(0, 1),
            Query.ordered("WITH mine AS (SELECT id, amount FROM orders WHERE customer_id = 42) SELECT COUNT(*), SUM(amount) FROM mine")
                    .rows(1),
            Query.ordered("SELECT t.status, t.n FROM (SELECT status, COUNT(*) n FROM orders WHERE customer_id = 99 GROUP BY status) t"
                    + " ORDER BY t.status").rows(0, 5),
            Query.ordered("SELECT c.id, c.name, o.id FROM customers c JOIN orders o ON o.id = c.id WHERE c.id = 11 AND o.customer_id = 11")
                    .rows(0, 1),
            Query.ordered("SELECT COUNT(DISTINCT customer_id), COUNT(*), MAX(amount) FROM orders WHERE amount BETWEEN 100 AND 110").rows(1),
            Query.ordered("SELECT country, COUNT(DISTINCT created) FROM customers GROUP BY country ORDER BY country").rows(9),
            Query.ordered("SELECT status, SUM(DISTINCT amount) FROM orders WHERE customer_id < 30 GROUP BY status ORDER BY status")
                    .rows(1, 5),
            Query.ordered("SELECT country, GROUP_CONCAT(id ORDER BY id) FROM customers WHERE id < 50 GROUP BY country ORDER BY country")
                    .rows(1, 9),
            Query.ordered("SELECT GROUP_CONCAT(DISTINCT status ORDER BY status SEPARATOR ', ') FROM orders").rows(1),
            Query.ordered("SELECT customer_id, GROUP_CONCAT(status ORDER BY id DESC) FROM orders WHERE customer_id IN (1, 2, 3)"
                    + " GROUP BY customer_id ORDER BY customer_id").rows(1, 3),
            Query.ordered("SELECT country, COUNT(*), MIN(created) FROM customers GROUP BY country WITH ROLLUP").rows(10),
            Query.ordered("SELECT status, COUNT(DISTINCT customer_id) AS n FROM orders GROUP BY status HAVING n > 100 ORDER BY status")
                    .rows(0, 5),
            Query.ordered("SELECT id, name FROM customers WHERE id IN (SELECT customer_id FROM orders WHERE amount > 499.8)"
                    + " AND country IN (SELECT code FROM countries WHERE name LIKE '%a%') ORDER BY id"),
            Query.ordered("SELECT COUNT(*) FROM orders WHERE status = (SELECT MIN(status) FROM orders) AND amount < 50").rows(1),
            Query.ordered("SELECT id FROM orders WHERE customer_id = ? AND amount > (SELECT AVG(amount) FROM orders WHERE customer_id = ?)"
                    + " ORDER BY id").via(Client.MYSQL_PREPARED).with(77L, 77L).rows(0, 100),
            Query.ordered("SELECT name FROM customers WHERE id IN (SELECT id FROM orders WHERE id < 30) AND NOT EXISTS"
                    + " (SELECT 1 FROM orders WHERE amount > 100000) ORDER BY name, id"),
            // labels and types
            Query.ordered("SELECT id AS customer_number, name AS `full name`, created AS since FROM customers"
                    + " WHERE id IN (3, 4) ORDER BY customer_number").rows(2),
            Query.ordered("SELECT COUNT(*) AS n, SUM(amount) AS total, AVG(amount) AS mean, MAX(placed) AS latest FROM orders")
                    .via(Client.MARIADB_PREPARED).rows(1),
            // pinned to one shard by shard key equalities: runs there whole (derived tables, WITH, subqueries; issue 19 item 2)
            Query.ordered("SELECT c.name, q.m FROM customers c, (SELECT customer_id, MAX(id) m FROM orders WHERE customer_id = 42"
                    + " GROUP BY customer_id) q WHERE c.id = 42 AND q.customer_id = c.id").rows(1),
            Query.ordered("WITH mine AS (SELECT id, amount FROM orders WHERE customer_id = 42) SELECT COUNT(*), SUM(amount) FROM mine").rows(1),
            Query.ordered("SELECT t.status, t.n FROM (SELECT status, COUNT(*) n FROM orders WHERE customer_id = ? GROUP BY status) t"
                    + " ORDER BY t.status").via(Client.MARIADB_PREPARED).with(42L),
            Query.ordered("SELECT o.id, o.amount FROM orders o WHERE o.customer_id = 42 AND o.amount >"
                    + " (SELECT AVG(x.amount) FROM orders x WHERE x.customer_id = 42) ORDER BY o.id").via(Client.MYSQL_PREPARED),
            Query.ordered("SELECT c.id, c.name, o.id FROM customers c JOIN orders o ON o.id > c.id WHERE c.id = 42 AND o.customer_id = 42"
                    + " ORDER BY o.id").via(Client.MYSQL_TEXT),
            // DISTINCT aggregates across shards (issue 19 item 4)
            Query.ordered("SELECT COUNT(DISTINCT country) FROM customers").rows(1),
            Query.ordered("SELECT COUNT(DISTINCT status), COUNT(*), SUM(amount), AVG(amount) FROM orders WHERE amount > 100").rows(1),
            Query.ordered("SELECT status, COUNT(DISTINCT customer_id), SUM(DISTINCT customer_id), AVG(DISTINCT customer_id) FROM orders"
                    + " GROUP BY status ORDER BY status").rows(5),
            Query.ordered("SELECT country, COUNT(DISTINCT name) AS n FROM customers GROUP BY country HAVING COUNT(DISTINCT name) > 10"
                    + " ORDER BY n DESC, country").via(Client.MARIADB_PREPARED).rows(1, 9),
            Query.ordered("SELECT AVG(DISTINCT amount), SUM(DISTINCT amount), COUNT(DISTINCT amount) FROM orders WHERE status = ?")
                    .via(Client.MYSQL_PREPARED).with("paid").rows(1),
            Query.ordered("SELECT COUNT(DISTINCT customer_id) FROM orders WHERE customer_id > 100000").rows(1),
            Query.ordered("SELECT MIN(DISTINCT amount), MAX(DISTINCT placed) FROM orders").rows(1),
            // GROUP BY ... WITH ROLLUP across shards (issue 19 item 4)
            Query.ordered("SELECT status, COUNT(*), SUM(amount), AVG(amount), MIN(placed) FROM orders GROUP BY status WITH ROLLUP").rows(6),
            Query.ordered("SELECT c.country, o.status, COUNT(*) FROM customers c JOIN orders o ON o.customer_id = c.id"
                    + " GROUP BY c.country, o.status WITH ROLLUP").rows(45, 60),
            Query.ordered("SELECT id, COUNT(*) FROM customers WHERE id < 20 GROUP BY id WITH ROLLUP").via(Client.MARIADB_PREPARED).rows(20),
            Query.ordered("SELECT country, COUNT(*) AS n FROM customers GROUP BY country WITH ROLLUP HAVING n > 200 LIMIT 4")
                    .via(Client.MYSQL_PREPARED).rows(1, 4),
            Query.ordered("SELECT id, COUNT(*), MAX(name) FROM customers WHERE id < 10 GROUP BY id WITH ROLLUP").rows(10),
            // GROUP_CONCAT across shards (issue 19 item 4)
            Query.ordered("SELECT status, GROUP_CONCAT(id ORDER BY id SEPARATOR '|'), COUNT(*) FROM orders WHERE customer_id < 40"
                    + " GROUP BY status ORDER BY status").rows(5),
            Query.ordered("SELECT country, GROUP_CONCAT(DISTINCT LEFT(name, 3) ORDER BY LEFT(name, 3) DESC) FROM customers"
                    + " GROUP BY country ORDER BY country").via(Client.MARIADB_PREPARED).rows(9),
            Query.ordered("SELECT GROUP_CONCAT(name, '@', id ORDER BY id DESC) FROM customers WHERE id BETWEEN ? AND ?")
                    .via(Client.MYSQL_PREPARED).with(100L, 140L).rows(1),
            Query.ordered("SELECT GROUP_CONCAT(amount ORDER BY amount, id) FROM orders").rows(1),
            // an IN subquery on other shards runs first, its values in its place (issue 19 item 3)
            Query.ordered("SELECT c.id, c.name FROM customers c WHERE c.country IN (SELECT country FROM customers WHERE id = 5)"
                    + " AND c.id < 200 ORDER BY c.id"),
            Query.ordered("SELECT id, amount FROM orders WHERE customer_id < ? AND status NOT IN (SELECT status FROM orders WHERE"
                    + " amount > ?) ORDER BY id").via(Client.MARIADB_PREPARED).with(30L, new BigDecimal("499.00")).rows(0, Integer.MAX_VALUE),
            Query.ordered("SELECT COUNT(*), SUM(amount) FROM orders WHERE customer_id IN (SELECT id FROM customers WHERE country = 'CA')"
                    + " AND status IN (SELECT status FROM orders WHERE amount > 499.5)").via(Client.MYSQL_TEXT).rows(1),
            Query.ordered("SELECT id FROM customers WHERE name IN (SELECT name FROM customers WHERE id IN (1, 2, 3)) ORDER BY id")
                    .via(Client.MYSQL_PREPARED),
            // joins, subqueries and derived tables across shards: the other tables copied to the driving table's shards (issue 19 item 3)
            Query.ordered("SELECT o.id, o.amount, c.name FROM orders o JOIN customers c ON c.id = o.customer_id + 1"
                    + " WHERE o.customer_id < 30 ORDER BY o.id"),
            Query.ordered("SELECT c.id, o.id FROM orders o JOIN customers c ON c.id = o.customer_id - 1 WHERE c.id BETWEEN ? AND ?"
                    + " AND o.amount > ? ORDER BY c.id, o.id").via(Client.MYSQL_PREPARED).with(10L, 40L, new BigDecimal("100.00")),
            Query.ordered("SELECT * FROM customers c JOIN orders o ON o.customer_id = c.id + 7 WHERE c.id < 20 ORDER BY o.id")
                    .via(Client.MARIADB_PREPARED),
            Query.ordered("SELECT c.id, c.name, o.id, o.status FROM customers c LEFT JOIN orders o ON o.customer_id = c.id + 1000"
                    + " AND o.amount > 400 WHERE c.id < 40 ORDER BY c.id, o.id"),
            Query.ordered("SELECT * FROM customers a JOIN customers b ON b.id = a.id + 1 WHERE a.id < 20 ORDER BY a.id").rows(19),
            Query.ordered("SELECT c.id FROM customers c WHERE c.id < 300 AND EXISTS (SELECT 1 FROM orders o WHERE o.customer_id = c.id + 2"
                    + " AND o.amount > 450) ORDER BY c.id").via(Client.MYSQL_TEXT),
            Query.ordered("SELECT COUNT(*) FROM customers c WHERE NOT EXISTS (SELECT 1 FROM orders o WHERE o.customer_id = c.id + 1)").rows(1),
            Query.ordered("SELECT c.id, (SELECT MAX(o.amount) FROM orders o WHERE o.customer_id = c.id + 1) AS m FROM customers c"
                    + " WHERE c.id < 25 ORDER BY c.id").via(Client.MARIADB_PREPARED).rows(24),
            Query.ordered("SELECT t.status, t.n, c.name FROM (SELECT status, COUNT(*) AS n FROM orders GROUP BY status) t"
                    + " JOIN customers c ON c.id = t.n % 100 + 1 ORDER BY t.status").rows(5),
            Query.ordered("SELECT c.country, o.status, COUNT(*), SUM(o.amount) FROM customers c JOIN orders o ON o.customer_id = c.id + 3"
                    + " WHERE c.id < 500 GROUP BY c.country, o.status ORDER BY c.country, o.status").via(Client.MYSQL_PREPARED),
            // statements whose merge the shards cannot do: their table copied to one shard (issue 19)
            Query.ordered("SELECT id, name, ROW_NUMBER() OVER (PARTITION BY country ORDER BY id) AS rn FROM customers WHERE id < 200"
                    + " ORDER BY id").rows(199),
            Query.ordered("SELECT status, ROUND(STDDEV(amount), 4), COUNT(*) + 1 FROM orders GROUP BY status ORDER BY status").rows(5),
            Query.ordered("SELECT COUNT(DISTINCT status), COUNT(DISTINCT customer_id) FROM orders").via(Client.MARIADB_PREPARED).rows(1),
            Query.ordered("SELECT country FROM customers WHERE id < 100 UNION SELECT status FROM orders WHERE customer_id < 10 ORDER BY 1"));

    /**
     * Runs each query through every JDBC client (MariaDB and MySQL Connector/J, text and binary
     * protocol) on {@code expectedSide} (whose row count must be in the query's bounds) and on
     * {@code actualSide} through the same client; returns a description of each query answered
     * differently or with an error. A query's own client ({@link Query#via}) runs first.
     */
    static List<String> compare(List<Query> queries, Map<Client, Connection> expectedSide, Map<Client, Connection> actualSide)
            throws SQLException {
        List<String> failures = new ArrayList<>();
        for (Query query : queries) {
            List<Client> clients = new ArrayList<>(List.of(query.client()));
            Arrays.stream(Client.values()).filter(c -> c != query.client()).forEach(clients::add);
            for (Client client : clients) {
                Query through = query.via(client);
                QueryResult expected = QueryResult.run(expectedSide.get(client), query.sql(), query.parameters(),
                        client.prepared());
                assertThat(expected.rows().size()).as("the oracle's row count for %s", through)
                        .isBetween(query.minRows(), query.maxRows());
                try {
                    QueryResult actual = QueryResult.run(actualSide.get(client), query.sql(), query.parameters(),
                            client.prepared());
                    String difference = expected.differenceFrom(actual, query.ordered());
                    if (difference != null) {
                        failures.add(through + "\n    " + difference);
                    }
                }
                catch (SQLException e) {
                    failures.add(through + "\n    ERR " + e.getErrorCode() + " (" + e.getSQLState() + "): " + e.getMessage());
                }
            }
        }
        return failures;
    }

    /** Where PyMySQL connects: host, port, account and database. */
    record Side(String host, int port, String user, String password, String database) {
    }

    /**
     * The same comparison through PyMySQL (/usr/bin/python3, text protocol, parameters quoted by the
     * client): the cursor description and the rows. Returns the differences and errors, as
     * {@link #compare} does.
     */
    static List<String> comparePyMySql(List<Query> queries, Side expected, Side actual) throws Exception {
        com.fasterxml.jackson.databind.ObjectMapper json = new com.fasterxml.jackson.databind.ObjectMapper();
        List<Map<String, Object>> specs = new ArrayList<>();
        for (Query query : queries) {
            List<Object> parameters = new ArrayList<>();
            for (Object value : query.parameters()) {
                parameters.add(value instanceof Number && !(value instanceof BigDecimal) || value == null ? value
                        : value instanceof LocalDateTime time ? time.toString().replace('T', ' ') : value.toString());
            }
            specs.add(Map.of("sql", query.sql(), "parameters", parameters, "ordered", query.ordered()));
        }
        Map<String, Object> spec = Map.of("expected", expected, "actual", actual, "queries", specs);
        java.nio.file.Path script = java.nio.file.Path.of(ShopQueries.class.getResource("/shop_queries.py").toURI());
        Cli.Result result = Cli.run(List.of("/usr/bin/python3", script.toString()), json.writeValueAsString(spec), 600);
        assertThat(result.status()).as("PyMySQL run: %s", result.stderr()).isZero();
        List<String> failures = new ArrayList<>();
        boolean done = false;
        for (String line : result.stdout().split("\n")) {
            if (line.isBlank()) {
                continue;
            }
            com.fasterxml.jackson.databind.JsonNode node = json.readTree(line);
            if (node.has("done")) {
                done = node.get("done").asInt() == queries.size();
            } else {
                failures.add("[PYMYSQL] " + node.get("sql").asText() + "\n    " + node.get("difference").asText());
            }
        }
        assertThat(done).as("PyMySQL ran every query: %s", result.stdout()).isTrue();
        return failures;
    }
}
