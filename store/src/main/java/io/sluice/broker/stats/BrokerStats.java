package io.sluice.broker.stats;

import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalLong;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongSupplier;
import org.agrona.concurrent.EpochClock;

/**
 * Message counters and rates of the broker, as the admin requests report them.
 *
 * <ul>
 *   <li>Puts: the running total comes from the store ({@code storedMessages}, every message it stored); per topic,
 *       the send path calls {@link #onPut} after a stored append.</li>
 *   <li>Gets: the pull path calls {@link #onPull} for every answered pull: it adds the messages returned (total,
 *       and per group and topic) and remembers the pull's next begin offset per (group, topic, queue) — the
 *       {@code pullOffset} of GET_CONSUME_STATS.</li>
 *   <li>Rates: {@link #sample} must run once a second (the composition root schedules it); the broker-wide rates
 *       cover 10 s, 60 s and 600 s, per-topic and per-group rates 10 s and 60 s. At the first sample of a new day (in
 *       {@code zone}) the totals of "this morning" and "yesterday morning" move on, as Apache's
 *       {@code msgPutTotalTodayMorning} and friends do.</li>
 * </ul>
 *
 * <p>Thread-safe: the {@code on*} methods are lock-free (striped adders and a concurrent map) and are called by
 * any number of send and pull threads; {@link #sample} runs on one scheduler thread; readers run on admin threads.
 * Per-topic and per-group entries are created on first use and kept. Owned by the broker's composition root.
 */
public final class BrokerStats {

    /** Samples kept for the broker-wide rates: 600 s at one a second, plus the newest. */
    private static final int BROKER_SAMPLES = 601;
    /** Samples kept for per-topic and per-group rates: 60 s at one a second, plus the newest. */
    private static final int KEY_SAMPLES = 61;
    /** The per-key window of VIEW_BROKER_STATS_DATA's minute figures. */
    private static final long MINUTE_MS = 60_000;
    private static final long[] BROKER_WINDOWS_MS = {10_000, 60_000, 600_000};
    private static final long KEY_WINDOW_MS = 10_000;

    private final LongSupplier storedMessages;
    private final EpochClock clock;
    private final ZoneId zone;
    private final LongAdder gotMessages = new LongAdder();
    private final RateSampler putRate = new RateSampler(BROKER_SAMPLES);
    private final RateSampler getRate = new RateSampler(BROKER_SAMPLES);
    private final ConcurrentHashMap<String, KeyCounter> topicPuts = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<GroupTopic, KeyCounter> groupGets = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<PullKey, Long> pullOffsets = new ConcurrentHashMap<>();
    /** Day bookkeeping; guarded by this object's monitor (held by {@link #sample} and the day readers). */
    private LocalDate today;
    private long putTodayMorning;
    private long putYesterdayMorning;
    private long getTodayMorning;
    private long getYesterdayMorning;

    /**
     * @param storedMessages the store's running count of stored messages
     * @param clock          sample times and day changes
     * @param zone           where days start
     */
    public BrokerStats(LongSupplier storedMessages, EpochClock clock, ZoneId zone) {
        this.storedMessages = storedMessages;
        this.clock = clock;
        this.zone = zone;
        long putNow = storedMessages.getAsLong();
        this.today = dayOf(clock.time());
        this.putTodayMorning = putNow;
        this.putYesterdayMorning = putNow;
    }

    // ------------------------------------------------------------------------------------------------ events

    /** The send path stored {@code messages} messages in {@code topic}. */
    public void onPut(String topic, int messages) {
        topicPuts.computeIfAbsent(topic, t -> new KeyCounter()).total.add(messages);
    }

    /**
     * The pull path answered a pull of {@code group} on ({@code topic}, {@code queueId}) with {@code messages}
     * messages (0 when nothing was found) and told the consumer to continue at {@code nextBeginOffset}.
     */
    public void onPull(String group, String topic, int queueId, int messages, long nextBeginOffset) {
        if (messages > 0) {
            gotMessages.add(messages);
            groupGets.computeIfAbsent(new GroupTopic(group, topic), k -> new KeyCounter()).total.add(messages);
        }
        pullOffsets.put(new PullKey(group, topic, queueId), nextBeginOffset);
    }

    /** Takes one rate sample of every counter. Call once a second from one thread. */
    public void sample() {
        long nowMs = clock.time();
        long putTotal = storedMessages.getAsLong();
        long getTotal = gotMessages.sum();
        putRate.sample(nowMs, putTotal);
        getRate.sample(nowMs, getTotal);
        topicPuts.values().forEach(c -> c.rate.sample(nowMs, c.total.sum()));
        groupGets.values().forEach(c -> c.rate.sample(nowMs, c.total.sum()));
        LocalDate day = dayOf(nowMs);
        synchronized (this) {
            if (day.isAfter(today)) {
                boolean consecutive = day.equals(today.plusDays(1));
                putYesterdayMorning = consecutive ? putTodayMorning : putTotal;
                getYesterdayMorning = consecutive ? getTodayMorning : getTotal;
                putTodayMorning = putTotal;
                getTodayMorning = getTotal;
                today = day;
            }
        }
    }

    // ------------------------------------------------------------------------------------------------ reads

    /** Messages stored since the store opened. */
    public long putTotal() {
        return storedMessages.getAsLong();
    }

    /** Messages returned by pulls since the broker started. */
    public long getTotal() {
        return gotMessages.sum();
    }

    /** Put rates over 10 s, 60 s and 600 s, messages per second, {@code "%.2f %.2f %.2f"} (Apache's putTps). */
    public String putTps() {
        return rates(putRate);
    }

    /** Get rates over 10 s, 60 s and 600 s, formatted like {@link #putTps} (Apache's getTransferredTps). */
    public String getTransferredTps() {
        return rates(getRate);
    }

    /** Messages per second put into {@code topic} over the last 10 s. */
    public double topicPutTps(String topic) {
        KeyCounter c = topicPuts.get(topic);
        return c == null ? 0 : c.rate.perSecond(KEY_WINDOW_MS);
    }

    /** Messages per second pulled by {@code group} from {@code topic} over the last 10 s. */
    public double consumeTps(String group, String topic) {
        KeyCounter c = groupGets.get(new GroupTopic(group, topic));
        return c == null ? 0 : c.rate.perSecond(KEY_WINDOW_MS);
    }

    /** Messages put into {@code topic} since the broker started. */
    public long topicPutTotal(String topic) {
        KeyCounter c = topicPuts.get(topic);
        return c == null ? 0 : c.total.sum();
    }

    /** Messages put into {@code topic} per second over the last minute. */
    public double topicPutTpsMinute(String topic) {
        KeyCounter c = topicPuts.get(topic);
        return c == null ? 0 : c.rate.perSecond(MINUTE_MS);
    }

    /** Messages pulled by {@code group} from {@code topic} since the broker started. */
    public long consumeTotal(String group, String topic) {
        KeyCounter c = groupGets.get(new GroupTopic(group, topic));
        return c == null ? 0 : c.total.sum();
    }

    /** Messages pulled by {@code group} from {@code topic} per second over the last minute. */
    public double consumeTpsMinute(String group, String topic) {
        KeyCounter c = groupGets.get(new GroupTopic(group, topic));
        return c == null ? 0 : c.rate.perSecond(MINUTE_MS);
    }

    /** Running put totals per topic since the broker started; a fresh map, read at call time. */
    public Map<String, Long> topicPutTotals() {
        Map<String, Long> totals = new TreeMap<>();
        topicPuts.forEach((topic, c) -> totals.put(topic, c.total.sum()));
        return totals;
    }

    /**
     * Running get totals per group and topic since the broker started: {@code group -> topic -> messages}; a fresh
     * map, read at call time.
     */
    public Map<String, Map<String, Long>> consumeTotals() {
        Map<String, Map<String, Long>> totals = new TreeMap<>();
        groupGets.forEach((k, c) -> totals.computeIfAbsent(k.group(), g -> new TreeMap<>())
                .put(k.topic(), c.total.sum()));
        return totals;
    }

    /** The next begin offset of the last pull of {@code group} on the queue, or empty. */
    public OptionalLong pullOffset(String group, String topic, int queueId) {
        Long offset = pullOffsets.get(new PullKey(group, topic, queueId));
        return offset == null ? OptionalLong.empty() : OptionalLong.of(offset);
    }

    /** Put total at the start of today (as of the last sample), or at broker start if that was later. */
    public synchronized long putTotalTodayMorning() {
        return putTodayMorning;
    }

    /** Put total at the start of yesterday, or at broker start if that was later. */
    public synchronized long putTotalYesterdayMorning() {
        return putYesterdayMorning;
    }

    /** Get total at the start of today, or at broker start if that was later. */
    public synchronized long getTotalTodayMorning() {
        return getTodayMorning;
    }

    /** Get total at the start of yesterday, or at broker start if that was later. */
    public synchronized long getTotalYesterdayMorning() {
        return getYesterdayMorning;
    }

    private static String rates(RateSampler sampler) {
        StringBuilder sb = new StringBuilder();
        for (long windowMs : BROKER_WINDOWS_MS) {
            if (sb.length() > 0) {
                sb.append(' ');
            }
            sb.append(String.format(Locale.ROOT, "%.2f", sampler.perSecond(windowMs)));
        }
        return sb.toString();
    }

    private LocalDate dayOf(long epochMs) {
        return LocalDate.ofInstant(Instant.ofEpochMilli(epochMs), zone);
    }

    /** A running total and its rate samples. */
    private static final class KeyCounter {
        final LongAdder total = new LongAdder();
        final RateSampler rate = new RateSampler(KEY_SAMPLES);
    }

    private record GroupTopic(String group, String topic) {
    }

    private record PullKey(String group, String topic, int queueId) {
    }
}
