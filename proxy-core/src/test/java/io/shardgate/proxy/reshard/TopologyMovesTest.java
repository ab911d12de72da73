package io.shardgate.proxy.reshard;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.shardgate.proxy.jobs.ReshardSpec;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class TopologyMovesTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    private static ObjectNode shards(String s1Range) throws Exception {
        return (ObjectNode) JSON.readTree("""
                {"shards": [{"name": "s0", "key_range": "-80"}, {"name": "s1", "key_range": "%s"},
                            {"name": "s2", "key_range": "none"}, {"name": "s3", "key_range": "none"}]}
                """.formatted(s1Range));
    }

    private static ReshardSpec split(String a, String b) {
        return new ReshardSpec("s1", List.of(new ReshardSpec.Target("s3", "127.0.0.1:2", List.of(), "innodb", b),
                new ReshardSpec.Target("s2", "127.0.0.1:1", List.of(), "innodb", a)));
    }

    @Test
    void aReverseGivesTheSourceTheJoinedRangesOfItsTargetsBackAndTheTargetsNone() throws Exception {
        ReshardSpec spec = split("80-c0", "c0-");
        ObjectNode tree = shards("80-");
        ObjectNode original = tree.deepCopy();
        TopologyMoves.giveKeys(tree, spec);
        assertThat(tree.at("/shards/1/key_range").asText()).isEqualTo("none");
        assertThat(tree.at("/shards/2/key_range").asText()).isEqualTo("80-c0");
        TopologyMoves.takeKeysBack(tree, spec);
        assertThat(tree).isEqualTo(original);
    }

    @Test
    void boundedRangesJoinToTheirOuterBounds() throws Exception {
        ReshardSpec spec = split("40-60", "60-80");
        ObjectNode tree = shards("40-80");
        TopologyMoves.takeKeysBack(tree, spec);
        assertThat(tree.at("/shards/1/key_range").asText()).isEqualTo("40-80");
        assertThat(tree.at("/shards/2/key_range").asText()).isEqualTo("none");
        assertThat(tree.at("/shards/3/key_range").asText()).isEqualTo("none");
        assertThat(tree.at("/shards/0/key_range").asText()).as("other shards unchanged").isEqualTo("-80");
    }

    @Test
    void aReverseStreamNamespaceIsShortAndPlain() {
        assertThat(AfterSwitch.namespace("reshard-20261126-1910-ab12", "s2")).isEqualTo("rev_reshard_20261126_1910_ab12_s2");
        String longer = AfterSwitch.namespace("reshard-20261126-1910-ab12", "a-very-long-target-shard-name-indeed");
        assertThat(longer).hasSizeLessThanOrEqualTo(40).matches("[a-z0-9_]+");
        assertThat(longer).isNotEqualTo(AfterSwitch.namespace("reshard-20261126-1910-ab12", "a-very-long-target-shard-name-indeed2"));
    }
}
