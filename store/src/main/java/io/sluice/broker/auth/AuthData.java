package io.sluice.broker.auth;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One consistent state of the users and their policies. Immutable: a change makes a new one, which the
 * {@link AuthStore} publishes whole, so a request is checked against either the old or the new state.
 *
 * @param users users by username
 * @param policies each user's policy entries by subject ({@code User:<name>}), in the order they were given
 */
public record AuthData(Map<String, User> users, Map<String, List<PolicyEntry>> policies) {

    static final AuthData EMPTY = new AuthData(Map.of(), Map.of());

    public AuthData {
        users = Map.copyOf(users);
        policies = Map.copyOf(policies);
    }

    public Optional<User> user(String username) {
        return Optional.ofNullable(users.get(username));
    }

    /** The policy entries of {@code subject}; empty when it has none. */
    public List<PolicyEntry> policy(String subject) {
        return policies.getOrDefault(subject, List.of());
    }

    AuthData withUser(User user) {
        Map<String, User> copy = new LinkedHashMap<>(users);
        copy.put(user.username(), user);
        return new AuthData(copy, policies);
    }

    /** Without the user and its policy. */
    AuthData withoutUser(String username) {
        Map<String, User> copy = new LinkedHashMap<>(users);
        copy.remove(username);
        Map<String, List<PolicyEntry>> rest = new LinkedHashMap<>(policies);
        rest.remove(Subjects.ofUser(username));
        return new AuthData(copy, rest);
    }

    AuthData withPolicy(String subject, List<PolicyEntry> entries) {
        Map<String, List<PolicyEntry>> copy = new LinkedHashMap<>(policies);
        if (entries.isEmpty()) {
            copy.remove(subject);
        } else {
            copy.put(subject, List.copyOf(entries));
        }
        return new AuthData(users, copy);
    }
}
