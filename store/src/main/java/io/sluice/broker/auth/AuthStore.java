package io.sluice.broker.auth;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The users and policies, read from and written to {@code auth.json} ({@link AuthFileDescriptor}). The current
 * state is published whole through a volatile field, read without a lock by the {@link AccessGate} on the I/O
 * threads; changes (from admin requests or the broker's API) hold this object's monitor while they write the file
 * and publish the new state, so they apply to the next request, without a restart.
 */
public final class AuthStore {
    private static final Logger LOG = LoggerFactory.getLogger(AuthStore.class);

    private final Path file;
    private volatile AuthData data;

    private AuthStore(Path file, AuthData data) {
        this.file = file;
        this.data = data;
    }

    /**
     * Reads {@code dir/auth.json} (none = no users, no policies) and adds {@code initUser} when no user of that name
     * exists, so a new cluster with authentication on is not locked out.
     *
     * @throws IOException when the file cannot be read or written
     * @throws IllegalArgumentException naming the file when its content is not valid
     */
    public static AuthStore open(Path dir, Optional<User> initUser) throws IOException {
        Path file = dir.resolve(AuthFileDescriptor.FILE_NAME);
        AuthData data = AuthData.EMPTY;
        if (Files.exists(file)) {
            try {
                data = AuthFileDescriptor.decode(Files.readAllBytes(file));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(file + ": " + e.getMessage(), e);
            }
        }
        AuthStore store = new AuthStore(file, data);
        if (initUser.isPresent() && data.user(initUser.get().username()).isEmpty()) {
            store.putUser(initUser.get());
            LOG.info("created the initial user {} from initAuthenticationUser", initUser.get());
        }
        return store;
    }

    /** The current users and policies. Any thread. */
    public AuthData data() {
        return data;
    }

    /** Adds or replaces a user. */
    public synchronized void putUser(User user) {
        publish(data.withUser(user));
    }

    /** Removes a user and its policy; false when there was none. */
    public synchronized boolean deleteUser(String username) {
        if (data.user(username).isEmpty()) {
            return false;
        }
        publish(data.withoutUser(username));
        return true;
    }

    /** Replaces the policy of {@code subject} ({@code User:<name>}); an empty list removes it. */
    public synchronized void putPolicy(String subject, List<PolicyEntry> entries) {
        Subjects.username(subject);
        publish(data.withPolicy(subject, entries));
    }

    /** Writes {@code next} and then publishes it; the caller holds the monitor. */
    private void publish(AuthData next) {
        try {
            write(next);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
        data = next;
    }

    private void write(AuthData next) throws IOException {
        Files.createDirectories(file.getParent());
        Path tmp = file.resolveSibling(AuthFileDescriptor.FILE_NAME + ".tmp");
        Files.deleteIfExists(tmp);
        try {
            Files.createFile(tmp, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        } catch (UnsupportedOperationException e) {
            Files.createFile(tmp);
        }
        Files.write(tmp, AuthFileDescriptor.encode(next), StandardOpenOption.TRUNCATE_EXISTING);
        try (FileChannel channel = FileChannel.open(tmp, StandardOpenOption.WRITE)) {
            channel.force(true);
        }
        try {
            Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (AtomicMoveNotSupportedException e) {
            Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING);
        }
    }
}
