package io.sluice.broker.auth;

import com.alibaba.fastjson2.JSON;
import com.alibaba.fastjson2.JSONArray;
import com.alibaba.fastjson2.JSONException;
import com.alibaba.fastjson2.JSONObject;
import io.sluice.remoting.protocol.RemotingCommand;
import io.sluice.remoting.protocol.ResponseCode;
import io.sluice.remoting.protocol.body.JsonObjects;
import io.sluice.remoting.transport.ConnectionContext;
import io.sluice.remoting.transport.SyncRequestHandler;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The user and policy administration of ACL 2.0 that Apache's {@code mqadmin} and {@code DefaultMQAdminExt} send
 * (request codes 3001..3010): users as {@code UserInfo} JSON ({@code username}, {@code password},
 * {@code userType}), policies as {@code AclInfo} JSON ({@code subject}, {@code policies[].entries[]} with
 * {@code resource}, {@code actions}, {@code sourceIps}, {@code decision}). Creating or updating an ACL replaces the
 * subject's entries on the same resources and keeps the others. Changes apply to the next request. Run on the
 * broker's admin thread; the {@link AccessGate} lets only users with {@code Cluster All} (super users) through.
 */
public final class AuthAdminHandler implements SyncRequestHandler {
    static final int CREATE_USER = 3001;
    static final int UPDATE_USER = 3002;
    static final int DELETE_USER = 3003;
    static final int GET_USER = 3004;
    static final int LIST_USER = 3005;
    static final int CREATE_ACL = 3006;
    static final int UPDATE_ACL = 3007;
    static final int DELETE_ACL = 3008;
    static final int GET_ACL = 3009;
    static final int LIST_ACL = 3010;
    /** The codes this handler answers. */
    public static final List<Integer> CODES = List.of(CREATE_USER, UPDATE_USER, DELETE_USER, GET_USER, LIST_USER,
            CREATE_ACL, UPDATE_ACL, DELETE_ACL, GET_ACL, LIST_ACL);

    private final AuthStore store;

    public AuthAdminHandler(AuthStore store) {
        this.store = store;
    }

    @Override
    public RemotingCommand handle(ConnectionContext connection, RemotingCommand request) {
        try {
            return switch (request.code()) {
                case CREATE_USER, UPDATE_USER -> putUser(request);
                case DELETE_USER -> store.deleteUser(request.requireString("username")) ? ok(request)
                        : failed(request, "no user '" + request.extField("username") + "'");
                case GET_USER -> getUser(request);
                case LIST_USER -> listUsers(request);
                case CREATE_ACL, UPDATE_ACL -> putAcl(request);
                case DELETE_ACL -> deleteAcl(request);
                case GET_ACL -> getAcl(request);
                case LIST_ACL -> listAcls(request);
                default -> failed(request, "request code " + request.code() + " is not user or ACL administration");
            };
        } catch (IllegalArgumentException | JSONException e) {
            return failed(request, e.getMessage());
        }
    }

    private RemotingCommand putUser(RemotingCommand request) {
        JSONObject info = body(request);
        String username = request.requireString("username");
        Optional<User> existing = store.data().user(username);
        if (request.code() == CREATE_USER && existing.isPresent()) {
            return failed(request, "user '" + username + "' already exists");
        }
        if (request.code() == UPDATE_USER && existing.isEmpty()) {
            return failed(request, "no user '" + username + "'");
        }
        String password = info.getString("password");
        String type = info.getString("userType");
        store.putUser(new User(username, password != null ? password : existing.map(User::password).orElse(null),
                type != null ? UserType.parse(type) : existing.map(User::type).orElse(UserType.NORMAL)));
        return ok(request);
    }

    private RemotingCommand getUser(RemotingCommand request) {
        String username = request.requireString("username");
        Optional<User> user = store.data().user(username);
        if (user.isEmpty()) {
            return failed(request, "no user '" + username + "'");
        }
        return ok(request).setBody(json(userInfo(user.get())));
    }

    private RemotingCommand listUsers(RemotingCommand request) {
        String filter = request.optionalString("filter", "");
        JSONArray users = new JSONArray();
        for (User user : store.data().users().values()) {
            if (user.username().contains(filter)) {
                users.add(userInfo(user));
            }
        }
        return ok(request).setBody(json(users));
    }

    private RemotingCommand putAcl(RemotingCommand request) {
        String subject = request.requireString("subject");
        String username = Subjects.username(subject);
        if (store.data().user(username).isEmpty()) {
            return failed(request, "no user '" + username + "' for " + subject);
        }
        List<PolicyEntry> added = new ArrayList<>();
        JSONArray policies = body(request).getJSONArray("policies");
        for (Object policy : policies == null ? new JSONArray() : policies) {
            if (policy instanceof JSONObject object) {
                added.addAll(AuthFileDescriptor.entries(object.getJSONArray("entries")));
            }
        }
        if (added.isEmpty()) {
            return failed(request, "the ACL of " + subject + " has no policy entries");
        }
        Map<String, PolicyEntry> byResource = new LinkedHashMap<>();
        for (PolicyEntry entry : store.data().policy(subject)) {
            byResource.put(entry.resource().toString(), entry);
        }
        for (PolicyEntry entry : added) {
            byResource.put(entry.resource().toString(), entry);
        }
        store.putPolicy(subject, List.copyOf(byResource.values()));
        return ok(request);
    }

    private RemotingCommand deleteAcl(RemotingCommand request) {
        String subject = request.requireString("subject");
        Subjects.username(subject);
        String resource = request.optionalString("resource", "");
        List<PolicyEntry> kept = new ArrayList<>();
        if (!resource.isEmpty()) {
            String normalized = ResourcePattern.parse(resource).toString();
            for (PolicyEntry entry : store.data().policy(subject)) {
                if (!entry.resource().toString().equals(normalized)) {
                    kept.add(entry);
                }
            }
        }
        store.putPolicy(subject, kept);
        return ok(request);
    }

    private RemotingCommand getAcl(RemotingCommand request) {
        String subject = request.requireString("subject");
        List<PolicyEntry> entries = store.data().policy(subject);
        if (entries.isEmpty()) {
            return failed(request, "no ACL for " + subject);
        }
        return ok(request).setBody(json(aclInfo(subject, entries)));
    }

    private RemotingCommand listAcls(RemotingCommand request) {
        String subjectFilter = request.optionalString("subjectFilter", "");
        JSONArray acls = new JSONArray();
        store.data().policies().forEach((subject, entries) -> {
            if (subject.contains(subjectFilter)) {
                acls.add(aclInfo(subject, entries));
            }
        });
        return ok(request).setBody(json(acls));
    }

    private static JSONObject userInfo(User user) {
        JSONObject info = new JSONObject();
        info.put("username", user.username());
        info.put("userType", user.type().text());
        info.put("userStatus", "enable");
        return info;
    }

    private static JSONObject aclInfo(String subject, List<PolicyEntry> entries) {
        JSONObject policy = new JSONObject();
        policy.put("policyType", "Custom");
        policy.put("entries", AuthFileDescriptor.entriesJson(entries));
        JSONObject info = new JSONObject();
        info.put("subject", subject);
        info.put("policies", new JSONArray(List.of(policy)));
        return info;
    }

    private static JSONObject body(RemotingCommand request) {
        byte[] body = request.body();
        JSONObject json = body == null ? null : JsonObjects.parse(new String(body, StandardCharsets.UTF_8));
        if (json == null) {
            throw new IllegalArgumentException("request code " + request.code() + " needs a JSON body");
        }
        return json;
    }

    private static byte[] json(Object value) {
        return JSON.toJSONString(value).getBytes(StandardCharsets.UTF_8);
    }

    private static RemotingCommand ok(RemotingCommand request) {
        return RemotingCommand.responseTo(request);
    }

    private static RemotingCommand failed(RemotingCommand request, String remark) {
        return RemotingCommand.responseTo(request, ResponseCode.INVALID_PARAMETER, remark);
    }
}
