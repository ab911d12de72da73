package io.shardgate.proxy.protocol.compress;

import static io.shardgate.proxy.protocol.compress.FrameTestSupport.drainInbound;
import static io.shardgate.proxy.protocol.compress.FrameTestSupport.writeInFragments;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.netty.channel.embedded.EmbeddedChannel;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Frames captured from a real MariaDB 10.11.19 (zlib): the reply to
 * {@code select seq, repeat('x', 100) from seq_1_to_400}, sent as frame 0 by the client. MariaDB
 * flushes its 16 KiB net buffer as one frame, so the 43,618-byte result set arrives as frames 1..3 (16384, 16384 and 10850 bytes)
 * whose boundaries fall inside packets. The expected SHA-256 is of the stream Python's zlib
 * decompressed from the same bytes.
 */
class MariaDbCapturedFramesTest {

    private static final String FRAMES = """
            52030001004000789cbddae9974f7500c7f1effd5c22469694a564ac83a8dff7ee9734f6ad6c11699b647ecc5862ccc4884a
            8a56b2a5e86fe5f878e878febee7dc7bbedf07f7bc9fbd1e7d921012b521281dec1e9f78e6d2e8c8e99ed1eec8401c183b3b
            50743acf5d525f9ebd3dfd61760861f2927dfe2e0f217df6b38f33ce77cf758f8eade81bef5bdd1b3b9d95a1674db89d84f0
            3884be10268630e149088bc3099f9338380e3c4ebd9464546a529253a9c94941a55e4e4a2a3525a9a8d4d4a4a6523d4943a5
            a6252d921a0ae115c50ed59aaec878e1d60c45060cb7662a3262b8354b9121c3ad57151933dc9aadc8a0e1d66b8a8c1a6ebd
            aec8b0e1d61c45cc8db9ca3037e629c3dc98af0c73e30d65981b6f2ac3dc58a00c73e32d65981b0b95616ef42ac3dc58a40c
            7363b172cc8d25ca3137962ac7dc58a61c7363b972cc8d3ee5981b2b94636eac548eb9b14a39e6c6dbca313756abc0dc58a3
            0273e31d15981befaac0dce8a8c0dc882a30373215981bb90acc8d4205e646a90273a35289b951abc4dc6854626eb42a3137
            d6aac4dc58a71273e33d95981beb55626ebcaf1273a35f25e6c60655981b1b55616e6c5285b9b15915e6c61655981b5b5561
            6e6c5385b9b15d15e6c60e55981b3b55616eec528db9f1816acc8d0f55636eec568db9b14735e6c65ed5981bfb54636eec57
            8db9f1916acc8d03aa31370eaac1dcf8580de6c62135981b87d5606e7ca20673e3881acc8d4fd5606e7ca60673e37335981b
            5fa8c1dcf8522de6c6805acc8dafd4626e1c558bb9f1b55acc8d636a313706d5626e74d5626e1c578bb971422de3c6700843
            69ec30703836ec18238763271d63e870ec94638c1d8e9d768cc1c3b1338e317a38f68d630c1f8e9d758cf1c3b1738e318038
            36e21826c8f93442d351c7461dc30419730c13e45bc730412e38860972d1314c9071c730412e398609f29d639820971dc304
            b992466844ead8f78e6182fce01826c88f8e61825c750c13e427c73041ae398609f2b3639820bf38860972dd314c901b6984
            e6a48efdea1826c86f8e6182fcee1826c81f8e6182fce91826c85f8e6182dc740c13e4966398207f3b8609723b8dd0b0d4b1
            3b8e6182dc750c13e49e639820f71dc304f9c7314c90078e6182fceb1826c87f8e61823c740c13e4511aa189a963ff3bf6a2
            204f01ee65876ed5020002004000789cbdda555ed5611446e1235bb1c56e041315e3fcbfc321e6e38d3360300a7607267677
            2b2a8adddd9828b806e0953f5d7b00fbb95b576f63e3bfbf85b9dca2c88a69c17ff8fd276c3158c1c29ac06a2cac19ac6861
            4bc06a2d6c29589d852d03abb7b0e5600d16b622b2dabc85ad04cb2c6c15985690d5605a41d6806905590ba615641d985690
            f5605a4136806905d908a615645364755a41368369056901d30ab2054c2bc85630ad20dbc0b4826c07d30ab2034c2bc84e30
            ad20ad605a41764556af1564379856903d605a41f6826905d907a615643f98569003605a410e8269053904a615e430985690
            2391356805390aa615e418985690e3605a414e8069053909a615e414985690d3605a41ce806905390ba615e45ca4bc5690f3
            605a412e806905b908a615e412985690cb605a41ae8069056903d30a72154c2bc83530ad20d723655a41dac1b482dc00d30a
            72134c2b48079856905b605a416e836905b903a615e42e9856907b605a41ee474a5a411e8069057908a615e411985690c760
            5a419e806905790aa615e419985690e7605a415e8069057919a9a015e415985690d7605a41de806905790ba615e41d985690
            f7605a413e806905f908a615e413985690ce48355a413e836905f902a615e42b9856906f605a41be836905f901a615a40b4c
            2bc84f30ad20bfc0b48274472a6a05e901d30a9203d30ad20b4c2b480998569000d30ad21b4c2b481f30ad20a5605a41fa82
            6905e917c9dba4f607d30a32004c2bc84030ad2083c0b4820c06d30a32044c2b4819985690a1605a4186816905191ec9dba4
            8e00d30a32124c2bc82830ad20a3c1b4828c01d30a32164c2bc83830ad20e3c1b4824c00d30a323192b7492d07d30a32094c
            2b48059856904a30ad2093c1b4824c01d30a32154c2bc83430ad20d3c1b482cc88e46d52abc0b482cc04d30a320b4c2bc86c
            30ad20d5605a41e6806905990ba615641e985690f9605a41f251f036a919d8df14e437ea59b2dbee010003622a00789cbdd4
            45529c510045e1bfea151b61054dbf560224b8042709ee2e2140023416c3ddb74b71b6008373e7b7bed92995debac5244987
            984acfbcf9f98e8145b0686119b08c8565c1b2169603cb59581e2c6f6105b0828515c18a1656196245cac23e805558581598
            56906a30ad2035605a413e826905f904a615a4164c2b481d9856907a30ad200d21a6b582348269056902d30ad20ca615a405
            4c2b482b9856903630ad209fc1b482b4836905e900d30ad21962d40ad205a615a41b4c2b480f9856905e30ad207d605a41be
            806905f90aa615e41b9856907e30ad20032166b4820c8269051902d30a320ca61564044c2bc8289856903130ad20e3605a41
            26c0b4824c826905990a31ab15641a4c2bc80c9856905930ad2073605a41e6c1b4822c8069055904d30ab204a61564194c2b
            c84a8839ad20dfc1b482ac826905f901a615640d4c2bc83a9856900d30ad203fc1b482fc02d30ab209a615642bc4bc56906d
            30ad202530ad203b605a4176c1b482ec816905d907d30a7200a615e4379856903f605a41fe8658d00af20f4c2bc87f30ad20
            87605a418ec0b4821c8369053901d30a720aa615e40c4c2bc8399856908b108b5a412ec1b4825c816905b906d30a7203a615
            e4164c2bc81d9856907b30ad200f605a411ec1b4823c854cca294859923cbf244979f20a528fedef
            """;
    private static final int STREAM_LENGTH = 43_618;
    private static final String STREAM_SHA256 = "00e375c5cad972753af429d693386f2e2b4c8885f77abb1b351b627fec6fae14";

    @Test
    void decodesMariaDbZlibFrames() throws Exception {
        byte[] frames = HexFormat.of().parseHex(FRAMES.replaceAll("\\s", ""));
        CompressionSequence sequence = new CompressionSequence(CompressionSequence.Side.CLIENT);
        assertThat(sequence.nextForSend()).as("the COM_QUERY frame").isZero();
        EmbeddedChannel channel = new EmbeddedChannel(new CompressedFrameDecoder(new Zlib(), sequence));

        writeInFragments(channel, frames, new Random(3), 300);
        byte[] stream = drainInbound(channel);

        assertThat(stream).hasSize(STREAM_LENGTH);
        assertThat(HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(stream))).isEqualTo(STREAM_SHA256);
        assertThat(countPackets(stream)).as("column count, 2 column definitions, EOF, 400 rows, EOF").isEqualTo(405);
        assertThat(sequence.next()).as("frames 1..3 received").isEqualTo(4);
        assertFalse(channel.finish());
    }

    private static int countPackets(byte[] stream) {
        int count = 0;
        int offset = 0;
        while (offset < stream.length) {
            int length = (stream[offset] & 0xFF) | (stream[offset + 1] & 0xFF) << 8 | (stream[offset + 2] & 0xFF) << 16;
            offset += 4 + length;
            count++;
        }
        assertThat(offset).isEqualTo(stream.length);
        return count;
    }
}
