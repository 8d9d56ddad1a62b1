package io.sluice.broker.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.broker.testing.FakeConnection;
import io.sluice.remoting.protocol.RemotingCommand;
import io.sluice.remoting.protocol.RequestCode;
import io.sluice.remoting.protocol.RequestSignature;
import io.sluice.remoting.protocol.ResponseCode;
import io.sluice.remoting.transport.GateVerdict;
import java.io.IOException;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.AlphaChars;
import net.jqwik.api.constraints.StringLength;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The gate's decisions, its persistence, and a fuzz of the authentication path that must let nothing through. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class AccessGateTest {

    private static final FakeConnection CONNECTION = new FakeConnection(40000);

    @TempDir
    Path dir;

    private AuthStore store() throws IOException {
        AuthStore store = AuthStore.open(dir, Optional.of(new User("root", "root-secret", UserType.SUPER)));
        store.putUser(new User("alice", "alice-secret", UserType.NORMAL));
        return store;
    }

    private static PolicyEntry entry(String resource, Decision decision, Action... actions) {
        return new PolicyEntry(ResourcePattern.parse(resource), EnumSet.copyOf(List.of(actions)), List.of(),
                decision);
    }

    private static RemotingCommand send(String topic, String user, String secret) {
        return signed(RemotingCommand.request(RequestCode.SEND_MESSAGE_V2).putExtField("a", "pg")
                .putExtField("b", topic).putExtField("e", "0").setBody("body".getBytes()), user, secret);
    }

    private static RemotingCommand signed(RemotingCommand request, String user, String secret) {
        request.putExtField(RequestSignature.ACCESS_KEY, user);
        request.putExtField(RequestSignature.SIGNATURE, RequestSignature.sign(request, secret));
        return request;
    }

    private static RemotingCommand tampered(RemotingCommand signed) {
        return signed.setBody("changed after signing".getBytes());
    }

    @Test
    void statefulTrustsAConnectionsVerifiedUserUntilTheUserChanges() throws IOException {
        AuthStore store = store();
        AccessGate gate = new AccessGate(store, "c1", true, false, AuthenticationStrategy.STATEFUL, 60, 100);
        FakeConnection first = new FakeConnection(40001);
        FakeConnection second = new FakeConnection(40002);
        assertFalse(gate.check(first, tampered(send("T", "alice", "alice-secret"))).passed(),
                "a connection's first request is verified");
        assertTrue(gate.check(first, send("T", "alice", "alice-secret")).passed());
        assertTrue(gate.check(first, tampered(send("T", "alice", "alice-secret"))).passed(),
                "later requests of the verified user on that connection are not");
        assertEquals(1, gate.signaturesSkipped());
        assertFalse(gate.check(second, tampered(send("T", "alice", "alice-secret"))).passed(),
                "another connection is verified on its own");
        assertFalse(gate.check(first, tampered(send("T", "root", "root-secret"))).passed(),
                "another user on the same connection is verified");
        assertTrue(gate.check(first, send("T", "alice", "alice-secret")).passed());
        store.putUser(new User("alice", "new-secret", UserType.NORMAL));
        assertFalse(gate.check(first, send("T", "alice", "alice-secret")).passed(),
                "a changed user signs anew, with the new secret");
        assertTrue(gate.check(first, send("T", "alice", "new-secret")).passed());
        assertTrue(gate.check(first, tampered(send("T", "alice", "new-secret"))).passed());
    }

    @Test
    void statelessVerifiesEveryRequest() throws IOException {
        AccessGate gate = new AccessGate(store(), "c1", true, false, AuthenticationStrategy.STATELESS, 60, 100);
        FakeConnection connection = new FakeConnection(40003);
        assertTrue(gate.check(connection, send("T", "alice", "alice-secret")).passed());
        assertFalse(gate.check(connection, tampered(send("T", "alice", "alice-secret"))).passed());
        assertEquals(0, gate.signaturesSkipped());
    }

    @Test
    void rememberedConnectionsExpireAndStayBounded() {
        User alice = new User("alice", "s", UserType.NORMAL);
        AuthenticatedConnections remembered = new AuthenticatedConnections(2, 2);
        long now = 1_000;
        remembered.remember("a", alice, now);
        assertTrue(remembered.verified("a", alice, now + TimeUnit.SECONDS.toNanos(2) - 1));
        assertFalse(remembered.verified("a", alice, now + TimeUnit.SECONDS.toNanos(2)), "expired");
        assertFalse(remembered.verified("a", new User("alice", "s", UserType.NORMAL), now), "another record");
        remembered.remember("b", alice, now);
        remembered.remember("c", alice, now + 1);
        assertFalse(remembered.verified("c", alice, now + 1), "full, nothing expired: not remembered");
        remembered.remember("c", alice, now + TimeUnit.SECONDS.toNanos(3));
        assertTrue(remembered.verified("c", alice, now + TimeUnit.SECONDS.toNanos(3)), "room after a sweep");
        assertEquals(1, remembered.size(), "the expired entries were swept");
    }

    @Test
    void apachesStrategyNamesAreAccepted() {
        assertEquals(AuthenticationStrategy.STATEFUL, AuthenticationStrategy.parse(
                "org.apache.rocketmq.auth.authentication.strategy.StatefulAuthenticationStrategy"));
        assertEquals(AuthenticationStrategy.STATELESS, AuthenticationStrategy.parse("Stateless"));
        IllegalArgumentException bad = org.junit.jupiter.api.Assertions.assertThrows(
                IllegalArgumentException.class, () -> AuthenticationStrategy.parse("sometimes"));
        assertTrue(bad.getMessage().contains("stateless | stateful"), bad.getMessage());
    }

    @Test
    void theNarrowestEntryDecidesAndDenyWinsATie() throws IOException {
        AuthStore store = store();
        AccessGate gate = new AccessGate(store, "c1", true, true);
        store.putPolicy("User:alice", List.of(entry("Topic:*", Decision.ALLOW, Action.PUB),
                entry("Topic:secret-*", Decision.DENY, Action.ALL), entry("Topic:secret-ok", Decision.ALLOW,
                        Action.PUB)));
        assertTrue(gate.check(CONNECTION, send("Orders", "alice", "alice-secret")).passed());
        GateVerdict denied = gate.check(CONNECTION, send("secret-x", "alice", "alice-secret"));
        assertEquals(ResponseCode.NO_PERMISSION, denied.code());
        assertTrue(denied.remark().contains("User:alice has no permission to Pub on Topic:secret-x"),
                denied.remark());
        assertTrue(gate.check(CONNECTION, send("secret-ok", "alice", "alice-secret")).passed());
        store.putPolicy("User:alice", List.of(entry("Topic:Orders", Decision.ALLOW, Action.PUB),
                entry("Topic:Orders", Decision.DENY, Action.PUB)));
        assertFalse(gate.check(CONNECTION, send("Orders", "alice", "alice-secret")).passed());
        assertTrue(gate.check(CONNECTION, send("Anything", "root", "root-secret")).passed(), "a super user");
        assertEquals(2, gate.refusedUnauthorized(), "two refusals counted");
    }

    @Test
    void aClientLeavingItsGroupsNeedsSubOnTheConsumerGroupOnly() throws IOException {
        AuthStore store = store();
        AccessGate gate = new AccessGate(store, "c1", true, true);
        store.putPolicy("User:alice", List.of(entry("Group:readers", Decision.ALLOW, Action.SUB)));
        assertTrue(gate.check(CONNECTION, aliceLeaves("producerGroup", "CLIENT_INNER_PRODUCER")).passed(),
                "no permission on a producer group is needed to unregister it");
        assertTrue(gate.check(CONNECTION, aliceLeaves("consumerGroup", "readers")).passed());
        GateVerdict denied = gate.check(CONNECTION, aliceLeaves("consumerGroup", "others"));
        assertEquals(ResponseCode.NO_PERMISSION, denied.code());
        assertTrue(denied.remark().contains("Sub on Group:others"), denied.remark());
        assertTrue(gate.check(CONNECTION, signed(RemotingCommand.request(RequestCode.CHECK_CLIENT_CONFIG),
                "alice", "alice-secret")).passed(), "checking a client config needs a signature only");
    }

    /** UNREGISTER_CLIENT as the Apache client sends it, signed by alice: its client id and one group. */
    private static RemotingCommand aliceLeaves(String groupField, String group) {
        return signed(RemotingCommand.request(RequestCode.UNREGISTER_CLIENT).putExtField("clientID", "127.0.0.1@1")
                .putExtField(groupField, group), "alice", "alice-secret");
    }

    @Test
    void sourceAddressesAndRetryTopicsFollowTheRules() throws Exception {
        PolicyEntry local = new PolicyEntry(ResourcePattern.parse("Group:g"), EnumSet.of(Action.SUB),
                List.of("127.0.0.0/8", "::1"), Decision.ALLOW);
        Access retry = new Access(Resource.topicOrItsGroup("%RETRY%g"), EnumSet.of(Action.SUB));
        assertEquals(Decision.ALLOW, AccessGate.decide(List.of(local), retry, InetAddress.getByName("127.1.2.3")));
        assertEquals(Decision.DENY, AccessGate.decide(List.of(local), retry, InetAddress.getByName("10.0.0.1")));
        assertEquals(Decision.DENY, AccessGate.decide(List.of(), retry, InetAddress.getByName("127.0.0.1")));
    }

    @Test
    void usersAndPoliciesSurviveAReopen() throws IOException {
        AuthStore first = AuthStore.open(dir, Optional.of(new User("root", "a", UserType.SUPER)));
        first.putPolicy("User:root", List.of(entry("Group:g*", Decision.DENY, Action.SUB, Action.GET)));
        AuthStore second = AuthStore.open(dir, Optional.of(new User("root", "changed", UserType.SUPER)));
        assertEquals(first.data(), second.data(), "the initial user is not overwritten");
        assertEquals("a", second.data().user("root").orElseThrow().password());
    }

    /**
     * Random access keys, signatures, secrets and field orders: only a request signed with the right secret of an
     * existing user passes authentication, and nothing throws.
     */
    @Property(tries = 300)
    void fuzzedRequestsNeverPassWithoutTheRightSignature(@ForAll @AlphaChars @StringLength(max = 12) String user,
                                                         @ForAll @StringLength(max = 40) String secret,
                                                         @ForAll @StringLength(max = 30) String signature,
                                                         @ForAll long seed) {
        AccessGate gate = new AccessGate(fuzzStore, "c1", true, false);
        Random random = new Random(seed);
        String accessKey = random.nextInt(3) == 0 ? "abc" : user;
        String key = random.nextInt(3) == 0 ? FUZZ_SECRET : secret;
        List<String> names = new ArrayList<>(List.of("a", "b", "e", "i", "z", RequestSignature.ACCESS_KEY));
        Collections.shuffle(names, random);
        Map<String, String> fields = new LinkedHashMap<>();
        for (String name : names) {
            fields.put(name, name.equals(RequestSignature.ACCESS_KEY) ? accessKey : Long.toString(random.nextLong()));
        }
        RemotingCommand request = RemotingCommand.request(RequestCode.SEND_MESSAGE_V2).setExtFields(fields)
                .setBody(new byte[random.nextInt(64)]);
        boolean signs = random.nextBoolean() && !key.isEmpty();
        request.putExtField(RequestSignature.SIGNATURE, signs ? RequestSignature.sign(request, key) : signature);
        GateVerdict verdict = gate.check(CONNECTION, request);
        boolean legitimate = FUZZ_USERS.contains(accessKey) && RequestSignature.verify(request, FUZZ_SECRET,
                request.extField(RequestSignature.SIGNATURE));
        assertEquals(legitimate, verdict.passed(), "verdict " + verdict + " for " + request);
        if (!verdict.passed()) {
            assertEquals(ResponseCode.NO_PERMISSION, verdict.code());
        }
        if (signs && key.equals(FUZZ_SECRET) && FUZZ_USERS.contains(accessKey)) {
            assertTrue(verdict.passed(), "a correctly signed request was refused: " + verdict);
        }
    }

    private static final String FUZZ_SECRET = "fuzz-secret";
    private static final Set<String> FUZZ_USERS = Set.of("a", "ab", "abc", "Alice");
    /** The fuzz's users, in {@link #fuzzDir}; jqwik runs the property, so JUnit's {@code @TempDir} does not apply. */
    private static Path fuzzDir;
    private static AuthStore fuzzStore;

    @BeforeContainer
    static void openFuzzStore() throws IOException {
        fuzzDir = Files.createTempDirectory("auth-fuzz");
        fuzzStore = AuthStore.open(fuzzDir, Optional.empty());
        for (String user : FUZZ_USERS) {
            fuzzStore.putUser(new User(user, FUZZ_SECRET, UserType.NORMAL));
        }
    }

    @AfterContainer
    static void deleteFuzzStore() throws IOException {
        try (Stream<Path> paths = Files.walk(fuzzDir)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(path);
            }
        }
    }
}
