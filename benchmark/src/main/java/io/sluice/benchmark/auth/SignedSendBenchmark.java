package io.sluice.benchmark.auth;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.sluice.benchmark.BenchStore;
import io.sluice.broker.auth.AccessGate;
import io.sluice.broker.auth.AuthenticationStrategy;
import io.sluice.broker.auth.Action;
import io.sluice.broker.auth.AuthStore;
import io.sluice.broker.auth.Decision;
import io.sluice.broker.auth.PolicyEntry;
import io.sluice.broker.auth.ResourcePattern;
import io.sluice.broker.auth.User;
import io.sluice.broker.auth.UserType;
import io.sluice.remoting.protocol.FrameCodec;
import io.sluice.remoting.protocol.FrameDescriptor;
import io.sluice.remoting.protocol.FrameException;
import io.sluice.remoting.protocol.RemotingCommand;
import io.sluice.remoting.protocol.RequestCode;
import io.sluice.remoting.protocol.RequestSignature;
import io.sluice.remoting.protocol.SerializeType;
import io.sluice.remoting.transport.GateVerdict;
import io.sluice.store.MessageStore;
import io.sluice.store.log.AppendResult;
import io.sluice.store.log.MessageDraft;
import io.sluice.format.MessageProperties;
import java.io.IOException;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

/**
 * The broker's added cost of a signed send. Both methods decode a SEND_MESSAGE_V2 frame (15 header fields in JSON,
 * as the Apache client sends them, and a 1 KiB body) and append its message; {@code signedSend}'s frame also
 * carries {@code AccessKey} and the {@code Signature} the Apache client's {@code AclClientRPCHook} computes, and
 * passes the {@link AccessGate} with authentication and authorization on (signature check, user lookup, one policy
 * decision) between the two. One thread, ASYNC flush, store in {@code /dev/shm} when it exists
 * ({@link BenchStore}). A real send also runs the send handler and encodes a response, so the ratio of the two is
 * an upper bound of the relative cost. {@code hmacAlone} is the HMAC-SHA1 over the signed bytes (header values
 * and body) by itself: the part of the check that Apache's signing scheme fixes. {@code statefulSignedSend} passes
 * a gate with {@code authenticationStrategy=stateful} on a connection already verified. Figures:
 * benchmark/README.md.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
@Threads(1)
public class SignedSendBenchmark {

    static final String TOPIC = "BenchAclTopic";
    static final String SECRET = "bench-secret-0123456789";
    static final InetAddress CLIENT = InetAddress.getLoopbackAddress();

    /** A store, a gate and the two frames; one per trial. */
    @State(Scope.Benchmark)
    public static class Broker {
        BenchStore files;
        MessageStore store;
        AccessGate gate;
        /** The same checks with {@code authenticationStrategy=stateful}: the connection's signature verified once. */
        AccessGate statefulGate;
        final FrameCodec codec = new FrameCodec(FrameDescriptor.DEFAULT_MAX_FRAME_BYTES);
        ByteBuf unsignedFrame;
        ByteBuf signedFrame;
        MessageDraft message;
        /** The bytes a signature covers: the sorted header values, then the body. */
        byte[] signedBytes;
        Mac mac;

        @Setup(Level.Trial)
        public void open() throws IOException, FrameException {
            files = BenchStore.open("sluice-bench-acl", TOPIC);
            store = files.store();
            AuthStore auth = AuthStore.open(files.dir().resolve("auth"), Optional.empty());
            auth.putUser(new User("bench", SECRET, UserType.NORMAL));
            auth.putPolicy("User:bench", List.of(
                    new PolicyEntry(ResourcePattern.parse("Group:*"), EnumSet.of(Action.SUB), List.of(),
                            Decision.ALLOW),
                    new PolicyEntry(ResourcePattern.parse("Topic:Bench*"), EnumSet.of(Action.PUB), List.of(),
                            Decision.ALLOW)));
            gate = new AccessGate(auth, "DefaultCluster", true, true);
            statefulGate = new AccessGate(auth, "DefaultCluster", true, true, AuthenticationStrategy.STATEFUL,
                    86_400, 16);
            String properties = MessageProperties.encode(Map.of(MessageProperties.UNIQ_KEY,
                    "7F0000010BB818B4AAC2648B37A60000", MessageProperties.PGROUP, "bench-pg"));
            message = BenchStore.message(TOPIC, properties);
            RemotingCommand request = RemotingCommand.request(RequestCode.SEND_MESSAGE_V2).setOpaque(7)
                    .setSerializeType(SerializeType.JSON)
                    .putExtField("a", "bench-pg").putExtField("b", TOPIC).putExtField("c", "TBW102")
                    .putExtField("d", 4).putExtField("e", 0).putExtField("f", 0)
                    .putExtField("g", System.currentTimeMillis()).putExtField("h", 0).putExtField("i", properties)
                    .putExtField("j", 0).putExtField("k", false).putExtField("l", 0).putExtField("m", false)
                    .putExtField("n", "DefaultCluster").setBody(message.body().duplicate());
            unsignedFrame = codec.encode(request, UnpooledByteBufAllocator.DEFAULT);
            request.putExtField(RequestSignature.ACCESS_KEY, "bench");
            request.putExtField(RequestSignature.SIGNATURE, RequestSignature.sign(request, SECRET));
            signedFrame = codec.encode(request, UnpooledByteBufAllocator.DEFAULT);
            StringBuilder text = new StringBuilder();
            new TreeMap<>(request.extFields()).forEach((name, value) -> {
                if (!name.equals(RequestSignature.SIGNATURE)) {
                    text.append(value);
                }
            });
            byte[] header = text.toString().getBytes(StandardCharsets.UTF_8);
            byte[] body = request.body();
            signedBytes = Arrays.copyOf(header, header.length + body.length);
            System.arraycopy(body, 0, signedBytes, header.length, body.length);
            try {
                mac = Mac.getInstance("HmacSHA1");
                mac.init(new SecretKeySpec(SECRET.getBytes(StandardCharsets.UTF_8), "HmacSHA1"));
            } catch (GeneralSecurityException e) {
                throw new IllegalStateException(e);
            }
            GateVerdict verdict = gate.check(CLIENT, decode(signedFrame));
            if (!verdict.passed()) {
                throw new IllegalStateException("the benchmark request is refused: " + verdict);
            }
        }

        RemotingCommand decode(ByteBuf frame) throws FrameException {
            ByteBuf view = frame.duplicate();
            view.skipBytes(FrameDescriptor.LENGTH_FIELD_BYTES);
            return codec.decode(view);
        }

        @TearDown(Level.Trial)
        public void close() throws IOException {
            unsignedFrame.release();
            signedFrame.release();
            files.close();
        }
    }

    @Benchmark
    public AppendResult unsignedSend(Broker broker, Blackhole blackhole) throws FrameException {
        blackhole.consume(broker.decode(broker.unsignedFrame));
        return broker.store.append(broker.message).join();
    }

    @Benchmark
    public AppendResult signedSend(Broker broker) throws FrameException {
        GateVerdict verdict = broker.gate.check(CLIENT, broker.decode(broker.signedFrame));
        if (!verdict.passed()) {
            throw new IllegalStateException("refused: " + verdict);
        }
        return broker.store.append(broker.message).join();
    }

    /** {@link #signedSend} on a connection whose signature was verified once ({@code authenticationStrategy}). */
    @Benchmark
    public AppendResult statefulSignedSend(Broker broker) throws FrameException {
        GateVerdict verdict = broker.statefulGate.check(CLIENT, "bench-connection", broker.decode(broker.signedFrame));
        if (!verdict.passed()) {
            throw new IllegalStateException("refused: " + verdict);
        }
        return broker.store.append(broker.message).join();
    }

    /** The floor of any check of Apache's signature: the HMAC-SHA1 alone over the bytes it covers. */
    @Benchmark
    public byte[] hmacAlone(Broker broker) {
        return broker.mac.doFinal(broker.signedBytes);
    }
}
