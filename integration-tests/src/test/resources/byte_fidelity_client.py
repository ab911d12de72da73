"""Writes values through a MySQL-protocol server with PyMySQL and reads them back, for ByteFidelityIT.

stdin: one JSON object {"port", "user", "password", "database", "charset", "values": [[id, kind, hex], ...]}
where kind is "text" (the bytes are text in the connection's encoding, sent as a str parameter)
or "bytes" (sent as a bytes parameter, which PyMySQL writes as _binary'...' with binary_prefix).
stdout: one JSON line per value: {"id", "stored": hex of SELECT v, "echoed": hex of SELECT %s}.
PyMySQL escapes parameters itself, so every statement goes out with the text protocol.
"""
import json
import sys

import pymysql

spec = json.load(sys.stdin)
connection = pymysql.connect(host="127.0.0.1", port=spec["port"], user=spec["user"], password=spec["password"],
                             database=spec["database"], charset=spec["charset"], autocommit=True,
                             binary_prefix=True)
encoding = connection.encoding
with connection.cursor() as cursor:
    for identifier, kind, hexed in spec["values"]:
        raw = bytes.fromhex(hexed)
        value = raw.decode(encoding) if kind == "text" else raw
        cursor.execute("INSERT INTO t (id, v) VALUES (%s, %s)", (identifier, value))
        cursor.execute("SELECT v FROM t WHERE id = %s", (identifier,))
        stored = cursor.fetchone()[0]
        cursor.execute("SELECT %s", (value,))
        echoed = cursor.fetchone()[0]
        if isinstance(echoed, str):
            echoed = echoed.encode(encoding)
        print(json.dumps({"id": identifier, "stored": bytes(stored).hex(), "echoed": bytes(echoed).hex()}))
connection.close()
