package io.sluice.namesrv.auth;

import io.sluice.remoting.protocol.body.JsonObjects;
import com.alibaba.fastjson2.JSONException;
import com.alibaba.fastjson2.JSONObject;
import io.sluice.remoting.transport.Credentials;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Authentication of the name server's changing requests, from Apache's keys: {@code authenticationEnabled}, and the
 * users it knows, {@code initAuthenticationUser} (the administrator, {@code {"username":..,"password":..}}) and
 * {@code innerClientAuthenticationCredentials} (the brokers' own, {@code {"accessKey":..,"secretKey":..}}, the
 * value the brokers are given). A name server keeps no user store: these two are all its users. Immutable,
 * validated.
 *
 * @param enabled whether requests that change routes or configuration must be signed by a known user
 * @param admin the administrator's credentials, if set
 * @param inner the brokers' credentials, if set
 */
public record NamesrvAuthentication(boolean enabled, Optional<Credentials> admin, Optional<Credentials> inner) {

    /** Off, no users. */
    public static final NamesrvAuthentication DISABLED = new NamesrvAuthentication(false, Optional.empty(),
            Optional.empty());

    /** Validates; a name server with authentication on and no user would refuse every broker. */
    public NamesrvAuthentication {
        if (enabled && admin.isEmpty() && inner.isEmpty()) {
            throw new IllegalArgumentException("authenticationEnabled needs initAuthenticationUser or"
                    + " innerClientAuthenticationCredentials: without a user every change would be refused");
        }
    }

    /** The secrets by access key; the inner credentials win a clash of names. */
    public Map<String, String> secretsByAccessKey() {
        Map<String, String> users = new LinkedHashMap<>();
        admin.ifPresent(user -> users.put(user.accessKey(), user.secretKey()));
        inner.ifPresent(user -> users.put(user.accessKey(), user.secretKey()));
        return users;
    }

    /**
     * Parses {@code initAuthenticationUser}'s JSON; empty text is no user.
     *
     * @throws IllegalArgumentException naming the key when the text is not such an object
     */
    public static Optional<Credentials> parseUser(String text) {
        return parse("initAuthenticationUser", text, "username", "password");
    }

    /**
     * Parses {@code innerClientAuthenticationCredentials}' JSON; empty text is none.
     *
     * @throws IllegalArgumentException naming the key when the text is not such an object
     */
    public static Optional<Credentials> parseInner(String text) {
        return parse("innerClientAuthenticationCredentials", text, "accessKey", "secretKey");
    }

    private static Optional<Credentials> parse(String key, String text, String nameField, String secretField) {
        String trimmed = text == null ? "" : text.trim();
        if (trimmed.isEmpty()) {
            return Optional.empty();
        }
        JSONObject object;
        try {
            object = JsonObjects.parse(trimmed);
        } catch (JSONException e) {
            throw new IllegalArgumentException(key + " is not a JSON object: " + e.getMessage(), e);
        }
        if (object == null) {
            throw new IllegalArgumentException(key + " is not a JSON object");
        }
        try {
            return Optional.of(new Credentials(object.getString(nameField), object.getString(secretField)));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(key + " must be {\"" + nameField + "\":..,\"" + secretField
                    + "\":..} with both non-empty: " + e.getMessage(), e);
        }
    }
}
