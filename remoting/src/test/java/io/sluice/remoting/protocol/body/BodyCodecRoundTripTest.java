package io.sluice.remoting.protocol.body;

import io.sluice.format.TopicFilterType;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/** Every body survives encode then decode unchanged, whatever text its names hold. */
class BodyCodecRoundTripTest {

    /** Names as brokers use them, and any text UTF-8 can carry: controls, escapes, astral characters. */
    private static Arbitrary<String> names() {
        Arbitrary<Integer> codePoints = Arbitraries.oneOf(
                Arbitraries.integers().between(0, 0x7F),
                Arbitraries.integers().between(0x80, 0xD7FF),
                Arbitraries.integers().between(0xE000, 0x10FFFF));
        return Arbitraries.oneOf(
                Arbitraries.strings().alpha().numeric().withChars("%-_.|:@").ofMinLength(1).ofMaxLength(20),
                codePoints.list().ofMinSize(1).ofMaxSize(8).map(points -> points.stream()
                        .collect(StringBuilder::new, StringBuilder::appendCodePoint, StringBuilder::append)
                        .toString()));
    }

    private static Arbitrary<BrokerData> brokerDatas() {
        Arbitrary<Map<Long, String>> addrs = Arbitraries.maps(Arbitraries.longs().between(0, 16), names())
                .ofMaxSize(3);
        return Combinators.combine(names(), names(), addrs, Arbitraries.of(true, false)).as(BrokerData::new);
    }

    private static Arbitrary<QueueData> queueDatas() {
        Arbitrary<Integer> nums = Arbitraries.integers().between(0, 1024);
        return Combinators.combine(names(), nums, nums, Arbitraries.integers().between(0, 15), nums)
                .as(QueueData::new);
    }

    private static Arbitrary<MessageQueue> queues() {
        return Combinators.combine(names(), names(), Arbitraries.integers().between(0, 1024)).as(MessageQueue::new);
    }

    private static Arbitrary<Double> rates() {
        return Arbitraries.doubles().between(0, 1_000_000).ofScale(3);
    }

    @Provide
    Arbitrary<TopicRouteData> routes() {
        Arbitrary<Map<String, List<String>>> filters = Arbitraries.maps(names(), names().list().ofMaxSize(2))
                .ofMaxSize(2);
        return Combinators.combine(brokerDatas().list().ofMaxSize(4), queueDatas().list().ofMaxSize(4), filters,
                names().injectNull(0.5)).as(TopicRouteData::new);
    }

    @Provide
    Arbitrary<ClusterInfo> clusters() {
        return Combinators.combine(
                Arbitraries.maps(names(), brokerDatas()).ofMaxSize(4),
                Arbitraries.maps(names(), names().set().ofMaxSize(3)).ofMaxSize(3)).as(ClusterInfo::new);
    }

    @Provide
    Arbitrary<TopicStatsTable> topicStats() {
        Arbitrary<Long> offsets = Arbitraries.longs().between(0, Long.MAX_VALUE);
        Arbitrary<TopicOffset> ranges = Combinators.combine(offsets, offsets, offsets).as(TopicOffset::new);
        return Combinators.combine(Arbitraries.maps(queues(), ranges).ofMaxSize(8), rates()).as(TopicStatsTable::new);
    }

    @Provide
    Arbitrary<ConsumeStats> consumeStats() {
        Arbitrary<Long> offsets = Arbitraries.longs().between(0, Long.MAX_VALUE);
        Arbitrary<OffsetWrapper> progress = Combinators.combine(offsets, offsets, offsets, offsets)
                .as(OffsetWrapper::new);
        return Combinators.combine(Arbitraries.maps(queues(), progress).ofMaxSize(8), rates()).as(ConsumeStats::new);
    }

    @Provide
    Arbitrary<HeartbeatData> heartbeats() {
        Arbitrary<SubscriptionData> subscriptions = Combinators.combine(names(), names(), names().set().ofMaxSize(3),
                Arbitraries.integers().set().ofMaxSize(3), Arbitraries.longs(), Arbitraries.of("TAG", "SQL92"),
                Arbitraries.of(true, false)).as(SubscriptionData::new);
        Arbitrary<ConsumerData> consumers = Combinators.combine(names(), Arbitraries.of(ConsumeType.class),
                Arbitraries.of(MessageModel.class), Arbitraries.of(ConsumeFromWhere.class),
                subscriptions.set().ofMaxSize(3), Arbitraries.of(true, false)).as(ConsumerData::new);
        return Combinators.combine(names(), names().map(ProducerData::new).set().ofMaxSize(3),
                consumers.set().ofMaxSize(3), Arbitraries.integers(), Arbitraries.of(true, false))
                .as(HeartbeatData::new);
    }

    @Provide
    Arbitrary<RegisterBrokerBody> registrations() {
        Arbitrary<DataVersion> versions = Combinators.combine(Arbitraries.longs(), Arbitraries.longs(),
                Arbitraries.longs()).as(DataVersion::new);
        Arbitrary<TopicConfigWire> configs = Combinators.combine(names(), Arbitraries.integers().between(0, 64),
                Arbitraries.integers().between(0, 64), Arbitraries.integers().between(0, 15),
                Arbitraries.of(TopicFilterType.class), Arbitraries.integers().between(0, 3),
                Arbitraries.of(true, false), Arbitraries.maps(names(), names()).ofMaxSize(2))
                .as(TopicConfigWire::new);
        Arbitrary<Map<String, TopicConfigWire>> tables = configs.list().ofMaxSize(5)
                .map(list -> list.stream().collect(java.util.stream.Collectors.toMap(
                        TopicConfigWire::topicName, c -> c, (a, b) -> a)));
        return Combinators.combine(versions, tables, names().list().ofMaxSize(2))
                .as((version, table, filters) -> new RegisterBrokerBody(
                        TopicConfigSerializeWrapper.of(version, table), filters));
    }

    @Property(tries = 150)
    void routesRoundTrip(@ForAll("routes") TopicRouteData route) {
        assertEquals(route, BodyCodec.decode(BodyCodec.encode(route), TopicRouteData.class));
    }

    @Property(tries = 150)
    void clusterInfoRoundTrips(@ForAll("clusters") ClusterInfo info) {
        assertEquals(info, BodyCodec.decode(BodyCodec.encode(info), ClusterInfo.class));
    }

    @Property(tries = 150)
    void topicStatsRoundTrip(@ForAll("topicStats") TopicStatsTable stats) {
        assertEquals(stats, BodyCodec.decode(BodyCodec.encode(stats), TopicStatsTable.class));
    }

    @Property(tries = 150)
    void consumeStatsRoundTrip(@ForAll("consumeStats") ConsumeStats stats) {
        assertEquals(stats, BodyCodec.decode(BodyCodec.encode(stats), ConsumeStats.class));
    }

    @Property(tries = 150)
    void heartbeatsRoundTrip(@ForAll("heartbeats") HeartbeatData heartbeat) {
        assertEquals(heartbeat, BodyCodec.decode(BodyCodec.encode(heartbeat), HeartbeatData.class));
    }

    @Property(tries = 150)
    void registrationsRoundTrip(@ForAll("registrations") RegisterBrokerBody body) {
        assertEquals(body, BodyCodec.decode(BodyCodec.encode(body), RegisterBrokerBody.class));
    }
}
