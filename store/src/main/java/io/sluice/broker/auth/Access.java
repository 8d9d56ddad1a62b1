package io.sluice.broker.auth;

import java.util.Set;

/**
 * One permission a request needs: any of {@code actions} on {@code resource}. Immutable.
 *
 * @param resource what the request touches
 * @param actions the actions any one of which suffices
 */
record Access(Resource resource, Set<Action> actions) {

    /** The actions as the refusal remark names them, e.g. {@code Pub} or {@code Sub|Get}. */
    String actionsText() {
        StringBuilder text = new StringBuilder();
        actions.stream().sorted().forEach(a -> text.append(text.length() == 0 ? "" : "|").append(a.text()));
        return text.toString();
    }
}
