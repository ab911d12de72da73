package io.shardgate.proxy.auth;

import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static java.util.Objects.requireNonNull;

/** PEM ("RFC 7468 textual encoding") blocks: base64 in lines of 64 characters between labels. */
final class Pem {
    private static final Pattern BLOCK = Pattern.compile(
            "-----BEGIN ([A-Z0-9 ]+)-----\\s*([A-Za-z0-9+/=\\s]*?)\\s*-----END \\1-----");

    /** One decoded block: its label (e.g. {@code PRIVATE KEY}) and its DER bytes. */
    record Block(String label, byte[] der) {
        Block {
            requireNonNull(label, "label is null");
            requireNonNull(der, "der is null");
        }
    }

    private Pem() {
    }

    static String encode(String label, byte[] der) {
        requireNonNull(label, "label is null");
        requireNonNull(der, "der is null");
        String base64 = Base64.getMimeEncoder(64, new byte[] {'\n'}).encodeToString(der);
        return "-----BEGIN " + label + "-----\n" + base64 + "\n-----END " + label + "-----\n";
    }

    /** Every block in {@code text}, in order; text between blocks is ignored. */
    static List<Block> decode(String text) {
        requireNonNull(text, "text is null");
        List<Block> blocks = new ArrayList<>();
        Matcher matcher = BLOCK.matcher(text);
        while (matcher.find()) {
            blocks.add(new Block(matcher.group(1), Base64.getMimeDecoder().decode(matcher.group(2))));
        }
        return blocks;
    }
}
