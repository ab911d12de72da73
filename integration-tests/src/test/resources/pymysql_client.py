#!/usr/bin/python3
"""Runs SQL through PyMySQL (uncompressed: PyMySQL speaks no protocol compression) and prints
every row as one tab-separated line (NULL as "NULL"), like zstd_client.py, so tests can compare
the two clients' output the same way.

  --query-file F   a file holding one statement (large statements do not fit in argv); repeatable,
                   run in order
  --repeat N       run the whole list N times in a row on the one connection
  --digest         print each value as <length>:<sha256 hex> instead of its bytes (large values)

On an error it prints "ERROR <errno>: <message>" to stderr and exits 1. Run it with
/usr/bin/python3 (Debian's python3-pymysql).
"""

import argparse
import hashlib
import sys

import pymysql


def as_bytes(value):
    if isinstance(value, (bytes, bytearray)):
        return bytes(value)
    if isinstance(value, str):
        return value.encode("utf-8")
    return str(value).encode("ascii")


def main(argv=None):
    parser = argparse.ArgumentParser(description="SQL through PyMySQL, rows printed tab-separated")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--user", required=True)
    parser.add_argument("--password", default="")
    parser.add_argument("--database")
    parser.add_argument("--query-file", action="append", default=[])
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--digest", action="store_true")
    parser.add_argument("--timeout", type=float, default=60.0, help="read and write timeout in seconds")
    args = parser.parse_args(argv)

    queries = []
    for path in args.query_file:
        with open(path, "rb") as f:
            queries.append(f.read())

    out = sys.stdout.buffer
    try:
        connection = pymysql.connect(host=args.host, port=args.port, user=args.user, password=args.password,
                                     database=args.database, autocommit=True, charset="utf8mb4",
                                     connect_timeout=args.timeout, read_timeout=args.timeout,
                                     write_timeout=args.timeout)
    except pymysql.MySQLError as e:
        print("cannot connect: %s" % (e,), file=sys.stderr)
        return 2
    try:
        cursor = connection.cursor()
        for _ in range(args.repeat):
            for sql in queries:
                cursor.execute(sql)
                for row in cursor.fetchall():
                    values = []
                    for value in row:
                        if value is None:
                            values.append(b"NULL")
                        elif args.digest:
                            data = as_bytes(value)
                            values.append(b"%d:%s" % (len(data), hashlib.sha256(data).hexdigest().encode("ascii")))
                        else:
                            values.append(as_bytes(value))
                    out.write(b"\t".join(values) + b"\n")
                out.flush()
        connection.close()
        return 0
    except pymysql.MySQLError as e:
        out.flush()
        print("ERROR %s" % (e,), file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
