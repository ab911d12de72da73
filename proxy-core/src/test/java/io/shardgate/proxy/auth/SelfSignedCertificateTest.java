package io.shardgate.proxy.auth;

import io.shardgate.proxy.auth.SelfSignedCertificate.KeyType;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.io.ByteArrayInputStream;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.SecureRandom;
import java.security.Signature;
import java.security.SignatureException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.PKCS8EncodedKeySpec;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

class SelfSignedCertificateTest {
    private static final Instant NOW = Instant.parse("2026-11-23T02:24:55.750Z");

    @ParameterizedTest
    @EnumSource(KeyType.class)
    void verifiesWithItsOwnKey(KeyType keyType) throws Exception {
        X509Certificate certificate = generate(keyType).certificate();
        certificate.verify(certificate.getPublicKey());
        assertThat(certificate.getSigAlgName()).isEqualTo(keyType == KeyType.RSA_2048 ? "SHA256withRSA" : "SHA256withECDSA");
        assertThat(certificate.getPublicKey().getAlgorithm()).isEqualTo(keyType == KeyType.RSA_2048 ? "RSA" : "EC");
    }

    @ParameterizedTest
    @EnumSource(KeyType.class)
    void tamperedCertificateDoesNotVerify(KeyType keyType) throws Exception {
        byte[] der = generate(keyType).certificate().getEncoded();
        int at = indexOf(der, SelfSignedCertificate.COMMON_NAME.getBytes(StandardCharsets.UTF_8));
        der[at] = 's';
        X509Certificate tampered = (X509Certificate) CertificateFactory.getInstance("X.509")
                .generateCertificate(new ByteArrayInputStream(der));
        assertThatThrownBy(() -> tampered.verify(tampered.getPublicKey())).isInstanceOf(SignatureException.class);
    }

    @ParameterizedTest
    @EnumSource(KeyType.class)
    void fields(KeyType keyType) throws Exception {
        X509Certificate certificate = generate(keyType).certificate();
        assertThat(certificate.getVersion()).isEqualTo(3);
        assertThat(certificate.getSubjectX500Principal().getName()).isEqualTo("CN=Shardgate auto-generated");
        assertThat(certificate.getIssuerX500Principal()).isEqualTo(certificate.getSubjectX500Principal());
        assertThat(certificate.getNotBefore().toInstant()).isEqualTo(Instant.parse("2026-11-22T02:24:55Z"));
        assertThat(certificate.getNotAfter().toInstant()).isEqualTo(Instant.parse("2027-11-23T02:24:55Z"));
        assertThat(certificate.getSerialNumber().signum()).isEqualTo(1);
        assertThat(certificate.getSerialNumber().bitLength()).isEqualTo(128);
        certificate.checkValidity(Date.from(NOW));
        assertThat(certificate.getBasicConstraints()).isEqualTo(-1);
        assertThat(certificate.getKeyUsage()[0]).as("digitalSignature").isTrue();
        assertThat(certificate.getKeyUsage()[2]).as("keyEncipherment").isEqualTo(keyType == KeyType.RSA_2048);
        assertThat(certificate.getExtendedKeyUsage()).containsExactly("1.3.6.1.5.5.7.3.1");
        assertThat(certificate.getCriticalExtensionOIDs()).containsExactlyInAnyOrder("2.5.29.19", "2.5.29.15");
        assertThat(certificate.getNonCriticalExtensionOIDs()).containsExactlyInAnyOrder("2.5.29.37", "2.5.29.17");
    }

    @ParameterizedTest
    @EnumSource(KeyType.class)
    void subjectAlternativeNames(KeyType keyType) throws Exception {
        assertThat(generate(keyType).certificate().getSubjectAlternativeNames())
                .containsExactlyInAnyOrder(List.of(2, "localhost"), List.of(7, "127.0.0.1"));
    }

    @ParameterizedTest
    @EnumSource(KeyType.class)
    void privateKeyBelongsToTheCertificate(KeyType keyType) throws Exception {
        SelfSignedCertificate generated = generate(keyType);
        String algorithm = generated.certificate().getSigAlgName();
        Signature signer = Signature.getInstance(algorithm);
        signer.initSign(generated.privateKey());
        signer.update(new byte[] {1, 2, 3});
        Signature verifier = Signature.getInstance(algorithm);
        verifier.initVerify(generated.certificate().getPublicKey());
        verifier.update(new byte[] {1, 2, 3});
        assertThat(verifier.verify(signer.sign())).isTrue();
    }

    @ParameterizedTest
    @EnumSource(KeyType.class)
    void twoCertificatesHaveDifferentSerialsAndKeys(KeyType keyType) {
        SelfSignedCertificate first = generate(keyType);
        SelfSignedCertificate second = generate(keyType);
        assertThat(first.certificate().getSerialNumber()).isNotEqualTo(second.certificate().getSerialNumber());
        assertThat(first.certificate().getPublicKey()).isNotEqualTo(second.certificate().getPublicKey());
    }

    @ParameterizedTest
    @EnumSource(KeyType.class)
    void pemParsesBack(KeyType keyType) throws Exception {
        SelfSignedCertificate generated = generate(keyType);
        assertThat(generated.certificatePem()).startsWith("-----BEGIN CERTIFICATE-----\n").endsWith("-----END CERTIFICATE-----\n");
        assertThat(generated.privateKeyPem()).startsWith("-----BEGIN PRIVATE KEY-----\n").endsWith("-----END PRIVATE KEY-----\n");
        X509Certificate parsed = (X509Certificate) CertificateFactory.getInstance("X.509")
                .generateCertificate(new ByteArrayInputStream(generated.certificatePem().getBytes(StandardCharsets.US_ASCII)));
        assertThat(parsed).isEqualTo(generated.certificate());
        PrivateKey key = KeyFactory.getInstance(parsed.getPublicKey().getAlgorithm())
                .generatePrivate(new PKCS8EncodedKeySpec(Pem.decode(generated.privateKeyPem()).get(0).der()));
        assertThat(key).isEqualTo(generated.privateKey());
    }

    /** OpenSSL, an independent X.509 parser, reads the certificate and accepts it as its own trust anchor. */
    @ParameterizedTest
    @EnumSource(KeyType.class)
    void opensslAgrees(KeyType keyType, @TempDir Path dir) throws Exception {
        assumeTrue(opensslAvailable(), "openssl is not on PATH");
        SelfSignedCertificate generated = SelfSignedCertificate.generate(keyType, new SecureRandom(), Instant.now());
        Path pem = dir.resolve("cert.pem");
        Files.writeString(pem, generated.certificatePem());

        String text = openssl("x509", "-noout", "-text", "-in", pem.toString());
        assertThat(text)
                .contains("Version: 3 (0x2)")
                .contains("Issuer: CN = Shardgate auto-generated")
                .contains("Subject: CN = Shardgate auto-generated")
                .contains("DNS:localhost, IP Address:127.0.0.1")
                .contains("CA:FALSE")
                .contains("TLS Web Server Authentication")
                .contains(keyType == KeyType.RSA_2048 ? "sha256WithRSAEncryption" : "ecdsa-with-SHA256")
                .contains(keyType == KeyType.RSA_2048 ? "Public-Key: (2048 bit)" : "NIST CURVE: P-256");
        assertThat(openssl("verify", "-CAfile", pem.toString(), pem.toString())).contains(": OK");
    }

    private static SelfSignedCertificate generate(KeyType keyType) {
        return SelfSignedCertificate.generate(keyType, new SecureRandom(), NOW);
    }

    private static int indexOf(byte[] haystack, byte[] needle) {
        outer:
        for (int i = 0; i <= haystack.length - needle.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (haystack[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return i;
        }
        throw new AssertionError("not found");
    }

    private static boolean opensslAvailable() {
        try {
            openssl("version");
            return true;
        } catch (IOException | InterruptedException | AssertionError e) {
            return false;
        }
    }

    private static String openssl(String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("openssl"));
        command.addAll(List.of(args));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null"))).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!process.waitFor(Duration.ofSeconds(30).toSeconds(), TimeUnit.SECONDS) || process.exitValue() != 0) {
            process.destroyForcibly();
            throw new AssertionError("openssl " + String.join(" ", args) + " failed:\n" + output);
        }
        return output;
    }
}
