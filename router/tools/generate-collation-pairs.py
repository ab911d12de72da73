#!/usr/bin/env python3
"""Writes router/src/test/resources/collation/pairs.tsv: random short strings compared by a running
MariaDB under each collation CollationTest checks. Usage, from the repository root:

    router/tools/generate-collation-pairs.py -S /path/to/socket -uroot

Arguments are passed to the mariadb client. The random seed is fixed, so a rerun against the same
server version writes the same file.
"""
import random
import subprocess
import sys

ALPHABET = (
    list("aAbBeEiIoOsSzZ09_-.!~") + [" ", " ", "\t"]
    + list("àÀáéÉèêëíïñÑöÖøØåÅæÆßþðÿ")          # Latin-1 letters
    + ["\u0131", "\u017f", "\u0153", "\u0110", "\u0111", "\u0142", "\u1e9e"]  # ı ſ œ Đ đ ł ẞ
    + ["\u00a0", "\u00ad", "\u200b", "\u2009", "\u3000"]     # no-break, soft hyphen, zero width, thin, ideographic space
    + ["\u0301", "\u0308", "\u3099"]                         # combining marks
    + list("ΑαΣσςάΩ") + list("ЖжЁёЙй") + list("あアｱぁカが")
    + ["\uff21", "\uff41", "\u2460", "\u00b2", "\u0663", "\u2126", "\u212a", "\ufb01"]  # Ａ ａ ① ² ٣ Ω K ﬁ
    + ["\u4e00", "\u4e8c", "\u3400", "\ufffd", "\U0001F600", "\U0001F601", "\U0001D400", "\u0e40", "\u0e01"]
)
COLLATIONS = ["utf8mb4_general_ci", "utf8mb4_unicode_ci", "utf8mb4_bin", "utf8mb4_general_nopad_ci",
              "utf8mb4_unicode_nopad_ci", "utf8mb4_nopad_bin", "latin1_swedish_ci", "latin1_bin"]


def latin1(s):
    try:
        s.encode("cp1252")
        return True
    except UnicodeEncodeError:
        return False


def random_string(rng):
    s = "".join(rng.choice(ALPHABET) for _ in range(rng.randint(0, 4)))
    return s + " " * rng.choice([0, 0, 0, 1, 2])


def main():
    rng = random.Random(20240606)
    pairs = []
    while len(pairs) < 3000:
        a = random_string(rng)
        # Half the pairs are near misses of each other: same letters, other case or accents.
        b = random_string(rng) if rng.random() < 0.5 else "".join(
            rng.choice([c, c.upper(), c.lower(), rng.choice(ALPHABET)]) for c in a.rstrip(" ")) + " " * rng.randint(0, 2)
        pairs.append((a, b))
    selects = []
    for a, b in pairs:
        ha, hb = a.encode("utf-8").hex() or "", b.encode("utf-8").hex() or ""
        la, lb = (f"_utf8mb4 X'{ha}'", f"_utf8mb4 X'{hb}'")
        cols = []
        for c in COLLATIONS:
            if c.startswith("latin1"):
                if latin1(a) and latin1(b):
                    cols.append(f"STRCMP(CONVERT({la} USING latin1) COLLATE {c}, CONVERT({lb} USING latin1) COLLATE {c})")
                else:
                    cols.append("'-'")
            else:
                cols.append(f"STRCMP({la} COLLATE {c}, {lb} COLLATE {c})")
        selects.append(f"SELECT '{ha}', '{hb}', " + ", ".join(cols) + ";")
    out = subprocess.run(["mariadb", "--no-defaults", "-N", "-B", "--default-character-set=utf8mb4", *sys.argv[1:]],
                         input="\n".join(selects), capture_output=True, text=True, check=True).stdout
    version = subprocess.run(["mariadb", "--no-defaults", "-N", "-B", *sys.argv[1:], "-e", "SELECT VERSION()"],
                             capture_output=True, text=True, check=True).stdout.strip()
    with open("router/src/test/resources/collation/pairs.tsv", "w", encoding="ascii") as f:
        f.write(f"## STRCMP(a, b) under each collation, from MariaDB {version}, by router/tools/generate-collation-pairs.py.\n")
        f.write("## a and b are UTF-8 in hex; '-' where a string is not latin1.\n")
        f.write("a\tb\t" + "\t".join(COLLATIONS) + "\n")
        f.write(out)


if __name__ == "__main__":
    main()
