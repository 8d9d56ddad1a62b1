package io.sluice.broker.handler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.broker.meta.TableVersion;
import io.sluice.remoting.protocol.body.BodyCodec;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.rocketmq.remoting.protocol.RemotingSerializable;
import org.apache.rocketmq.remoting.protocol.body.BrokerStatsData;
import org.apache.rocketmq.remoting.protocol.body.ConsumeStatsList;
import org.apache.rocketmq.remoting.protocol.body.GroupList;
import org.apache.rocketmq.remoting.protocol.body.SubscriptionGroupWrapper;
import org.apache.rocketmq.remoting.protocol.subscription.SubscriptionGroupConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The admin bodies, as encoded on the wire, read back by Apache's own classes of the same names. */
@Timeout(value = 10, unit = TimeUnit.SECONDS)
class AdminBodyDescriptorTest {

    @Test
    void shouldBeReadByApachesSubscriptionGroupWrapper() {
        TableVersion version = new TableVersion(0, 1_700_000_000_000L, 3);
        byte[] body = BodyCodec.encode(AdminBodyDescriptor.groupWrapper(List.of(
                io.sluice.broker.meta.SubscriptionGroupConfig.defaults("g1"),
                io.sluice.broker.meta.SubscriptionGroupConfig.defaults("g2")), version));
        SubscriptionGroupWrapper wrapper = RemotingSerializable.decode(body, SubscriptionGroupWrapper.class);
        assertEquals(3, wrapper.getDataVersion().getCounter().get());
        assertEquals(1_700_000_000_000L, wrapper.getDataVersion().getTimestamp());
        assertEquals(Set.of("g1", "g2"), wrapper.getSubscriptionGroupTable().keySet());
        SubscriptionGroupConfig g1 = wrapper.getSubscriptionGroupTable().get("g1");
        assertEquals("g1", g1.getGroupName());
        assertTrue(g1.isConsumeEnable());
    }

    @Test
    void shouldBeReadByApachesGroupListAndConsumeStatsList() {
        GroupList groups = RemotingSerializable.decode(
                BodyCodec.encode(AdminBodyDescriptor.groupList(List.of("g1", "g2"))), GroupList.class);
        assertEquals(Set.of("g1", "g2"), groups.getGroupList());

        ConsumeStatsList stats = RemotingSerializable.decode(BodyCodec.encode(
                AdminBodyDescriptor.consumeStatsList("127.0.0.1:10911", new LinkedHashMap<>(), 12)),
                ConsumeStatsList.class);
        assertEquals("127.0.0.1:10911", stats.getBrokerAddr());
        assertEquals(12, stats.getTotalDiff());
        assertTrue(stats.getConsumeStatsList().isEmpty());
    }

    @Test
    void shouldBeReadByApachesBrokerStatsData() {
        Map<String, Object> minute = AdminBodyDescriptor.brokerStatsItem(120, 2.0);
        Map<String, Object> hour = AdminBodyDescriptor.brokerStatsItem(7_200, 2.0);
        Map<String, Object> day = AdminBodyDescriptor.brokerStatsItem(172_800, 2.0);
        BrokerStatsData data = RemotingSerializable.decode(
                BodyCodec.encode(AdminBodyDescriptor.brokerStatsData(minute, hour, day)), BrokerStatsData.class);
        assertEquals(120, data.getStatsMinute().getSum());
        assertEquals(2.0, data.getStatsMinute().getTps());
        assertEquals(7_200, data.getStatsHour().getSum());
        assertEquals(172_800, data.getStatsDay().getSum());
        assertEquals(0.0, data.getStatsDay().getAvgpt());
    }
}
