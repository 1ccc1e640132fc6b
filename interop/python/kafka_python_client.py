"""The interop scenarios with kafka-python (Debian's python3-kafka).

Run with Debian's interpreter, which has the package:

    /usr/bin/python3 kafka_python_client.py --broker 127.0.0.1:9092 [--n 20]

Every scenario prints "ok kafka-python <step>: ..." or
"FAIL kafka-python <step>: ..."; the exit status is 1 when one failed.

The records follow the rules of interop/internal/scenario (records.go):
key "key-<i>", value "<topic> value <i> " followed by "kafkagen " i%9 times,
timestamp 1600000000000+i (milliseconds, CreateTime), headers index=<i>,
topic=<topic> and, for odd i, an empty "empty" header.

Scenarios: every codec kafka-python has here (none, gzip, snappy, lz4, zstd)
at the protocol the broker announces, a consumer group that commits, and
the same again at api_version=(0, 10, 1), where message sets v1 cross the
wire (without headers, which they cannot carry). kafka-python 2.0.2 has no
idempotent producer.

Against a secured broker (--security-protocol SSL, SASL_PLAINTEXT or
SASL_SSL, with --ca-file and --sasl-mechanism, --sasl-user,
--sasl-password) it runs the secured scenarios instead: the records
produced and read back over that protocol and, with SASL, a wrong password
that the broker must refuse.

With --read-topic T it only reads partition 0 of T from the start at
api_version=(0, 10, 1) (message sets v1, through kafkaproxy -bridge in the
interop suite) and checks the records against the rules above: keys,
values, offsets from 0 and timestamps, no headers.
"""

import argparse
import sys
import time

from kafka import KafkaAdminClient, KafkaConsumer, KafkaProducer, TopicPartition
from kafka.admin import NewTopic
from kafka.errors import NoBrokersAvailable, TopicAlreadyExistsError

NAME = "kafka-python"
CODECS = ["none", "gzip", "snappy", "lz4", "zstd"]
STEP_TIMEOUT = 60.0
WRONG_PASSWORD = "not-the-password"
TIMESTAMP_BASE = 1600000000000  # scenario.TimestampBase
OLD_API_VERSION = (0, 10, 1)


def records(topic, n, with_headers):
    """The records a client produces to topic (see the module docstring)."""
    out = []
    for i in range(n):
        headers = []
        if with_headers:
            headers = [("index", str(i).encode()), ("topic", topic.encode())]
            if i % 2 == 1:
                headers.append(("empty", b""))
        value = topic + " value " + str(i) + " " + "kafkagen " * (i % 9)
        out.append({"key": ("key-" + str(i)).encode(), "value": value.encode(), "headers": headers,
                    "timestamp": TIMESTAMP_BASE + i})
    return out


def check(got, want, first_offset):
    """Raises on the first difference between consumed and produced records."""
    if len(got) != len(want):
        raise AssertionError("consumed %d records, produced %d" % (len(got), len(want)))
    for i, (g, w) in enumerate(zip(got, want)):
        if g.offset != first_offset + i:
            raise AssertionError("record %d: offset %d, want %d" % (i, g.offset, first_offset + i))
        if g.key != w["key"] or g.value != w["value"]:
            raise AssertionError("record %d (offset %d): %r=%r, want %r=%r"
                                 % (i, g.offset, g.key, g.value, w["key"], w["value"]))
        got_headers = [(k, bytes(v or b"")) for k, v in (g.headers or [])]
        if got_headers != w["headers"]:
            raise AssertionError("record %d (offset %d): headers %r, want %r"
                                 % (i, g.offset, got_headers, w["headers"]))
        # CreateTime is timestamp_type 0; every api_version run here reads
        # a format with timestamps (magic 1 or 2).
        if g.timestamp != w["timestamp"] or g.timestamp_type != 0:
            raise AssertionError("record %d (offset %d): timestamp %r (type %r), want %d (CreateTime, 0)"
                                 % (i, g.offset, g.timestamp, g.timestamp_type, w["timestamp"]))


class Client:
    """Runs the steps against one broker."""

    def __init__(self, broker, n, security):
        self.broker = broker
        self.n = n
        self.security = security

    def common(self, step, api_version):
        """Settings every kafka-python object of a step shares."""
        conf = {"bootstrap_servers": [self.broker], "client_id": NAME + "-" + step,
                "request_timeout_ms": 20000}
        conf.update(self.security.settings())
        if api_version is not None:
            conf["api_version"] = api_version
        return conf

    def create_topic(self, topic):
        admin = KafkaAdminClient(**self.common("admin", None))
        try:
            admin.create_topics([NewTopic(topic, 1, 1)], timeout_ms=10000)
        except TopicAlreadyExistsError:
            pass
        finally:
            admin.close()

    def produce(self, step, topic, rs, codec, api_version):
        producer = KafkaProducer(acks=1, linger_ms=50, compression_type=None if codec == "none" else codec,
                                 **self.common(step, api_version))
        try:
            futures = [producer.send(topic, key=r["key"], value=r["value"], headers=r["headers"] or None,
                                     partition=0, timestamp_ms=r["timestamp"]) for r in rs]
            producer.flush(timeout=STEP_TIMEOUT)
            for f in futures:
                f.get(timeout=STEP_TIMEOUT)
        finally:
            producer.close(timeout=10)

    def poll(self, consumer, n, what):
        got = []
        deadline = time.monotonic() + STEP_TIMEOUT
        while len(got) < n:
            if time.monotonic() > deadline:
                raise TimeoutError("%s: %d of %d records after %ds" % (what, len(got), n, STEP_TIMEOUT))
            for batch in consumer.poll(timeout_ms=500).values():
                got.extend(batch)
        return got

    def produce_consume(self, step, codec, api_version):
        topic = NAME + "-" + step
        self.create_topic(topic)
        want = records(topic, self.n, api_version is None)
        self.produce(step, topic, want, codec, api_version)
        check(self.consume(step + "-consumer", topic, want, api_version), want, 0)
        return "%d records produced and read back from %s, timestamps included" % (len(want), topic)

    def consume(self, step, topic, want, api_version):
        """Reads len(want) records of partition 0 of topic from the start."""
        consumer = KafkaConsumer(enable_auto_commit=False, fetch_max_wait_ms=200,
                                 **self.common(step, api_version))
        try:
            tp = TopicPartition(topic, 0)
            consumer.assign([tp])
            consumer.seek_to_beginning(tp)
            return self.poll(consumer, len(want), "consume " + topic)
        finally:
            consumer.close()

    def read_topic(self, topic):
        """Reads what another client wrote to topic, at the old protocol,
        and prints each record ("record <offset> <timestamp> <key hex>
        <value hex>") for the harness to compare as well."""
        want = records(topic, self.n, False)
        got = self.consume("v0.10.1-reads-" + topic, topic, want, OLD_API_VERSION)
        for g in got:
            timestamp = -1 if g.timestamp is None else g.timestamp
            print("record %d %d %s %s" % (g.offset, timestamp, (g.key or b"").hex(), (g.value or b"").hex()))
        check(got, want, 0)
        return "%d records of %s read at api_version=%s, timestamps included" % (len(want), topic, OLD_API_VERSION)

    def group(self, step, api_version):
        topic = NAME + "-" + step
        group_id = topic
        self.create_topic(topic)
        want = records(topic, self.n, api_version is None)
        self.produce(step + "-producer", topic, want, "none", api_version)
        consumer = KafkaConsumer(topic, group_id=group_id, enable_auto_commit=False, auto_offset_reset="earliest",
                                 fetch_max_wait_ms=200, **self.common(step, api_version))
        try:
            check(self.poll(consumer, len(want), "group " + group_id), want, 0)
            consumer.commit()
            committed = consumer.committed(TopicPartition(topic, 0))
            if committed != len(want):
                raise AssertionError("group %s committed offset %r, want %d" % (group_id, committed, len(want)))
            self.check_group(step, group_id)
        finally:
            consumer.close()
        return "group %s consumed %d records, committed offset %d, described Stable, left" % (
            group_id, len(want), len(want))

    def check_group(self, step, group_id):
        admin = KafkaAdminClient(**self.common(step + "-admin", None))
        try:
            desc = admin.describe_consumer_groups([group_id])
            if len(desc) != 1 or desc[0].state != "Stable" or len(desc[0].members) != 1:
                raise AssertionError("describe groups %s: %r, want one Stable group with one member" % (group_id, desc))
            groups = [g for g, _ in admin.list_consumer_groups()]
            if group_id not in groups:
                raise AssertionError("list groups: %s missing from %r" % (group_id, groups))
        finally:
            admin.close()

    def wrong_password(self, step):
        """A wrong password must be refused. kafka-python 2.0.2 authenticates
        with SaslHandshake v0 and bare tokens, where a broker has no way to
        answer SASL_AUTHENTICATION_FAILED (58) and closes the connection
        instead, as Kafka does: what kafka-python reports is that no broker
        is available."""
        self.security.password, right = WRONG_PASSWORD, self.security.password
        try:
            admin = KafkaAdminClient(**self.common(step, None))
            admin.close()
        except NoBrokersAvailable:
            return ("a wrong password refused: the broker closed the connection after the v0 token exchange, "
                    "kafka-python reports NoBrokersAvailable")
        finally:
            self.security.password = right
        raise AssertionError("a wrong password was accepted")

    def secure_steps(self):
        label = self.security.label()
        out = [(label + "-none", lambda s=label + "-none": "%s over %s" % (
            self.produce_consume(s, "none", None), self.security))]
        if self.security.uses_sasl():
            out.append((label + "-wrong-password", lambda s=label + "-wrong-password": self.wrong_password(s)))
        return out

    def steps(self):
        if self.security.protocol != "PLAINTEXT":
            return self.secure_steps()
        out = []
        for api_version, label, codecs in [(None, "", CODECS), (OLD_API_VERSION, "v0.10.1-", CODECS[:4])]:
            for codec in codecs:
                out.append((label + codec, lambda c=codec, v=api_version, s=label + codec: self.produce_consume(s, c, v)))
            out.append((label + "group", lambda v=api_version, s=label + "group": self.group(s, v)))
        return out


class Security:
    """How the client reaches a secured broker (see scenario/security.go)."""

    def __init__(self, args):
        self.protocol = args.security_protocol
        self.mechanism = args.sasl_mechanism
        self.user = args.sasl_user
        self.password = args.sasl_password
        self.ca_file = args.ca_file

    def uses_sasl(self):
        return self.protocol.startswith("SASL_")

    def uses_tls(self):
        return self.protocol in ("SSL", "SASL_SSL")

    def label(self):
        label = self.protocol.lower().replace("_", "-")
        return label + "-" + self.mechanism.lower() if self.uses_sasl() else label

    def settings(self):
        """kafka-python's settings for the protocol; none for PLAINTEXT."""
        if self.protocol == "PLAINTEXT":
            return {}
        conf = {"security_protocol": self.protocol}
        if self.uses_tls():
            conf["ssl_cafile"] = self.ca_file
        if self.uses_sasl():
            conf.update(sasl_mechanism=self.mechanism, sasl_plain_username=self.user,
                        sasl_plain_password=self.password)
        return conf

    def __str__(self):
        if self.uses_sasl():
            return "%s with %s as %s" % (self.protocol, self.mechanism, self.user)
        return self.protocol


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--broker", required=True, help="broker address, host:port")
    parser.add_argument("--n", type=int, default=20, help="records per scenario")
    parser.add_argument("--step", default="", help="run only the scenario of this name")
    parser.add_argument("--security-protocol", default="PLAINTEXT",
                        choices=["PLAINTEXT", "SSL", "SASL_PLAINTEXT", "SASL_SSL"])
    parser.add_argument("--sasl-mechanism", default="", choices=["", "PLAIN", "SCRAM-SHA-256", "SCRAM-SHA-512"])
    parser.add_argument("--sasl-user", default="")
    parser.add_argument("--sasl-password", default="")
    parser.add_argument("--ca-file", default="", help="PEM file of the CA that signed the broker's certificate")
    parser.add_argument("--read-topic", default="", help="only read this topic at api_version=(0, 10, 1)")
    args = parser.parse_args()
    failed = 0
    client = Client(args.broker, args.n, Security(args))
    steps = client.steps()
    if args.read_topic:
        steps = [("v0.10.1-reads-" + args.read_topic, lambda: client.read_topic(args.read_topic))]
    for name, run in steps:
        if args.step and name != args.step:
            continue
        start = time.monotonic()
        try:
            detail = run()
        except Exception as e:  # every failure is reported, the next step still runs
            failed += 1
            print("FAIL %s %s: %s: %s (after %dms)" % (NAME, name, type(e).__name__, e,
                                                       (time.monotonic() - start) * 1000), flush=True)
            continue
        print("ok %s %s: %s (%dms)" % (NAME, name, detail, (time.monotonic() - start) * 1000), flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
