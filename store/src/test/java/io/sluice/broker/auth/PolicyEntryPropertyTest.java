package io.sluice.broker.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.List;
import java.util.Set;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A policy entry's source networks contain exactly the addresses sharing the network's first prefix bits, its
 * actions and resource narrow what it speaks about, and a source that is not an IP literal is refused when the
 * entry is made (never looked up in DNS).
 */
class PolicyEntryPropertyTest {

    private static final Resource ORDERS = Resource.topic("orders");

    @Property(tries = 1_000)
    void anIpv4NetworkContainsExactlyTheAddressesSharingItsPrefix(@ForAll int network, @ForAll int candidate,
                                                                  @ForAll @IntRange(min = 0, max = 32) int bits)
            throws UnknownHostException {
        PolicyEntry entry = new PolicyEntry(ResourcePattern.ANY, Set.of(Action.ALL),
                List.of(dotted(network) + "/" + bits), Decision.ALLOW);
        long mask = bits == 0 ? 0 : 0xFFFFFFFFL << (32 - bits) & 0xFFFFFFFFL;
        boolean expected = (network & mask) == (candidate & mask);
        assertEquals(expected, entry.covers(ORDERS, Set.of(Action.PUB), ipv4(candidate)),
                dotted(candidate) + " in " + dotted(network) + "/" + bits);
    }

    @Property(tries = 300)
    void aSingleAddressCoversOnlyItself(@ForAll int address, @ForAll int other) throws UnknownHostException {
        PolicyEntry entry = new PolicyEntry(ResourcePattern.ANY, Set.of(Action.SUB), List.of(dotted(address)),
                Decision.DENY);
        assertTrue(entry.covers(ORDERS, Set.of(Action.SUB), ipv4(address)));
        assertEquals(address == other, entry.covers(ORDERS, Set.of(Action.SUB), ipv4(other)));
    }

    @Test
    @Timeout(10)
    void anIpv6NetworkNeverContainsAnIpv4AddressAndKeepsItsPrefix() throws UnknownHostException {
        PolicyEntry entry = new PolicyEntry(ResourcePattern.ANY, Set.of(Action.ALL), List.of("fd00:1::/32"),
                Decision.ALLOW);
        assertTrue(entry.covers(ORDERS, Set.of(Action.GET), InetAddress.getByName("fd00:1:ffff::9")));
        assertFalse(entry.covers(ORDERS, Set.of(Action.GET), InetAddress.getByName("fd00:2::9")));
        assertFalse(entry.covers(ORDERS, Set.of(Action.GET), InetAddress.getByName("10.0.0.1")));
        PolicyEntry loopback = new PolicyEntry(ResourcePattern.ANY, Set.of(Action.ALL), List.of("::1"),
                Decision.ALLOW);
        assertTrue(loopback.covers(ORDERS, Set.of(Action.GET), InetAddress.getByName("::1")));
        assertFalse(loopback.covers(ORDERS, Set.of(Action.GET), InetAddress.getByName("::2")));
    }

    @Test
    @Timeout(10)
    void noSourcesCoverEveryAddress() throws UnknownHostException {
        PolicyEntry entry = new PolicyEntry(ResourcePattern.ANY, Set.of(Action.PUB), List.of(), Decision.ALLOW);
        assertTrue(entry.covers(ORDERS, Set.of(Action.PUB), InetAddress.getByName("192.0.2.7")));
        assertTrue(entry.covers(ORDERS, Set.of(Action.PUB), InetAddress.getByName("2001:db8::7")));
    }

    @Test
    @Timeout(10)
    void actionsNarrowTheEntryUnlessItCoversAll() throws UnknownHostException {
        InetAddress from = InetAddress.getByName("127.0.0.1");
        PolicyEntry pubOnly = new PolicyEntry(ResourcePattern.ANY, Set.of(Action.PUB), List.of(), Decision.ALLOW);
        assertTrue(pubOnly.covers(ORDERS, Set.of(Action.PUB), from));
        assertTrue(pubOnly.covers(ORDERS, Set.of(Action.SUB, Action.PUB), from), "any wanted action is enough");
        assertFalse(pubOnly.covers(ORDERS, Set.of(Action.SUB), from));
        assertFalse(pubOnly.covers(ORDERS, Set.of(), from), "nothing wanted, nothing spoken about");
        PolicyEntry all = new PolicyEntry(ResourcePattern.ANY, Set.of(Action.ALL), List.of(), Decision.ALLOW);
        assertTrue(all.covers(ORDERS, Set.of(Action.DELETE), from));
    }

    @Test
    @Timeout(10)
    void theResourceNarrowsTheEntry() throws UnknownHostException {
        InetAddress from = InetAddress.getByName("127.0.0.1");
        PolicyEntry entry = new PolicyEntry(ResourcePattern.parse("Topic:ord*"), Set.of(Action.PUB), List.of(),
                Decision.ALLOW);
        assertTrue(entry.covers(ORDERS, Set.of(Action.PUB), from));
        assertFalse(entry.covers(Resource.topic("payments"), Set.of(Action.PUB), from));
        assertFalse(entry.covers(Resource.group("orders"), Set.of(Action.PUB), from), "a group is not a topic");
    }

    @Test
    @Timeout(10)
    void sourcesThatAreNotIpLiteralsAreRefused() {
        for (String bad : List.of("", "localhost", "broker-1", "cafe.be", "dead.beef", "10.1", "10.0.1",
                "1.2.3.4.5", "256.1.1.1", "10.0.0.0/33", "10.0.0.0/-1", "10.0.0.0/", "10.0.0.0/x", "fd00::/129",
                "1.2.3.4 5", "0x7f.0.0.1")) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> new PolicyEntry(ResourcePattern.ANY, Set.of(Action.ALL), List.of(bad), Decision.ALLOW),
                    "'" + bad + "'");
            assertTrue(e.getMessage().contains("'" + bad + "'"), e.getMessage());
        }
    }

    @Test
    @Timeout(10)
    void sourcesAreTrimmedAndEveryValidFormIsAccepted() throws UnknownHostException {
        PolicyEntry entry = new PolicyEntry(ResourcePattern.ANY, Set.of(Action.ALL),
                List.of(" 10.0.0.0/8 ", "192.168.1.1", "::ffff:172.16.0.1", "0.0.0.0/0"), Decision.ALLOW);
        assertTrue(entry.covers(ORDERS, Set.of(Action.PUB), InetAddress.getByName("8.8.8.8")), "0.0.0.0/0");
        assertEquals(List.of(" 10.0.0.0/8 ", "192.168.1.1", "::ffff:172.16.0.1", "0.0.0.0/0"), entry.sourceIps(),
                "the sources are kept as written, for the policy's listing");
    }

    @Test
    @Timeout(10)
    void anEntryNeedsAnActionAndIsEqualByValue() {
        assertThrows(IllegalArgumentException.class,
                () -> new PolicyEntry(ResourcePattern.ANY, Set.of(), List.of(), Decision.ALLOW));
        PolicyEntry one = new PolicyEntry(ResourcePattern.parse("Group:g"), Set.of(Action.SUB, Action.GET),
                List.of("10.0.0.1"), Decision.DENY);
        PolicyEntry same = new PolicyEntry(ResourcePattern.parse("Group:g"), Set.of(Action.GET, Action.SUB),
                List.of("10.0.0.1"), Decision.DENY);
        assertEquals(one, same);
        assertEquals(one.hashCode(), same.hashCode());
        assertNotEquals(one, new PolicyEntry(ResourcePattern.parse("Group:g"), Set.of(Action.SUB, Action.GET),
                List.of("10.0.0.1"), Decision.ALLOW));
        assertTrue(one.toString().startsWith("Deny ") && one.toString().endsWith(" on Group:g from [10.0.0.1]"),
                one.toString());
    }

    @Property(tries = 500)
    void aPatternPrintsAsItParsesAndMatchesByPrefixOrLiteral(@ForAll("names") String name,
                                                             @ForAll("names") String candidate,
                                                             @ForAll boolean prefixed,
                                                             @ForAll ResourceType type) {
        String text = type.text() + ":" + name + (prefixed ? "*" : "");
        ResourcePattern pattern = ResourcePattern.parse(text);
        assertEquals(text, pattern.toString());
        String lowerCaseType = type.text().toLowerCase() + text.substring(type.text().length());
        assertEquals(pattern, ResourcePattern.parse(" " + lowerCaseType + " "), "the type in any case, the text trimmed");
        boolean expected = prefixed ? candidate.startsWith(name) : candidate.equals(name);
        assertEquals(expected, pattern.matches(new Resource(type, candidate)));
        for (ResourceType otherType : ResourceType.values()) {
            if (otherType != type) {
                assertFalse(pattern.matches(new Resource(otherType, candidate)));
            }
        }
        assertTrue(ResourcePattern.parse("*").matches(new Resource(type, candidate)));
    }

    @Provide
    Arbitrary<String> names() {
        return Arbitraries.strings().withChars("ab-_").ofMinLength(1).ofMaxLength(4);
    }

    @Test
    @Timeout(10)
    void narrowerPatternsAreMoreSpecific() {
        int any = ResourcePattern.parse("*").specificity();
        int everyTopic = ResourcePattern.parse("Topic:*").specificity();
        int shortPrefix = ResourcePattern.parse("Topic:o*").specificity();
        int longPrefix = ResourcePattern.parse("Topic:ord*").specificity();
        int literal = ResourcePattern.parse("Topic:o").specificity();
        assertTrue(any < everyTopic && everyTopic < shortPrefix && shortPrefix < longPrefix
                && longPrefix < literal, List.of(any, everyTopic, shortPrefix, longPrefix, literal).toString());
    }

    @Test
    @Timeout(10)
    void malformedPatternsAreRefusedNamingTheText() {
        for (String bad : new String[] {"", "Topic", "Topic:", ":orders", "Queue:orders", "Topic:a*b", "Topic:**",
                "**"}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> ResourcePattern.parse(bad), bad);
            assertTrue(e.getMessage().endsWith("was '" + bad + "'"), e.getMessage());
        }
        assertThrows(IllegalArgumentException.class, () -> ResourcePattern.parse(null));
    }

    @Test
    @Timeout(10)
    void retryAndDeadLetterTopicsStandForTheirGroup() {
        assertEquals(Resource.group("g1"), Resource.topicOrItsGroup("%RETRY%g1"));
        assertEquals(Resource.group("g1"), Resource.topicOrItsGroup("%DLQ%g1"));
        assertEquals(Resource.topic("orders"), Resource.topicOrItsGroup("orders"));
        assertEquals("Group:g1", Resource.topicOrItsGroup("%RETRY%g1").toString());
    }

    private static String dotted(int address) {
        return (address >>> 24) + "." + (address >>> 16 & 0xFF) + "." + (address >>> 8 & 0xFF) + "." + (address & 0xFF);
    }

    private static InetAddress ipv4(int address) throws UnknownHostException {
        return InetAddress.getByAddress(new byte[] {(byte) (address >>> 24), (byte) (address >>> 16),
            (byte) (address >>> 8), (byte) address});
    }
}
