package io.shardgate.proxy.auth;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.security.KeyFactory;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PublicKey;
import java.security.SecureRandom;
import java.security.interfaces.RSAPrivateCrtKey;
import java.security.spec.PKCS8EncodedKeySpec;
import java.security.spec.RSAPublicKeySpec;
import java.security.spec.X509EncodedKeySpec;
import java.util.Base64;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class RsaKeyPairTest {
    /** {@code openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048}, for the known answers below. */
    private static final String FIXED_KEY_PEM = """
            -----BEGIN PRIVATE KEY-----
            MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQDSiGRD055sJJLU
            AODH9iAWz6Q2KLe83oa23vzFf3hIJN8PvbJ8YCMPzAGloyA1Kd3Svf+grO6f1qko
            z65iR1RWkRa94gq3mP5LfgXWHZBfA3VagmeUZIyvNAV713zWwq2qULDCDUKeagty
            C6WhAXIeu8rXtMftErdpnt4MXedi/N5ANOHG5d8DhSg4Ro7QAHoBrotjWw0ekHTw
            FGntoQYrOjJKFr1G91+pQbw17q1jqs6Q4K4vPLToceXqPlDMfq8sXYa825Xz/BFO
            b735Kcx1NvC9NPeAXsJI08gTd/QIbHFL8Xp1kPqho4I/nLMlPtU3yGfvcEX9kMdx
            G40KLj8FAgMBAAECggEAH3u/BreYOtLTVDnXY3/Gd7LQezrmkytx2NoK0dwImD1P
            UDLNhLT5uUyIOIVm9RxQLEo2dog13RhETrKUAOVq0tE6peWuNZt+97oeVFEyfErv
            mzviEnpg4Xh1k3n7lMAjKVOMw1ApVLhGAuWD/MpTDw6FPHGv7h985yIXUaEfT5l8
            dm/pyFlWq1rIouyeMVtsY6pPmN2MllDc4khHLzUw/xJzM78kLIMPjNU52mpIsaLd
            nfAxIO9PsFfrXQnWsHopMUNl9ASW2OZwTuhsYG09sjttp4+fEsVUpABuJ2IwOXLM
            PW5a457O37T11J+Cmr+xoM3A0ghuy9XA0Y2HntTllwKBgQD1XBCtmmgij2U7216y
            EqofSRxExa75TMLLJZ8CTTadoB6kommTAhmLXEGrkarS48fUVsEG8nx6X8HeY933
            LEF0jxb6Z05vIkqEB5QrWeayh6IkhogIqzw7G6BYp9cnaeiW6Vp4S/XftTb42T/z
            JOaVXtG+jxgRqttlpswelnc6UwKBgQDbqa+D2XLvQQ8kBYYghki2dL4gWAeKr+zz
            fN/qHXKXjfTLpfg2kWvf0q5QaaVLpS+fjX6CpsB/668OuO2y1ZhwgRNRqxjPzAE3
            QDreQn1p2KesVUGSVysVw1fewOQ9vwWu4zHYl2adbJrIfkRs4I+DB/Vg4f12zrDs
            oQr5/qBmRwKBgQC95gKWipIcZYWBnVieVCnNSwWRCLtTAiEln7mAy4gA2WO+ImG5
            wP9KSB4fjv96d4c7BeYh3V2QTTq8R+kMm/kRIIo1Re2DwDOSGleIce1GsglBYco5
            g2Z7jPc+hrDUNXkqC/PUdV4YRaYFVgfTxPSeGSQW66NCUU27UCxdZDFlNwKBgFAQ
            +bjFee9bd3lZyhnw2HAo/WQsshMLLQNTcQqU0UAMrj3MsTyypO9gi8kjuOxpuYIe
            wQ4+WcxGy/hBz+JvmLDpW3FZPCIB6i+Jaeu5sJz0K6nVKaF9xGaaXV0EUi1vg1LL
            3U9lYDHhdEnAPJCzCZxpOjemKA02KacWzDlzZmPhAoGAMHJUvCjFCXQmZ6UGOqF/
            VJY3x2fzStvDJRVxlHxMXqOBdwKYHdc0OOL9t0pawTEo9JYikT6z7TBd4obr9WSc
            XAKq/f/JpdlTMFgYxT91N6S0ldBtsLY4pFteYrisVsevLqoxnh0lYOP9Xg+HJVod
            3mKNNHsTuZ9PGqVI1Y6jVfY=
            -----END PRIVATE KEY-----
            """;
    private static final byte[] NONCE = bytes("gp}E}is(hUQu|.m[^I1Y");
    /** PyMySQL 1.0.2 {@code sha2_rsa_encrypt(b"secret", NONCE, public key PEM)}, base64. */
    private static final String PYMYSQL_SECRET = "Ao2VeupJoUsj9ubxZovj/1IPbADCqefpnrgD9yV9LEijFqTg7sF+dPLOd3AIRbJEpP8S9mkhWXpfRe0yFzSE+/FIg8Zl0kuFMc12AsUmEhyVZD0iy+aZPwFtfylWb/MBfjysTaLPuRRulTnAwecITCK0J16LAoyWlK5PestpXmiDSEpkMikY/x+ODTRMGp5rdlnA6Tr6XxQYY80JwsYF5G4Xmn3Hb3wKUL8A18ft3W2eoxj1OzhA2zODbaPagnAJ+xj04uagoZRoLFuFvMlXDsHwms0hlurfKniAMAtmTnUqLpplaOb+Y+SOdTG7qWNAaHUHBFeKdAVfdYRL/KybEw==";
    /** The same for a 47-byte password, longer than the nonce, so the nonce repeats. */
    private static final String LONG_PASSWORD = "a password longer than the twenty-byte nonce ü";
    private static final String PYMYSQL_LONG = "oM4Z9z1yNP7wC2jEP31PzBurdOTm0dB3nDQ0m3HtxhJKq0XPZnh+Qp9n3zohskN6HEDw+Fa0fSpHELHnQpBS7GBVMyFXkvGGMsuKCRoBVqQQmo7iXeIQDoudtDnQIPBl4LWHL+eH6j3so/FPtdAaGSKOdIjxbgm1Llv9UdysFuNl7KuwngLANQjGowbryjC72XPV50i1A9YUrAvEIVWYudsnLjyt/h4qT+BKSctY///4B0Tn99XqPi1qiVn156X12hwJUEiF+CSLza9pBD0NschMikscmvXd2n27jdkNSE+mwO/w+sA4YLZJIld0PSaynKnp52TM919BmwgaUrk0jw==";

    private static final RsaKeyPair GENERATED = RsaKeyPair.generate(new SecureRandom());

    @Test
    void decryptsWhatPyMysqlEncrypted() throws Exception {
        RsaKeyPair fixed = fixedKeyPair();
        assertThat(fixed.decryptPassword(Base64.getDecoder().decode(PYMYSQL_SECRET), NONCE)).isEqualTo(bytes("secret"));
        assertThat(fixed.decryptPassword(Base64.getDecoder().decode(PYMYSQL_LONG), NONCE)).isEqualTo(bytes(LONG_PASSWORD));
    }

    @Test
    void roundTrip() {
        byte[] nonce = Scramble.generate(new SecureRandom());
        for (String password : List.of("secret", LONG_PASSWORD, "")) {
            byte[] encrypted = RsaKeyPair.encryptPassword(bytes(password), nonce, GENERATED.publicKey());
            assertThat(encrypted).hasSize(256);
            assertThat(GENERATED.decryptPassword(encrypted, nonce)).isEqualTo(bytes(password));
        }
    }

    @Test
    void wrongNonceGivesAnotherPasswordAndWrongKeyFails() throws Exception {
        byte[] nonce = Scramble.generate(new SecureRandom());
        byte[] encrypted = RsaKeyPair.encryptPassword(bytes("secret"), nonce, GENERATED.publicKey());
        byte[] otherNonce = nonce.clone();
        otherNonce[0] ^= 1;
        assertThat(GENERATED.decryptPassword(encrypted, otherNonce)).isNotEqualTo(bytes("secret"));
        assertThatThrownBy(() -> fixedKeyPair().decryptPassword(encrypted, nonce))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("encrypted password does not decrypt with this key (256 bytes)");
    }

    @Test
    void garbageIsAnIllegalArgumentNotACrash() {
        byte[] nonce = Scramble.generate(new SecureRandom());
        assertThatThrownBy(() -> GENERATED.decryptPassword(new byte[256], nonce)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> GENERATED.decryptPassword(new byte[300], nonce)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> GENERATED.decryptPassword(bytes("secret"), nonce)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void oaepIsRandomized() {
        byte[] nonce = Scramble.generate(new SecureRandom());
        assertThat(RsaKeyPair.encryptPassword(bytes("secret"), nonce, GENERATED.publicKey()))
                .isNotEqualTo(RsaKeyPair.encryptPassword(bytes("secret"), nonce, GENERATED.publicKey()));
    }

    @Test
    void publicKeyPemParsesBack() throws Exception {
        String pem = GENERATED.publicKeyPem();
        assertThat(pem).startsWith("-----BEGIN PUBLIC KEY-----\n").endsWith("\n-----END PUBLIC KEY-----\n");
        List<String> body = pem.lines().toList().subList(1, pem.lines().toList().size() - 1);
        assertThat(body).allSatisfy(line -> assertThat(line).hasSizeLessThanOrEqualTo(64).matches("[A-Za-z0-9+/=]+"));
        assertThat(body.subList(0, body.size() - 1)).allSatisfy(line -> assertThat(line).hasSize(64));
        byte[] der = Base64.getDecoder().decode(String.join("", body));
        PublicKey parsed = KeyFactory.getInstance("RSA").generatePublic(new X509EncodedKeySpec(der));
        assertThat(parsed).isEqualTo(GENERATED.publicKey());
        assertThat(GENERATED.publicKey().getModulus().bitLength()).isEqualTo(2048);
        assertThat(GENERATED.publicKeyPemBytes()).isEqualTo(pem.getBytes(StandardCharsets.US_ASCII));
    }

    @Test
    void encryptWithTheParsedPemDecrypts() throws Exception {
        byte[] der = Pem.decode(GENERATED.publicKeyPem()).get(0).der();
        PublicKey parsed = KeyFactory.getInstance("RSA").generatePublic(new X509EncodedKeySpec(der));
        byte[] nonce = Scramble.generate(new SecureRandom());
        assertThat(GENERATED.decryptPassword(RsaKeyPair.encryptPassword(bytes("pässwörd"), nonce, parsed), nonce))
                .isEqualTo(bytes("pässwörd"));
    }

    @Test
    void refusesShortKeys() throws Exception {
        KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
        generator.initialize(1024);
        KeyPair small = generator.generateKeyPair();
        assertThatThrownBy(() -> new RsaKeyPair(small)).hasMessage("RSA key: 1024 bits (expected: >= 2048)");
    }

    private static RsaKeyPair fixedKeyPair() throws Exception {
        KeyFactory factory = KeyFactory.getInstance("RSA");
        RSAPrivateCrtKey key = (RSAPrivateCrtKey) factory.generatePrivate(
                new PKCS8EncodedKeySpec(Pem.decode(FIXED_KEY_PEM).get(0).der()));
        PublicKey pub = factory.generatePublic(new RSAPublicKeySpec(key.getModulus(), key.getPublicExponent()));
        return new RsaKeyPair(new KeyPair(pub, key));
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
