package io.sluice.client.internal;

import io.sluice.remoting.protocol.body.BrokerData;
import io.sluice.remoting.protocol.body.QueueData;
import io.sluice.remoting.protocol.body.TopicRouteData;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Routes for tests: brokers {@code broker-0..n-1} at {@code 10.0.0.i:10911}, each with the same queue count. */
final class TestRoutes {

    private TestRoutes() {
    }

    static TopicRoute route(String topic, int brokers, int queuesPerBroker) {
        List<BrokerData> brokerDatas = new ArrayList<>();
        List<QueueData> queueDatas = new ArrayList<>();
        for (int i = 0; i < brokers; i++) {
            String name = "broker-" + i;
            brokerDatas.add(new BrokerData("C", name, Map.of(0L, address(i)), false));
            queueDatas.add(new QueueData(name, queuesPerBroker, queuesPerBroker, 6, 0));
        }
        return TopicRoute.of(topic, TopicRouteData.of(brokerDatas, queueDatas));
    }

    static String address(int broker) {
        return "10.0.0." + broker + ":10911";
    }
}
