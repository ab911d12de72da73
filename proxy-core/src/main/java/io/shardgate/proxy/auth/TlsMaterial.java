package io.shardgate.proxy.auth;

import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslProvider;

import javax.net.ssl.SSLException;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.SecureRandom;
import java.security.Signature;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.List;

import static java.util.Objects.requireNonNull;

/**
 * The server's certificate chain and private key, and the Netty {@link SslContext} made from them:
 * JDK provider, TLSv1.3 and TLSv1.2 only.
 *
 * <p>Keys are read from PEM: PKCS#8 ({@code BEGIN PRIVATE KEY}, RSA or EC) or PKCS#1
 * ({@code BEGIN RSA PRIVATE KEY}, wrapped into PKCS#8 here, since the JDK reads only PKCS#8 and
 * Netty needs BouncyCastle for PKCS#1). Encrypted and SEC1 ({@code BEGIN EC PRIVATE KEY}) keys are
 * refused with the {@code openssl} command that converts them. Loading fails unless the key
 * belongs to the first certificate, so a mismatch shows at startup, not at the first handshake.
 */
public final class TlsMaterial {
    /** The only protocols the server accepts, newest first. */
    public static final List<String> PROTOCOLS = List.of("TLSv1.3", "TLSv1.2");

    private static final String OID_RSA_ENCRYPTION = "1.2.840.113549.1.1.1";

    private final List<X509Certificate> certificateChain;
    private final PrivateKey privateKey;

    private TlsMaterial(List<X509Certificate> certificateChain, PrivateKey privateKey) {
        this.certificateChain = List.copyOf(certificateChain);
        this.privateKey = privateKey;
    }

    /** Reads a PEM certificate chain (leaf first) and a PEM private key. */
    public static TlsMaterial fromPemFiles(Path certificateChain, Path privateKey) throws IOException {
        requireNonNull(certificateChain, "certificateChain is null");
        requireNonNull(privateKey, "privateKey is null");
        // ISO-8859-1 decodes any byte: text around the PEM blocks (openssl "Bag Attributes" with
        // UTF-8 subjects) must not make the read fail; the blocks themselves are ASCII.
        String certificates = Files.readString(certificateChain, StandardCharsets.ISO_8859_1);
        String key = Files.readString(privateKey, StandardCharsets.ISO_8859_1);
        try {
            return fromPem(certificates, key);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(certificateChain + ", " + privateKey + ": " + e.getMessage(), e);
        }
    }

    /** The PEM texts of a certificate chain (leaf first) and of its private key. */
    public static TlsMaterial fromPem(String certificateChainPem, String privateKeyPem) {
        requireNonNull(certificateChainPem, "certificateChainPem is null");
        requireNonNull(privateKeyPem, "privateKeyPem is null");
        List<X509Certificate> chain = parseCertificates(certificateChainPem);
        PrivateKey key = parsePrivateKey(privateKeyPem, chain.get(0).getPublicKey().getAlgorithm());
        checkKeyMatches(chain.get(0), key);
        return new TlsMaterial(chain, key);
    }

    /** The generated pair, for when no certificate is configured. */
    public static TlsMaterial selfSigned(SelfSignedCertificate certificate) {
        requireNonNull(certificate, "certificate is null");
        return new TlsMaterial(List.of(certificate.certificate()), certificate.privateKey());
    }

    public List<X509Certificate> certificateChain() {
        return certificateChain;
    }

    /** A server context: JDK provider, {@link #PROTOCOLS} only, no client certificates. */
    public SslContext serverContext() throws SSLException {
        return SslContextBuilder.forServer(privateKey, certificateChain.toArray(X509Certificate[]::new))
                .sslProvider(SslProvider.JDK)
                .protocols(PROTOCOLS)
                .build();
    }

    private static List<X509Certificate> parseCertificates(String pem) {
        List<Pem.Block> blocks = Pem.decode(pem).stream().filter(b -> b.label().equals("CERTIFICATE")).toList();
        if (blocks.isEmpty()) {
            throw new IllegalArgumentException("no -----BEGIN CERTIFICATE----- block");
        }
        try {
            CertificateFactory factory = CertificateFactory.getInstance("X.509");
            return blocks.stream().map(block -> toCertificate(factory, block.der())).toList();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("X.509 is unavailable in this JVM", e);
        }
    }

    private static X509Certificate toCertificate(CertificateFactory factory, byte[] der) {
        try {
            return (X509Certificate) factory.generateCertificate(new ByteArrayInputStream(der));
        } catch (GeneralSecurityException e) {
            throw new IllegalArgumentException("invalid certificate: " + e.getMessage(), e);
        }
    }

    private static PrivateKey parsePrivateKey(String pem, String algorithm) {
        List<Pem.Block> keys = Pem.decode(pem).stream().filter(b -> b.label().endsWith("PRIVATE KEY")).toList();
        if (keys.size() != 1) {
            throw new IllegalArgumentException("private key blocks: " + keys.size() + " (expected: 1)");
        }
        Pem.Block block = keys.get(0);
        byte[] pkcs8 = switch (block.label()) {
            case "PRIVATE KEY" -> block.der();
            case "RSA PRIVATE KEY" -> wrapPkcs1(block.der());
            default -> throw new IllegalArgumentException("unsupported key '" + block.label()
                    + "' (expected: an unencrypted PKCS#8 or PKCS#1 key; convert with "
                    + "'openssl pkcs8 -topk8 -nocrypt -in KEY -out KEY.pk8')");
        };
        try {
            return KeyFactory.getInstance(algorithm).generatePrivate(new PKCS8EncodedKeySpec(pkcs8));
        } catch (GeneralSecurityException e) {
            throw new IllegalArgumentException("cannot read the " + algorithm + " private key: " + e.getMessage(), e);
        }
    }

    /** PKCS#1 RSAPrivateKey to PKCS#8 PrivateKeyInfo: version 0, rsaEncryption, the key as OCTET STRING. */
    private static byte[] wrapPkcs1(byte[] pkcs1) {
        return Der.sequence(
                Der.integer(0),
                Der.sequence(Der.oid(OID_RSA_ENCRYPTION), Der.nullValue()),
                Der.octetString(pkcs1));
    }

    private static void checkKeyMatches(X509Certificate leaf, PrivateKey key) {
        String algorithm = switch (key.getAlgorithm()) {
            case "RSA" -> "SHA256withRSA";
            case "EC" -> "SHA256withECDSA";
            default -> throw new IllegalArgumentException("unsupported key algorithm " + key.getAlgorithm()
                    + " (expected: RSA or EC)");
        };
        byte[] probe = new byte[32];
        new SecureRandom().nextBytes(probe);
        try {
            Signature signer = Signature.getInstance(algorithm);
            signer.initSign(key);
            signer.update(probe);
            byte[] signature = signer.sign();
            Signature verifier = Signature.getInstance(algorithm);
            verifier.initVerify(leaf.getPublicKey());
            verifier.update(probe);
            if (!verifier.verify(signature)) {
                throw new IllegalArgumentException("the private key does not belong to the certificate "
                        + leaf.getSubjectX500Principal());
            }
        } catch (GeneralSecurityException e) {
            throw new IllegalArgumentException("cannot check the key against the certificate: " + e.getMessage(), e);
        }
    }

    @Override
    public String toString() {
        return "TlsMaterial[" + certificateChain.get(0).getSubjectX500Principal() + ", chain of " + certificateChain.size() + "]";
    }
}
