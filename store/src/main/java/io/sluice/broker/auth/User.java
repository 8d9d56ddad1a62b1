package io.sluice.broker.auth;

import java.util.Objects;

/**
 * A user: the access key clients sign with ({@code username}), its secret ({@code password}, the HMAC key) and
 * its type. Immutable.
 *
 * @param username the access key; 1..128 characters without whitespace
 * @param password the secret key; not empty
 * @param type super users pass every authorization check
 */
public record User(String username, String password, UserType type) {

    /** Validates every field; the exception names the bad value. */
    public User {
        Objects.requireNonNull(type, "type");
        if (username == null || username.isEmpty() || username.length() > 128
                || username.chars().anyMatch(Character::isWhitespace)) {
            throw new IllegalArgumentException("username must be 1..128 characters without whitespace, was '"
                    + username + "'");
        }
        if (password == null || password.isEmpty()) {
            throw new IllegalArgumentException("password of user " + username + " must not be empty");
        }
    }

    /** The ACL 2.0 subject naming this user, {@code User:<username>}. */
    public String subject() {
        return Subjects.ofUser(username);
    }

    @Override
    public String toString() {
        return "User{" + username + ", " + type.text() + "}";
    }
}
