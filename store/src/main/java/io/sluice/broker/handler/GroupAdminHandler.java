package io.sluice.broker.handler;

import io.sluice.broker.client.SubscriptionGroups;
import io.sluice.remoting.protocol.RemotingCommand;
import io.sluice.remoting.protocol.ResponseCode;
import io.sluice.remoting.protocol.body.BodyCodec;
import io.sluice.remoting.transport.ConnectionContext;
import io.sluice.broker.meta.MetadataJson;
import io.sluice.broker.meta.MetadataStore;
import io.sluice.broker.meta.SubscriptionGroupConfig;
import java.nio.charset.StandardCharsets;
import java.util.Optional;

/**
 * Subscription group administration (Apache's mqadmin updateSubGroup, deleteSubGroup and the dashboard's Consumer
 * tab): UPDATE_AND_CREATE_SUBSCRIPTIONGROUP (200), GET_ALL_SUBSCRIPTIONGROUP_CONFIG (201),
 * GET_SUBSCRIPTIONGROUP_CONFIG (352) and DELETE_SUBSCRIPTIONGROUP (207). Bodies are laid out in
 * {@link AdminBodyDescriptor}.
 *
 * <ul>
 *   <li>200, body SubscriptionGroupConfig JSON: creates or replaces the group, persisted in the metadata store;
 *       INVALID_PARAMETER naming the field for a malformed or invalid config.</li>
 *   <li>201: every group in one SubscriptionGroupWrapper with the group table's data version; no
 *       {@code totalGroupNum} header, which the client reads as "everything in one page".</li>
 *   <li>352, header {@code group}: the group's config; SUBSCRIPTION_GROUP_NOT_EXIST when unknown.</li>
 *   <li>207, header {@code groupName}, optional {@code cleanOffset}: deletes the config, and with
 *       {@code cleanOffset=true} the group's committed offsets; SUBSCRIPTION_GROUP_NOT_EXIST when neither a config
 *       nor offsets were there.</li>
 * </ul>
 *
 * <p>Thread-safe; stateless apart from its collaborators. 200 and 207 write synced, so the broker runs them on its
 * admin executor.
 */
public final class GroupAdminHandler {

    private final SubscriptionGroups groups;
    private final MetadataStore metadata;

    /**
     * @param groups   the group configs
     * @param metadata the group table's version and the committed offsets
     */
    public GroupAdminHandler(SubscriptionGroups groups, MetadataStore metadata) {
        this.groups = groups;
        this.metadata = metadata;
    }

    /** UPDATE_AND_CREATE_SUBSCRIPTIONGROUP (200). */
    public RemotingCommand onUpdateGroup(ConnectionContext connection, RemotingCommand request) {
        byte[] body = request.body();
        if (body == null || body.length == 0) {
            return RemotingCommand.response(ResponseCode.INVALID_PARAMETER,
                    "the subscription group config is missing (empty body)");
        }
        SubscriptionGroupConfig config;
        try {
            config = MetadataJson.groupFromJson(new String(body, StandardCharsets.UTF_8));
        } catch (IllegalArgumentException e) {
            return RemotingCommand.response(ResponseCode.INVALID_PARAMETER, e.getMessage());
        }
        groups.put(config);
        return RemotingCommand.response(ResponseCode.SUCCESS, null);
    }

    /** GET_ALL_SUBSCRIPTIONGROUP_CONFIG (201). */
    public RemotingCommand onGetAllGroups(ConnectionContext connection, RemotingCommand request) {
        return RemotingCommand.response(ResponseCode.SUCCESS, null).setBody(BodyCodec.encode(
                AdminBodyDescriptor.groupWrapper(groups.all(), metadata.groupDataVersion())));
    }

    /** GET_SUBSCRIPTIONGROUP_CONFIG (352). */
    public RemotingCommand onGetGroup(ConnectionContext connection, RemotingCommand request) {
        String name = request.requireString("group");
        Optional<SubscriptionGroupConfig> config = groups.find(name);
        if (config.isEmpty()) {
            return notExist(name);
        }
        return RemotingCommand.response(ResponseCode.SUCCESS, null)
                .setBody(MetadataJson.groupToJson(config.get()).getBytes(StandardCharsets.UTF_8));
    }

    /** DELETE_SUBSCRIPTIONGROUP (207). */
    public RemotingCommand onDeleteGroup(ConnectionContext connection, RemotingCommand request) {
        String name = request.requireString("groupName");
        boolean cleanOffset = request.optionalBoolean("cleanOffset", false);
        boolean hadOffsets = cleanOffset && !metadata.offsetsOf(name).isEmpty();
        if (!groups.delete(name, cleanOffset) && !hadOffsets) {
            return notExist(name);
        }
        return RemotingCommand.response(ResponseCode.SUCCESS, null);
    }

    private static RemotingCommand notExist(String group) {
        return RemotingCommand.response(ResponseCode.SUBSCRIPTION_GROUP_NOT_EXIST, "subscription group [" + group
                + "] does not exist");
    }
}
