package io.sluice.broker.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.alibaba.fastjson2.JSON;
import com.alibaba.fastjson2.JSONArray;
import com.alibaba.fastjson2.JSONObject;
import io.sluice.broker.testing.FakeConnection;
import io.sluice.remoting.protocol.MalformedHeaderException;
import io.sluice.remoting.protocol.RemotingCommand;
import io.sluice.remoting.protocol.ResponseCode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * ACL 2.0 user and policy administration as mqadmin sends it: each request either changes the stored users and
 * policies as asked (surviving a reopen of the file) or is refused with INVALID_PARAMETER and a remark naming the
 * problem, changing nothing.
 */
@Timeout(30)
class AuthAdminHandlerTest {

    private static final FakeConnection CONNECTION = new FakeConnection(40_100);

    @TempDir
    Path dir;

    private AuthStore store;
    private AuthAdminHandler handler;

    @BeforeEach
    void open() throws IOException {
        store = AuthStore.open(dir, Optional.of(new User("root", "rootSecret", UserType.SUPER)));
        handler = new AuthAdminHandler(store);
    }

    @Test
    void aUserIsCreatedOnceThenUpdatedKeepingWhatTheUpdateLeavesOut() throws IOException {
        assertOk(user(AuthAdminHandler.CREATE_USER, "alice", "{\"password\":\"s1\",\"userType\":\"Normal\"}"));
        assertRefused(user(AuthAdminHandler.CREATE_USER, "alice", "{\"password\":\"s2\"}"),
                "user 'alice' already exists");
        assertEquals("s1", store.data().user("alice").orElseThrow().password());

        assertOk(user(AuthAdminHandler.UPDATE_USER, "alice", "{\"userType\":\"Super\"}"));
        User alice = store.data().user("alice").orElseThrow();
        assertEquals("s1", alice.password(), "an update without a password keeps it");
        assertEquals(UserType.SUPER, alice.type());
        assertOk(user(AuthAdminHandler.UPDATE_USER, "alice", "{\"password\":\"s3\"}"));
        assertEquals(UserType.SUPER, store.data().user("alice").orElseThrow().type(), "and without a type too");

        AuthStore reopened = AuthStore.open(dir, Optional.empty());
        assertEquals(new User("alice", "s3", UserType.SUPER), reopened.data().user("alice").orElseThrow());
    }

    @Test
    void badUserRequestsAreRefusedNamingTheProblem() {
        assertRefused(user(AuthAdminHandler.UPDATE_USER, "bob", "{\"password\":\"x\"}"), "no user 'bob'");
        assertRefused(user(AuthAdminHandler.CREATE_USER, "bob", "{}"), "password of user bob must not be empty");
        assertRefused(user(AuthAdminHandler.CREATE_USER, "bob", null), "request code 3001 needs a JSON body");
        assertRefused(user(AuthAdminHandler.CREATE_USER, "bob", "{\"password\":\"x\",\"userType\":\"Root\"}"),
                "Root");
        assertRefused(user(AuthAdminHandler.DELETE_USER, "bob", null), "no user 'bob'");
        assertRefused(user(AuthAdminHandler.GET_USER, "bob", null), "no user 'bob'");
        MalformedHeaderException missing = assertThrows(MalformedHeaderException.class,
                () -> handler.handle(CONNECTION, RemotingCommand.request(AuthAdminHandler.GET_USER)),
                "the transport answers a missing header field, naming it");
        assertEquals("username", missing.field());
        assertRefused(RemotingCommand.request(4242), "request code 4242 is not user or ACL administration");
        assertEquals(List.of("root"), List.copyOf(store.data().users().keySet()), "nothing changed");
    }

    @Test
    void usersAreReadWithoutTheirSecretAndListedByFilter() {
        assertOk(user(AuthAdminHandler.CREATE_USER, "app-orders", "{\"password\":\"p\"}"));
        assertOk(user(AuthAdminHandler.CREATE_USER, "app-payments", "{\"password\":\"q\"}"));

        JSONObject got = JSON.parseObject(bodyOf(assertOk(user(AuthAdminHandler.GET_USER, "app-orders", null))));
        assertEquals("app-orders", got.getString("username"));
        assertEquals("Normal", got.getString("userType"));
        assertTrue(!got.containsKey("password"), "the secret never leaves the broker");

        RemotingCommand list = RemotingCommand.request(AuthAdminHandler.LIST_USER).putExtField("filter", "app-");
        JSONArray users = JSON.parseArray(bodyOf(assertOk(list)));
        assertEquals(2, users.size());
        JSONArray everyone = JSON.parseArray(bodyOf(assertOk(RemotingCommand.request(AuthAdminHandler.LIST_USER))));
        assertEquals(3, everyone.size());

        assertOk(user(AuthAdminHandler.DELETE_USER, "app-payments", null));
        assertTrue(store.data().user("app-payments").isEmpty());
    }

    @Test
    void anAclReplacesEntriesOnTheSameResourceAndKeepsTheOthers() {
        assertOk(user(AuthAdminHandler.CREATE_USER, "alice", "{\"password\":\"s\"}"));
        assertOk(acl(AuthAdminHandler.CREATE_ACL, "User:alice",
                entry("Topic:orders", "[\"Pub\"]", "Allow"), entry("Group:g1", "[\"Sub\"]", "Allow")));
        assertOk(acl(AuthAdminHandler.UPDATE_ACL, "User:alice",
                entry("Topic:orders", "[\"Pub\",\"Sub\"]", "Deny"), entry("Topic:pay*", "[\"Pub\"]", "Allow")));

        List<PolicyEntry> policy = store.data().policy("User:alice");
        assertEquals(List.of("Topic:orders", "Group:g1", "Topic:pay*"),
                policy.stream().map(e -> e.resource().toString()).toList());
        assertEquals(Decision.DENY, policy.get(0).decision(), "replaced by the update");

        JSONObject got = JSON.parseObject(bodyOf(assertOk(RemotingCommand.request(AuthAdminHandler.GET_ACL)
                .putExtField("subject", "User:alice"))));
        assertEquals("User:alice", got.getString("subject"));
        assertEquals(3, got.getJSONArray("policies").getJSONObject(0).getJSONArray("entries").size());
    }

    @Test
    void anAclDeleteRemovesOneResourceOrTheWholePolicy() {
        assertOk(user(AuthAdminHandler.CREATE_USER, "alice", "{\"password\":\"s\"}"));
        assertOk(acl(AuthAdminHandler.CREATE_ACL, "User:alice",
                entry("Topic:orders", "[\"Pub\"]", "Allow"), entry("Group:g1", "[\"Sub\"]", "Allow")));
        assertOk(RemotingCommand.request(AuthAdminHandler.DELETE_ACL).putExtField("subject", "User:alice")
                .putExtField("resource", " topic:orders "));
        assertEquals(List.of("Group:g1"), store.data().policy("User:alice").stream()
                .map(e -> e.resource().toString()).toList(), "the resource is matched as parsed");
        assertOk(RemotingCommand.request(AuthAdminHandler.DELETE_ACL).putExtField("subject", "User:alice"));
        assertEquals(List.of(), store.data().policy("User:alice"));
        assertRefused(RemotingCommand.request(AuthAdminHandler.GET_ACL).putExtField("subject", "User:alice"),
                "no ACL for User:alice");
    }

    @Test
    void badAclRequestsAreRefusedAndChangeNothing() {
        assertOk(user(AuthAdminHandler.CREATE_USER, "alice", "{\"password\":\"s\"}"));
        assertRefused(acl(AuthAdminHandler.CREATE_ACL, "User:nobody", entry("Topic:t", "[\"Pub\"]", "Allow")),
                "no user 'nobody' for User:nobody");
        assertRefused(acl(AuthAdminHandler.CREATE_ACL, "Group:g1", entry("Topic:t", "[\"Pub\"]", "Allow")),
                "subject must be User:<username>, was 'Group:g1'");
        assertRefused(acl(AuthAdminHandler.CREATE_ACL, "User:alice"), "the ACL of User:alice has no policy entries");
        assertRefused(acl(AuthAdminHandler.CREATE_ACL, "User:alice", entry("Queue:t", "[\"Pub\"]", "Allow")),
                "resource must be");
        assertRefused(acl(AuthAdminHandler.CREATE_ACL, "User:alice", entry("Topic:t", "[\"Fly\"]", "Allow")),
                "action must be one of");
        assertRefused(acl(AuthAdminHandler.CREATE_ACL, "User:alice", entry("Topic:t", "[\"Pub\"]", "Maybe")),
                "decision must be Allow or Deny");
        assertRefused(acl(AuthAdminHandler.CREATE_ACL, "User:alice",
                "{\"resource\":\"Topic:t\",\"actions\":[\"Pub\"],\"sourceIps\":[\"10.1\"]}"), "'10.1'");
        assertRefused(RemotingCommand.request(AuthAdminHandler.DELETE_ACL).putExtField("subject", "alice"),
                "subject must be User:<username>");
        assertEquals(List.of(), store.data().policy("User:alice"));
    }

    @Test
    void aclsAreListedBySubjectFilter() {
        for (String name : List.of("app-a", "app-b", "ops")) {
            assertOk(user(AuthAdminHandler.CREATE_USER, name, "{\"password\":\"s\"}"));
            assertOk(acl(AuthAdminHandler.CREATE_ACL, "User:" + name, entry("Topic:t", "[\"Pub\"]", "Allow")));
        }
        RemotingCommand list = RemotingCommand.request(AuthAdminHandler.LIST_ACL).putExtField("subjectFilter", "app");
        JSONArray acls = JSON.parseArray(bodyOf(assertOk(list)));
        assertEquals(List.of("User:app-a", "User:app-b"),
                acls.stream().map(a -> ((JSONObject) a).getString("subject")).sorted().toList());
    }

    private RemotingCommand assertOk(RemotingCommand request) {
        RemotingCommand response = handler.handle(CONNECTION, request);
        assertEquals(ResponseCode.SUCCESS, response.code(), () -> "refused: " + response.remark());
        return response;
    }

    private void assertRefused(RemotingCommand request, String remarkPart) {
        RemotingCommand response = handler.handle(CONNECTION, request);
        assertEquals(ResponseCode.INVALID_PARAMETER, response.code());
        assertTrue(response.remark() != null && response.remark().contains(remarkPart),
                "remark '" + response.remark() + "' should contain '" + remarkPart + "'");
    }

    private static RemotingCommand user(int code, String username, String body) {
        RemotingCommand request = RemotingCommand.request(code).putExtField("username", username);
        return body == null ? request : request.setBody(body.getBytes(StandardCharsets.UTF_8));
    }

    private static RemotingCommand acl(int code, String subject, String... entries) {
        String body = "{\"subject\":\"" + subject + "\",\"policies\":[{\"policyType\":\"Custom\",\"entries\":["
                + String.join(",", entries) + "]}]}";
        return RemotingCommand.request(code).putExtField("subject", subject)
                .setBody(body.getBytes(StandardCharsets.UTF_8));
    }

    private static String entry(String resource, String actions, String decision) {
        return "{\"resource\":\"" + resource + "\",\"actions\":" + actions + ",\"decision\":\"" + decision + "\"}";
    }

    private static String bodyOf(RemotingCommand response) {
        return new String(response.body(), StandardCharsets.UTF_8);
    }
}
