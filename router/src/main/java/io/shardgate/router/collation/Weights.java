package io.shardgate.router.collation;

/** The collation weights of single code points; a string's weights are its code points' weights in order. */
interface Weights {

    /** Weights that are the code point itself: the {@code _bin} collations. */
    Weights CODE_POINTS = new Weights() {
        @Override
        public int count(int codePoint) {
            return 1;
        }

        @Override
        public int weight(int codePoint, int i) {
            return codePoint;
        }
    };

    /** How many weights {@code codePoint} has; 0 for an ignorable one. */
    int count(int codePoint);

    /** Weight {@code i} of {@code codePoint}. */
    int weight(int codePoint, int i);
}
