/**
 * Authentication on the name server: {@link io.sluice.namesrv.auth.NamesrvAuthentication} (Apache's keys) and
 * {@link io.sluice.namesrv.auth.NamesrvAccessGate}, which lets the Apache client's anonymous reads through and
 * requires a known user's signature on everything else. See docs/security.md#the-name-server.
 */
package io.sluice.namesrv.auth;
