package io.sluice.broker.handler;

import io.sluice.broker.client.ClientConnection;
import io.sluice.remoting.protocol.body.ConsumeStats;
import io.sluice.broker.meta.MetadataJson;
import io.sluice.broker.meta.SubscriptionGroupConfig;
import io.sluice.broker.meta.TableVersion;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The JSON bodies of the admin requests that have no record in {@code io.sluice.remoting.protocol.body}, built as
 * maps for {@code BodyCodec.encode} (keys sorted on output), field for field as Apache's classes of the same
 * names.
 * <pre>
 * SubscriptionGroupWrapper (201)  {"dataVersion":{"counter":3,"stateVersion":0,"timestamp":1700000000000},
 *                                  "forbiddenTable":{},
 *                                  "subscriptionGroupTable":{"g":{SubscriptionGroupConfig},...}}
 * SubscriptionGroupConfig (200, 352) {"attributes":{},"brokerId":0,"consumeBroadcastEnable":true,...,
 *                                  "groupName":"g","retryMaxTimes":16,"retryQueueNums":1,...}
 * GroupList (300)                 {"groupList":["g1","g2"]}
 * ProducerTableInfo (328)         {"data":{"pg":[{"clientId":"..","language":"JAVA","lastUpdateTimestamp":1,
 *                                  "remoteIP":"127.0.0.1:5000","version":475},...]}}
 * ConsumeStatsList (317)          {"brokerAddr":"127.0.0.1:10911","consumeStatsList":[{"g":[{ConsumeStats},...]}],
 *                                  "totalDiff":12,"totalInflightDiff":0}
 * BrokerStatsData (315)           {"statsDay":{BrokerStatsItem},"statsHour":{..},"statsMinute":{..}}
 * BrokerStatsItem                 {"avgpt":0.0,"sum":120,"tps":2.0}
 * </pre>
 * Stateless; thread-safe.
 */
final class AdminBodyDescriptor {

    private AdminBodyDescriptor() {
    }

    /** SubscriptionGroupWrapper of every group; no group is forbidden anything. */
    static Map<String, Object> groupWrapper(Collection<SubscriptionGroupConfig> groups, TableVersion version) {
        Map<String, Object> table = new TreeMap<>();
        for (SubscriptionGroupConfig group : groups) {
            table.put(group.groupName(), MetadataJson.groupObject(group));
        }
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("dataVersion", version);
        body.put("forbiddenTable", Map.of());
        body.put("subscriptionGroupTable", table);
        return body;
    }

    /** GroupList. */
    static Map<String, Object> groupList(Collection<String> groups) {
        return Map.of("groupList", List.copyOf(groups));
    }

    /** ProducerTableInfo: every online producer group and its members. */
    static Map<String, Object> producerTable(Map<String, List<ClientConnection>> groups) {
        Map<String, Object> data = new TreeMap<>();
        groups.forEach((group, members) -> {
            List<Map<String, Object>> infos = new ArrayList<>(members.size());
            for (ClientConnection m : members) {
                Map<String, Object> info = new LinkedHashMap<>();
                info.put("clientId", m.clientId());
                info.put("remoteIP", m.clientAddr());
                info.put("language", m.language().name());
                info.put("version", m.version());
                info.put("lastUpdateTimestamp", m.lastUpdateMs());
                infos.add(info);
            }
            data.put(group, infos);
        });
        return Map.of("data", data);
    }

    /** ConsumeStatsList: per group, its ConsumeStats per topic. */
    static Map<String, Object> consumeStatsList(String brokerAddr, Map<String, List<ConsumeStats>> groups,
                                                long totalDiff) {
        List<Map<String, List<ConsumeStats>>> list = new ArrayList<>(groups.size());
        groups.forEach((group, stats) -> list.add(Map.of(group, stats)));
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("brokerAddr", brokerAddr);
        body.put("consumeStatsList", list);
        body.put("totalDiff", totalDiff);
        body.put("totalInflightDiff", 0L);
        return body;
    }

    /** BrokerStatsData from its three items. */
    static Map<String, Object> brokerStatsData(Map<String, Object> minute, Map<String, Object> hour,
                                               Map<String, Object> day) {
        return Map.of("statsMinute", minute, "statsHour", hour, "statsDay", day);
    }

    /** BrokerStatsItem; Sluice measures no per-message processing time, so {@code avgpt} is 0. */
    static Map<String, Object> brokerStatsItem(long sum, double tps) {
        return Map.of("sum", sum, "tps", tps, "avgpt", 0.0);
    }
}
