/** The Sluice Java client. */
package io.sluice.client;
