/**
 * Authentication and authorization compatible with the Apache client's signing hook ({@code AclClientRPCHook}) and
 * RocketMQ's ACL 2.0 model: users with secrets, and per-user policy entries (resource pattern, actions, source
 * addresses, allow or deny). {@link io.sluice.broker.auth.AccessGate} checks every request before its handler
 * runs; {@link io.sluice.broker.auth.AuthStore} keeps users and policies in a file under the store directory
 * ({@link io.sluice.broker.auth.AuthFileDescriptor}); policy changes apply to the next request.
 */
package io.sluice.broker.auth;
