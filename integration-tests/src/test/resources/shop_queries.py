#!/usr/bin/python3
"""Runs the shop correctness queries through PyMySQL on two servers (the unsharded oracle and
Shardgate) and prints one JSON line per query answered differently or with an error.

Reads a JSON spec on stdin:
  {"expected": {"host", "port", "user", "password", "database"},
   "actual":   {... the same ...},
   "queries":  [{"sql": "... ? ...", "parameters": [...], "ordered": true}, ...]}

A query's "?" placeholders (outside quotes) become PyMySQL's "%s"; its parameters are quoted by
PyMySQL on the client, as applications using it send them (the text protocol). Compared: the
cursor description (name, type code, display size, internal size, precision, scale, null_ok)
and the rows (in order when "ordered", else as multisets). Run it with /usr/bin/python3
(Debian's python3-pymysql).
"""

import json
import sys

import pymysql


def placeholders(sql):
    out = []
    quote = None
    i = 0
    while i < len(sql):
        ch = sql[i]
        if quote:
            out.append(ch)
            if ch == "\\" and i + 1 < len(sql):
                out.append(sql[i + 1])
                i += 1
            elif ch == quote:
                quote = None
        elif ch in ("'", '"', "`"):
            quote = ch
            out.append(ch)
        elif ch == "?":
            out.append("%s")
        elif ch == "%":
            out.append("%%")
        else:
            out.append(ch)
        i += 1
    return "".join(out)


def run(connection, query):
    with connection.cursor() as cursor:
        if query["parameters"]:
            cursor.execute(placeholders(query["sql"]), query["parameters"])
        else:
            cursor.execute(query["sql"])
        description = [list(column) for column in cursor.description or []]
        rows = [[repr(value) for value in row] for row in cursor.fetchall()]
    if not query["ordered"]:
        rows.sort()
    return description, rows


def connect(side):
    return pymysql.connect(host=side["host"], port=side["port"], user=side["user"], password=side["password"],
                           database=side["database"], charset="utf8mb4", read_timeout=120, write_timeout=120)


def main():
    spec = json.load(sys.stdin)
    expected_side = connect(spec["expected"])
    actual_side = connect(spec["actual"])
    for query in spec["queries"]:
        expected = run(expected_side, query)
        try:
            actual = run(actual_side, query)
        except pymysql.MySQLError as error:
            print(json.dumps({"sql": query["sql"], "difference": "ERR %s" % (error.args,)}), flush=True)
            continue
        differences = []
        if expected[0] != actual[0]:
            differences.append("columns differ: expected %s but got %s" % (expected[0], actual[0]))
        if expected[1] != actual[1]:
            first = next((i for i in range(min(len(expected[1]), len(actual[1]))) if expected[1][i] != actual[1][i]),
                         min(len(expected[1]), len(actual[1])))
            differences.append("rows differ: expected %d rows, got %d; first difference at row %d: expected %s, got %s" % (
                len(expected[1]), len(actual[1]), first,
                expected[1][first] if first < len(expected[1]) else "no row",
                actual[1][first] if first < len(actual[1]) else "no row"))
        if differences:
            print(json.dumps({"sql": query["sql"], "difference": "; ".join(differences)}), flush=True)
    print(json.dumps({"done": len(spec["queries"])}), flush=True)


if __name__ == "__main__":
    main()
