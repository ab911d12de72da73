package io.shardgate.proxy.auth;

import java.io.ByteArrayInputStream;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.SecureRandom;
import java.security.Signature;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.time.Instant;

import static java.util.Objects.requireNonNull;

/**
 * A self-signed X.509 v3 server certificate for when no certificate is configured, built with
 * {@link Der} (no BouncyCastle, no {@code sun.security} internals) and loaded back through
 * {@link CertificateFactory}.
 *
 * <p>Subject and issuer {@code CN=Shardgate auto-generated}; valid from a day before {@code now}
 * to 365 days after; a random positive 128-bit serial; extensions: basicConstraints (critical,
 * not a CA), keyUsage (critical), extendedKeyUsage serverAuth, and subjectAltName
 * {@code DNS:localhost, IP:127.0.0.1}. Clients cannot verify it unless told to trust it; it
 * gives encryption, not identity.
 */
public final class SelfSignedCertificate {
    public static final String COMMON_NAME = "Shardgate auto-generated";

    /** The key and signature algorithm of the certificate. */
    public enum KeyType {
        /** RSA 2048 signed with SHA256withRSA: what every TLS client accepts. */
        RSA_2048("RSA", "SHA256withRSA", "1.2.840.113549.1.1.11", true, (byte) 0xA0),
        /** EC P-256 signed with SHA256withECDSA: smaller and faster to generate. */
        EC_P256("EC", "SHA256withECDSA", "1.2.840.10045.4.3.2", false, (byte) 0x80);

        private final String keyAlgorithm;
        private final String signatureAlgorithm;
        private final String signatureOid;
        private final boolean nullParameters;
        /** keyUsage bits: digitalSignature (0x80), plus keyEncipherment (0x20) for RSA. */
        private final byte keyUsage;

        KeyType(String keyAlgorithm, String signatureAlgorithm, String signatureOid, boolean nullParameters, byte keyUsage) {
            this.keyAlgorithm = keyAlgorithm;
            this.signatureAlgorithm = signatureAlgorithm;
            this.signatureOid = signatureOid;
            this.nullParameters = nullParameters;
            this.keyUsage = keyUsage;
        }

        KeyPair generateKeyPair(SecureRandom random) throws GeneralSecurityException {
            KeyPairGenerator generator = KeyPairGenerator.getInstance(keyAlgorithm);
            if (this == RSA_2048) {
                generator.initialize(2048, random);
            } else {
                generator.initialize(new ECGenParameterSpec("secp256r1"), random);
            }
            return generator.generateKeyPair();
        }

        /** AlgorithmIdentifier of the signature; RSA takes NULL parameters, ECDSA none (RFC 5758). */
        byte[] signatureAlgorithmIdentifier() {
            return nullParameters ? Der.sequence(Der.oid(signatureOid), Der.nullValue()) : Der.sequence(Der.oid(signatureOid));
        }
    }

    private static final Duration BACKDATE = Duration.ofDays(1);
    private static final Duration VALIDITY = Duration.ofDays(365);

    private static final String OID_COMMON_NAME = "2.5.4.3";
    private static final String OID_BASIC_CONSTRAINTS = "2.5.29.19";
    private static final String OID_KEY_USAGE = "2.5.29.15";
    private static final String OID_EXT_KEY_USAGE = "2.5.29.37";
    private static final String OID_SUBJECT_ALT_NAME = "2.5.29.17";
    private static final String OID_SERVER_AUTH = "1.3.6.1.5.5.7.3.1";
    private static final int SAN_DNS_NAME = 2;
    private static final int SAN_IP_ADDRESS = 7;

    private final X509Certificate certificate;
    private final PrivateKey privateKey;

    private SelfSignedCertificate(X509Certificate certificate, PrivateKey privateKey) {
        this.certificate = certificate;
        this.privateKey = privateKey;
    }

    /** A new key pair and a certificate valid from {@code now - 1 day} to {@code now + 365 days}. */
    public static SelfSignedCertificate generate(KeyType keyType, SecureRandom random, Instant now) {
        requireNonNull(keyType, "keyType is null");
        requireNonNull(random, "random is null");
        requireNonNull(now, "now is null");
        try {
            KeyPair keyPair = keyType.generateKeyPair(random);
            BigInteger serial = new BigInteger(128, random).setBit(127);
            byte[] tbs = tbsCertificate(keyType, keyPair, serial, now);
            Signature signer = Signature.getInstance(keyType.signatureAlgorithm);
            signer.initSign(keyPair.getPrivate(), random);
            signer.update(tbs);
            byte[] der = Der.sequence(tbs, keyType.signatureAlgorithmIdentifier(), Der.bitString(signer.sign()));
            X509Certificate certificate = (X509Certificate) CertificateFactory.getInstance("X.509")
                    .generateCertificate(new ByteArrayInputStream(der));
            return new SelfSignedCertificate(certificate, keyPair.getPrivate());
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("cannot generate a self-signed " + keyType + " certificate", e);
        }
    }

    public X509Certificate certificate() {
        return certificate;
    }

    public PrivateKey privateKey() {
        return privateKey;
    }

    /** The certificate as PEM ({@code BEGIN CERTIFICATE}). */
    public String certificatePem() {
        try {
            return Pem.encode("CERTIFICATE", certificate.getEncoded());
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("cannot encode the certificate", e);
        }
    }

    /** The private key as unencrypted PKCS#8 PEM ({@code BEGIN PRIVATE KEY}). */
    public String privateKeyPem() {
        return Pem.encode("PRIVATE KEY", privateKey.getEncoded());
    }

    private static byte[] tbsCertificate(KeyType keyType, KeyPair keyPair, BigInteger serial, Instant now) {
        byte[] name = Der.sequence(Der.setOf(Der.sequence(Der.oid(OID_COMMON_NAME), Der.utf8String(COMMON_NAME))));
        byte[] validity = Der.sequence(Der.time(now.minus(BACKDATE)), Der.time(now.plus(VALIDITY)));
        byte[] extensions = Der.sequence(
                extension(OID_BASIC_CONSTRAINTS, true, Der.sequence()),
                extension(OID_KEY_USAGE, true, keyUsage(keyType.keyUsage)),
                extension(OID_EXT_KEY_USAGE, false, Der.sequence(Der.oid(OID_SERVER_AUTH))),
                extension(OID_SUBJECT_ALT_NAME, false, Der.sequence(
                        Der.implicitPrimitive(SAN_DNS_NAME, "localhost".getBytes(StandardCharsets.US_ASCII)),
                        Der.implicitPrimitive(SAN_IP_ADDRESS, new byte[] {127, 0, 0, 1}))));
        return Der.sequence(
                Der.explicit(0, Der.integer(2)),
                Der.integer(serial),
                keyType.signatureAlgorithmIdentifier(),
                name,
                validity,
                name,
                keyPair.getPublic().getEncoded(),
                Der.explicit(3, extensions));
    }

    private static byte[] extension(String oid, boolean critical, byte[] value) {
        return critical
                ? Der.sequence(Der.oid(oid), Der.bool(true), Der.octetString(value))
                : Der.sequence(Der.oid(oid), Der.octetString(value));
    }

    /** keyUsage as a DER BIT STRING: named bits with trailing zero bits dropped (X.690 11.2.2). */
    private static byte[] keyUsage(byte bits) {
        int unused = Integer.numberOfTrailingZeros(bits & 0xFF);
        return Der.bitString(new byte[] {bits}, unused);
    }

    @Override
    public String toString() {
        return "SelfSignedCertificate[" + certificate.getSubjectX500Principal() + ", serial "
                + certificate.getSerialNumber().toString(16) + "]";
    }
}
