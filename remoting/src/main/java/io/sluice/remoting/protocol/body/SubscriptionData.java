package io.sluice.remoting.protocol.body;

import java.util.Set;

/**
 * One topic subscription of a consumer group, as sent in heartbeats and returned in consumer connections:
 * <pre>
 * {"classFilterMode":false,"codeSet":[2598921],"expressionType":"TAG","subString":"TagB || TagC",
 *  "subVersion":1795250930484,"tagsSet":["TagB","TagC"],"topic":"T"}
 * </pre>
 *
 * @param topic the subscribed topic
 * @param subString the expression: {@code *}, {@code TagA || TagB}, or an SQL92 filter
 * @param tagsSet the tags of a TAG expression; never null
 * @param codeSet {@code String.hashCode()} of each tag; never null
 * @param subVersion version of the subscription (epoch ms when it was last changed)
 * @param expressionType {@code TAG} (assumed when absent) or {@code SQL92}
 * @param classFilterMode legacy class-filter flag, false in practice
 */
public record SubscriptionData(
        String topic,
        String subString,
        Set<String> tagsSet,
        Set<Integer> codeSet,
        long subVersion,
        String expressionType,
        boolean classFilterMode) {

    /** The expression type of tag subscriptions. */
    public static final String EXPRESSION_TYPE_TAG = "TAG";

    /** The expression matching every tag. */
    public static final String SUB_ALL = "*";

    /** Validates the topic and normalises absent members. */
    public SubscriptionData {
        Copies.required(topic, "topic");
        subString = subString == null ? SUB_ALL : subString;
        tagsSet = Copies.set(tagsSet, "tagsSet");
        codeSet = Copies.set(codeSet, "codeSet");
        expressionType = expressionType == null ? EXPRESSION_TYPE_TAG : expressionType;
    }
}
