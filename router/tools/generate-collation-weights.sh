#!/bin/bash
# Regenerates router/src/main/resources/io/shardgate/router/collation/*.weights from a running
# MariaDB (10.11 was used) through the mariadb client. Usage, from the repository root:
#
#   router/tools/generate-collation-weights.sh -S /path/to/socket -uroot
#
# Every argument is passed to the mariadb client. The server is asked WEIGHT_STRING() of every
# BMP code point (surrogates excluded) under each collation; a line is written only where the
# weight differs from the collation's default rule (see Collation.java), and runs of consecutive
# code points with consecutive single weights are written as one line "START-END FIRST_WEIGHT".
# Needs GNU awk. No contractions exist in these collations (checked: WEIGHT_STRING(ab) = WEIGHT_STRING(a) ||
# WEIGHT_STRING(b)), so a string's weights are the concatenation of its characters' weights.
set -euo pipefail
out=router/src/main/resources/io/shardgate/router/collation
q() { mariadb --no-defaults --default-character-set=utf8mb4 -N -B -D mysql "$@"; }

bmp() { # $1 = collation; prints "cp<TAB>HEXWEIGHTS"
    coll=$1; shift
    q "$@" -e "SELECT seq, HEX(WEIGHT_STRING(CONVERT(CHAR(seq USING utf32) USING utf8mb4) COLLATE $coll))
               FROM seq_0_to_65535 WHERE seq NOT BETWEEN 55296 AND 57343"
}

latin1() { # $1 = collation; prints "unicode cp<TAB>HEXWEIGHT" for every latin1 byte
    coll=$1; shift
    q "$@" -e "SELECT CONV(HEX(CONVERT(CHAR(seq USING latin1) USING utf32)), 16, 10),
                      CONCAT('00', HEX(WEIGHT_STRING(CHAR(seq USING latin1) COLLATE $coll)))
               FROM seq_0_to_255"
}

# Reads "cp<TAB>HEXWEIGHTS" and writes the run-length coded exceptions to the default rule $1:
# "codepoint" (the weight is the code point), "implicit" (UCA 4.0.0 implicit weights) or "none".
encode() {
    gawk -F '\t' -v rule="$1" '
    function implicit(cp,   base) {
        if ((cp >= 19968 && cp <= 40869) || cp == 64014 || cp == 64015 || cp == 64017 || cp == 64019 \
                || cp == 64020 || cp == 64031 || cp == 64033 || cp == 64035 || cp == 64036 \
                || (cp >= 64039 && cp <= 64041)) base = 64320
        else if (cp >= 13312 && cp <= 19893) base = 64384
        else base = 64448
        return sprintf("%04X%04X", base + int(cp / 32768), (cp % 32768) + 32768)
    }
    function flush() {
        if (start < 0) return
        line = sprintf("%04X", start)
        if (last > start) line = line sprintf("-%04X", last)
        for (i = 1; i <= n; i++) line = line " " w[i]
        print line
        start = -1
    }
    BEGIN { start = -1 }
    {
        cp = $1 + 0; hex = $2
        if ((rule == "codepoint" && hex == sprintf("%04X", cp)) || (rule == "implicit" && hex == implicit(cp))) {
            flush(); next
        }
        count = length(hex) / 4
        if (start >= 0 && cp == last + 1 && count == n && count <= 1 \
                && (count == 0 || strtonum("0x" substr(hex, 1, 4)) == first + (cp - start))) {
            last = cp; next
        }
        flush()
        start = cp; last = cp; n = count
        for (i = 1; i <= n; i++) w[i] = substr(hex, 4 * i - 3, 4)
        first = n > 0 ? strtonum("0x" w[1]) : 0
    }
    END { flush() }'
}

header() { # $1 = collation, $2 = default rule in words
    name=$1; rule=$2; shift 2
    echo "# $name weights from MariaDB $(q "$@" -e 'SELECT VERSION()') WEIGHT_STRING(), by router/tools/generate-collation-weights.sh."
    echo "# Lines: CODEPOINT[-LAST] [WEIGHT ...] in hex; a range has one weight that grows by one per code point."
    echo "# A code point without weights is ignorable. Code points not listed follow the default rule: $rule."
}

{ header utf8mb4_general_ci "the weight is the code point" "$@"; bmp utf8mb4_general_ci "$@" | encode codepoint; } > "$out/utf8mb4_general_ci.weights"
{ header utf8mb4_unicode_ci "UCA 4.0.0 implicit weights" "$@"; bmp utf8mb4_unicode_ci "$@" | encode implicit; } > "$out/utf8mb4_unicode_ci.weights"
{ header latin1_swedish_ci "not a latin1 character" "$@"; latin1 latin1_swedish_ci "$@" | sort -n | encode none; } > "$out/latin1_swedish_ci.weights"
{ header latin1_bin "not a latin1 character" "$@"; latin1 latin1_bin "$@" | sort -n | encode none; } > "$out/latin1_bin.weights"
