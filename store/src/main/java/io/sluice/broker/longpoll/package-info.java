/**
 * Long polling: pull requests that found no new message wait here until a message arrives in their queue or their
 * suspend time runs out, and are then executed again.
 */
package io.sluice.broker.longpoll;
