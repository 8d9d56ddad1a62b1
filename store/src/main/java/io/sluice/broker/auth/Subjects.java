package io.sluice.broker.auth;

/** ACL 2.0 subjects: {@code User:<username>} is the only kind. Stateless. */
final class Subjects {
    static final String USER_PREFIX = "User:";

    private Subjects() {
    }

    static String ofUser(String username) {
        return USER_PREFIX + username;
    }

    /**
     * The username of {@code subject}.
     *
     * @throws IllegalArgumentException when it is not {@code User:<name>}
     */
    static String username(String subject) {
        if (subject == null || !subject.startsWith(USER_PREFIX) || subject.length() == USER_PREFIX.length()) {
            throw new IllegalArgumentException("subject must be User:<username>, was '" + subject + "'");
        }
        return subject.substring(USER_PREFIX.length());
    }
}
