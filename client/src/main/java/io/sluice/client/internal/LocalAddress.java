package io.sluice.client.internal;

import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.net.UnknownHostException;
import java.util.Collections;

/** Finds this host's address for client ids and message ids. Stateless; thread-safe. */
public final class LocalAddress {

    private LocalAddress() {
    }

    /** The first non-loopback, site-local-or-global IPv4 address of an up interface, else {@code 127.0.0.1}. */
    public static String ipv4() {
        try {
            for (NetworkInterface nic : Collections.list(NetworkInterface.getNetworkInterfaces())) {
                if (!nic.isUp() || nic.isLoopback() || nic.isVirtual()) {
                    continue;
                }
                for (InetAddress address : Collections.list(nic.getInetAddresses())) {
                    if (address instanceof Inet4Address && !address.isLoopbackAddress()
                            && !address.isLinkLocalAddress()) {
                        return address.getHostAddress();
                    }
                }
            }
        } catch (SocketException e) {
            return "127.0.0.1";
        }
        return "127.0.0.1";
    }

    /** The 4 or 16 address bytes of an IP literal. */
    public static byte[] bytesOf(String ip) {
        try {
            return InetAddress.getByName(ip).getAddress();
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException("not an IP address: '" + ip + "'", e);
        }
    }
}
