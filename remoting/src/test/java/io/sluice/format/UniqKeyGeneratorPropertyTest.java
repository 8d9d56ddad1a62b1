package io.sluice.format;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.time.ZoneId;
import java.util.HashSet;
import java.util.Set;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import org.apache.rocketmq.common.message.MessageClientIDSetter;

/**
 * Sluice's UNIQ_KEYs as the Apache client reads them: any IPv4 or IPv6 address and pid come back through
 * {@code MessageClientIDSetter}, every key is upper-case hex of the fixed length, and keys written back to back
 * into a shared buffer at any offset are distinct and carry the generator's prefix.
 */
class UniqKeyGeneratorPropertyTest {

    @Property(tries = 200)
    void theApacheClientReadsTheAddressAndPidBack(@ForAll @Size(4) byte[] ipv4, @ForAll @Size(16) byte[] ipv6,
                                                  @ForAll @IntRange(max = 0xFFFF) int pid, @ForAll int loaderHash,
                                                  @ForAll boolean useIpv6) {
        byte[] address = useIpv6 ? ipv6 : ipv4;
        UniqKeyGenerator keys = new UniqKeyGenerator(address, pid, loaderHash, () -> 1_767_225_600_000L + pid,
                ZoneId.of("UTC"));
        String key = keys.next();
        assertEquals(keys.keyChars(), key.length());
        assertEquals(useIpv6 ? MessageIdDescriptor.IPV6_ID_LENGTH : MessageIdDescriptor.IPV4_ID_LENGTH, key.length());
        assertTrue(key.chars().allMatch(c -> (c >= '0' && c <= '9') || (c >= 'A' && c <= 'F')), key);
        assertArrayEquals(address, MessageClientIDSetter.getIPFromID(key), key);
        assertEquals((short) pid, (short) MessageClientIDSetter.getPidFromID(key), key);
    }

    @Property(tries = 50)
    void keysWrittenBackToBackAreDistinctAndWellFormed(@ForAll @IntRange(min = 1, max = 2_000) int count,
                                                       @ForAll @IntRange(max = 9) int at) {
        UniqKeyGenerator keys = new UniqKeyGenerator(new byte[] {10, 1, 2, 3}, 4242, 7, () -> 1_767_225_600_123L,
                ZoneId.of("UTC"));
        int width = keys.keyChars();
        byte[] out = new byte[at + count * width];
        int end = at;
        for (int i = 0; i < count; i++) {
            end = keys.write(out, end);
        }
        assertEquals(at + count * width, end);
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < count; i++) {
            String key = new String(out, at + i * width, width, StandardCharsets.US_ASCII);
            assertTrue(seen.add(key), "repeated " + key);
            assertEquals("0A010203", key.substring(0, 8));
            assertEquals(4242, MessageClientIDSetter.getPidFromID(key));
        }
    }
}
