package io.shardgate.proxy.error;

import io.netty.handler.codec.DecoderException;
import io.shardgate.errors.ErrorCode;
import io.shardgate.proxy.protocol.compress.CompressedFrameException;
import org.junit.jupiter.api.Test;

import java.util.concurrent.CompletionException;
import java.util.zip.DataFormatException;

import static org.assertj.core.api.Assertions.assertThat;

class ErrorTranslatorTest {
    private final ErrorTranslator translator = new ErrorTranslator();

    @Test
    void aCorruptCompressedFrameIsAMalformedPacketNotAnInternalError() {
        // As Netty delivers it: the decoder's own exception, whose cause is the JDK's inflater error.
        Throwable corrupt = new CompressedFrameException("corrupt zlib payload: incorrect header check",
                new DataFormatException("incorrect header check"));

        ErrorTranslator.Translation translation = translator.translate(corrupt);

        assertThat(translation.packet().errno()).isEqualTo(ErrorCode.MALFORMED_PACKET.errno());
        assertThat(translation.packet().message()).contains("corrupt zlib payload");
        assertThat(translation.closeConnection()).isTrue();
    }

    @Test
    void nettysPlainWrapperIsLookedThrough() {
        Throwable wrapped = new CompletionException(new DecoderException(ErrorCode.PACKETS_OUT_OF_ORDER.exception()));

        ErrorTranslator.Translation translation = translator.translate(wrapped);

        assertThat(translation.packet().errno()).isEqualTo(1156);
        assertThat(translation.closeConnection()).isTrue();
    }

    @Test
    void anUnknownExceptionIsAnInternalErrorThatClosesTheConnection() {
        ErrorTranslator.Translation translation = translator.translate(new IllegalStateException("bug"));

        assertThat(translation.packet().errno()).isEqualTo(1105);
        assertThat(translation.closeConnection()).isTrue();
    }
}
