package io.sluice.broker.auth;

import com.alibaba.fastjson2.JSONArray;
import com.alibaba.fastjson2.JSONException;
import com.alibaba.fastjson2.JSONObject;
import com.alibaba.fastjson2.JSONWriter;
import io.sluice.remoting.protocol.body.JsonObjects;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Layout of the users-and-policies file, {@code <storePathRootDir>/config/auth.json}: UTF-8 JSON, written whole to
 * {@code auth.json.tmp}, forced to disk and renamed over the old file, so a reader sees the old or the new file.
 *
 * <pre>
 * {
 *   "version": 1,
 *   "users": [ { "username": "alice", "password": "secret", "userType": "Normal" }, ... ],
 *   "acls":  [ { "subject": "User:alice",
 *                "entries": [ { "resource": "Topic:order-*",           ACL 2.0 notation, see ResourcePattern
 *                               "actions": ["Pub", "Get"],             ACL 2.0 action names, see Action
 *                               "sourceIps": ["10.0.0.0/8"],           empty = any address
 *                               "decision": "Allow" }, ... ] }, ... ]   Allow | Deny
 * }
 * </pre>
 * The secrets are stored as given: the broker needs them to check HMAC signatures. The file is created readable
 * by its owner only.
 *
 * <p>Stateless; thread-safe.
 */
final class AuthFileDescriptor {
    static final String FILE_NAME = "auth.json";
    static final int VERSION = 1;

    private AuthFileDescriptor() {
    }

    static byte[] encode(AuthData data) {
        JSONObject root = new JSONObject();
        root.put("version", VERSION);
        JSONArray users = new JSONArray();
        for (User user : data.users().values()) {
            users.add(userJson(user));
        }
        root.put("users", users);
        JSONArray acls = new JSONArray();
        data.policies().forEach((subject, entries) -> {
            JSONObject acl = new JSONObject();
            acl.put("subject", subject);
            acl.put("entries", entriesJson(entries));
            acls.add(acl);
        });
        root.put("acls", acls);
        return root.toJSONString(JSONWriter.Feature.PrettyFormat).getBytes(StandardCharsets.UTF_8);
    }

    static JSONObject userJson(User user) {
        JSONObject json = new JSONObject();
        json.put("username", user.username());
        json.put("password", user.password());
        json.put("userType", user.type().text());
        return json;
    }

    static JSONArray entriesJson(List<PolicyEntry> entries) {
        JSONArray array = new JSONArray();
        for (PolicyEntry entry : entries) {
            JSONObject json = new JSONObject();
            json.put("resource", entry.resource().toString());
            JSONArray actions = new JSONArray();
            entry.actions().stream().sorted().forEach(action -> actions.add(action.text()));
            json.put("actions", actions);
            json.put("sourceIps", new JSONArray(entry.sourceIps()));
            json.put("decision", entry.decision().text());
            array.add(json);
        }
        return array;
    }

    /**
     * Reads a file's content.
     *
     * @throws IllegalArgumentException naming what is wrong
     */
    static AuthData decode(byte[] bytes) {
        JSONObject root;
        try {
            root = JsonObjects.parse(new String(bytes, StandardCharsets.UTF_8));
        } catch (JSONException e) {
            throw new IllegalArgumentException("not JSON: " + e.getMessage(), e);
        }
        if (root == null || root.getIntValue("version") != VERSION) {
            throw new IllegalArgumentException("expected \"version\": " + VERSION);
        }
        Map<String, User> users = new LinkedHashMap<>();
        for (JSONObject json : objects(root.getJSONArray("users"))) {
            User user = user(json);
            users.put(user.username(), user);
        }
        Map<String, List<PolicyEntry>> policies = new LinkedHashMap<>();
        for (JSONObject acl : objects(root.getJSONArray("acls"))) {
            String subject = acl.getString("subject");
            Subjects.username(subject);
            policies.put(subject, entries(acl.getJSONArray("entries")));
        }
        return new AuthData(users, policies);
    }

    static User user(JSONObject json) {
        String type = json.getString("userType");
        return new User(json.getString("username"), json.getString("password"),
                type == null ? UserType.NORMAL : UserType.parse(type));
    }

    static List<PolicyEntry> entries(JSONArray array) {
        List<PolicyEntry> entries = new ArrayList<>();
        for (JSONObject json : objects(array)) {
            Set<Action> actions = EnumSet.noneOf(Action.class);
            for (Object action : array(json.getJSONArray("actions"))) {
                actions.add(Action.parse(String.valueOf(action)));
            }
            List<String> sourceIps = new ArrayList<>();
            for (Object ip : array(json.getJSONArray("sourceIps"))) {
                sourceIps.add(String.valueOf(ip));
            }
            String decision = json.getString("decision");
            entries.add(new PolicyEntry(ResourcePattern.parse(json.getString("resource")), actions, sourceIps,
                    decision == null ? Decision.ALLOW : Decision.parse(decision)));
        }
        return entries;
    }

    private static JSONArray array(JSONArray array) {
        return array == null ? new JSONArray() : array;
    }

    private static List<JSONObject> objects(JSONArray array) {
        List<JSONObject> objects = new ArrayList<>();
        for (Object item : array(array)) {
            if (!(item instanceof JSONObject object)) {
                throw new IllegalArgumentException("expected an object, found " + item);
            }
            objects.add(object);
        }
        return objects;
    }
}
