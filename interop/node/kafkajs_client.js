// The interop scenarios with kafkajs 2.2.4 (installed into node_modules by
// interop/install.sh from package-lock.json):
//
//   node kafkajs_client.js --broker 127.0.0.1:9092 [--n 20] [--step NAME]
//
// Every scenario prints "ok kafkajs <step>: ..." or "FAIL kafkajs <step>: ...";
// the exit status is 1 when one failed.
//
// The records follow the rules of interop/internal/scenario (records.go):
// key "key-<i>", value "<topic> value <i> " followed by "kafkagen " i%9 times,
// headers index=<i>, topic=<topic> and, for odd i, an empty "empty" header.
//
// Scenarios: the codecs kafkajs can have without native builds (none, gzip,
// snappy through kafkajs-snappy, and lz4 through lz4codec below; the npm
// lz4 and zstd codecs for kafkajs need node-gyp), a consumer group that
// commits, the idempotent producer, and a transaction aborted and one
// committed, read read_committed. kafkajs only consumes through groups, so
// every read-back is a group of its own.
//
// Against a secured broker (--security-protocol SSL, SASL_PLAINTEXT or
// SASL_SSL, with --ca-file and --sasl-mechanism, --sasl-user,
// --sasl-password) it runs the secured scenarios instead: the records
// produced and read back over that protocol and, with SASL, a wrong password
// that the broker must refuse with SASL_AUTHENTICATION_FAILED.
'use strict'

const fs = require('fs')
const { Kafka, CompressionTypes, CompressionCodecs, logLevel } = require('kafkajs')
const SnappyCodec = require('kafkajs-snappy')
const lz4 = require('lz4js')

// lz4codec is a kafkajs codec over lz4js, a pure-JavaScript LZ4 that reads
// and writes the LZ4 frame format Kafka uses in record batches.
const lz4codec = () => ({
  async compress (encoder) { return Buffer.from(lz4.compress(encoder.buffer)) },
  async decompress (buffer) { return Buffer.from(lz4.decompress(buffer)) }
})

CompressionCodecs[CompressionTypes.Snappy] = SnappyCodec
CompressionCodecs[CompressionTypes.LZ4] = lz4codec

const NAME = 'kafkajs'
const STEP_TIMEOUT_MS = 60000
const WRONG_PASSWORD = 'not-the-password'

// security is how every client reaches the broker, from the command line.
const security = { protocol: 'PLAINTEXT', mechanism: '', user: '', password: '', caFile: '' }
const usesTLS = () => security.protocol === 'SSL' || security.protocol === 'SASL_SSL'
const usesSASL = () => security.protocol.startsWith('SASL_')

// securityOptions are kafkajs's ssl and sasl settings for security.
function securityOptions (password) {
  const opts = {}
  if (usesTLS()) opts.ssl = { ca: [fs.readFileSync(security.caFile)] }
  if (usesSASL()) opts.sasl = { mechanism: security.mechanism.toLowerCase(), username: security.user, password }
  return opts
}

function securityLabel () {
  const label = security.protocol.toLowerCase().replace('_', '-')
  return usesSASL() ? label + '-' + security.mechanism.toLowerCase() : label
}

function securityText () {
  return usesSASL() ? `${security.protocol} with ${security.mechanism} as ${security.user}` : security.protocol
}
const CODECS = {
  none: CompressionTypes.None, gzip: CompressionTypes.GZIP, snappy: CompressionTypes.Snappy, lz4: CompressionTypes.LZ4
}

function records (topic, n) {
  const out = []
  for (let i = 0; i < n; i++) {
    const headers = [['index', Buffer.from(String(i))], ['topic', Buffer.from(topic)]]
    if (i % 2 === 1) headers.push(['empty', Buffer.alloc(0)])
    out.push({
      key: Buffer.from('key-' + i),
      value: Buffer.from(topic + ' value ' + i + ' ' + 'kafkagen '.repeat(i % 9)),
      headers
    })
  }
  return out
}

// check throws on the first difference between consumed and produced records.
function check (got, want, firstOffset) {
  if (got.length !== want.length) throw new Error(`consumed ${got.length} records, produced ${want.length}`)
  want.forEach((w, i) => {
    const g = got[i]
    const at = `record ${i} (offset ${g.offset})`
    if (Number(g.offset) !== firstOffset + i) throw new Error(`${at}: want offset ${firstOffset + i}`)
    if (!w.key.equals(g.key) || !w.value.equals(g.value)) {
      throw new Error(`${at}: ${g.key}=${g.value}, want ${w.key}=${w.value}`)
    }
    const gotHeaders = Object.entries(g.headers || {}).map(([k, v]) => [k, Buffer.from(v || '')])
    const same = gotHeaders.length === w.headers.length &&
      w.headers.every(([k, v], j) => gotHeaders[j][0] === k && gotHeaders[j][1].equals(v))
    if (!same) throw new Error(`${at}: headers ${JSON.stringify(gotHeaders)}, want ${JSON.stringify(w.headers)}`)
  })
}

function kafka (broker, step, password = security.password) {
  return new Kafka({
    clientId: NAME + '-' + step,
    brokers: [broker],
    logLevel: logLevel.ERROR,
    connectionTimeout: 10000,
    requestTimeout: 20000,
    retry: { retries: 5, initialRetryTime: 100 },
    ...securityOptions(password)
  })
}

async function createTopic (broker, topic) {
  const admin = kafka(broker, 'admin').admin()
  await admin.connect()
  try {
    await admin.createTopics({ topics: [{ topic, numPartitions: 1, replicationFactor: 1 }], waitForLeaders: true })
  } finally {
    await admin.disconnect()
  }
}

async function produce (producer, topic, rs, compression, acks) {
  await producer.send({
    topic,
    acks,
    compression,
    messages: rs.map(r => ({ key: r.key, value: r.value, headers: Object.fromEntries(r.headers), partition: 0 }))
  })
}

// consume reads n records of topic from its start in group groupId and
// returns them with the consumer, still in the group, for the caller to
// inspect and disconnect.
async function consume (broker, step, topic, groupId, n, opts = {}) {
  const consumer = kafka(broker, step).consumer({
    groupId, maxWaitTimeInMs: 200, sessionTimeout: 10000, rebalanceTimeout: 10000, ...opts
  })
  await consumer.connect()
  await consumer.subscribe({ topics: [topic], fromBeginning: true })
  const got = []
  let resolve
  const done = new Promise(r => { resolve = r })
  await consumer.run({
    autoCommit: false,
    eachMessage: async ({ message }) => {
      got.push(message)
      if (got.length === n) resolve()
    }
  })
  await done
  return { consumer, got }
}

async function produceConsume (broker, n, step, compression) {
  const topic = NAME + '-' + step
  await createTopic(broker, topic)
  const want = records(topic, n)
  const producer = kafka(broker, step).producer()
  await producer.connect()
  try {
    await produce(producer, topic, want, compression, 1)
  } finally {
    await producer.disconnect()
  }
  const { consumer, got } = await consume(broker, step + '-consumer', topic, topic + '-reader', n)
  await consumer.disconnect()
  check(got, want, 0)
  return `${n} records produced and read back from ${topic}`
}

async function idempotent (broker, n) {
  const step = 'idempotent'
  const topic = NAME + '-' + step
  await createTopic(broker, topic)
  const want = records(topic, n)
  const producer = kafka(broker, step).producer({ idempotent: true, maxInFlightRequests: 1 })
  await producer.connect()
  try {
    await produce(producer, topic, want.slice(0, n / 2), CompressionTypes.None, -1)
    await produce(producer, topic, want.slice(n / 2), CompressionTypes.None, -1)
  } finally {
    await producer.disconnect()
  }
  const { consumer, got } = await consume(broker, step + '-consumer', topic, topic + '-reader', n)
  await consumer.disconnect()
  check(got, want, 0)
  return `${n} records in two idempotent rounds read back`
}

async function group (broker, n) {
  const step = 'group'
  const topic = NAME + '-' + step
  await createTopic(broker, topic)
  const want = records(topic, n)
  const producer = kafka(broker, step + '-producer').producer()
  await producer.connect()
  await produce(producer, topic, want, CompressionTypes.None, 1)
  await producer.disconnect()

  const { consumer, got } = await consume(broker, step, topic, topic, n)
  try {
    check(got, want, 0)
    await consumer.commitOffsets([{ topic, partition: 0, offset: String(n) }])
    const admin = kafka(broker, step + '-admin').admin()
    await admin.connect()
    try {
      const offsets = await admin.fetchOffsets({ groupId: topic, topics: [topic] })
      const committed = offsets[0].partitions.find(p => p.partition === 0)
      if (!committed || Number(committed.offset) !== n) {
        throw new Error(`group ${topic} committed ${JSON.stringify(offsets)}, want offset ${n}`)
      }
      const { groups } = await admin.describeGroups([topic])
      if (groups.length !== 1 || groups[0].state !== 'Stable' || groups[0].members.length !== 1) {
        throw new Error(`describe groups ${topic}: ${JSON.stringify(groups)}, want one Stable group with one member`)
      }
      const listed = await admin.listGroups()
      if (!listed.groups.some(g => g.groupId === topic)) {
        throw new Error(`list groups: ${topic} missing from ${JSON.stringify(listed.groups)}`)
      }
    } finally {
      await admin.disconnect()
    }
  } finally {
    await consumer.disconnect()
  }
  return `group ${topic} consumed ${n} records, committed offset ${n}, described Stable, left`
}

// transactions aborts n records, commits n more, and reads read_committed:
// only the committed ones, after the abort marker (offsets n+1 to 2n).
async function transactions (broker, n) {
  const step = 'txn'
  const topic = NAME + '-' + step
  await createTopic(broker, topic)
  const rs = records(topic, 2 * n)
  const producer = kafka(broker, step).producer({ transactionalId: topic, idempotent: true, maxInFlightRequests: 1 })
  await producer.connect()
  try {
    const aborted = await producer.transaction()
    await produce(aborted, topic, rs.slice(0, n), CompressionTypes.None, -1)
    await aborted.abort()
    const committed = await producer.transaction()
    await produce(committed, topic, rs.slice(n), CompressionTypes.None, -1)
    await committed.commit()
  } finally {
    await producer.disconnect()
  }
  const { consumer, got } = await consume(broker, step + '-consumer', topic, topic + '-reader', n, { readUncommitted: false })
  await consumer.disconnect()
  check(got, rs.slice(n), n + 1)
  return `aborted ${n} and committed ${n} records; read_committed saw offsets ${n + 1}-${2 * n} only`
}

// wrongPassword connects an admin client with the wrong password. kafkajs
// turns SASL_AUTHENTICATION_FAILED (58) into a KafkaJSSASLAuthenticationError
// that quotes the broker's message, which it reads from the answer only when
// the code is 58 (other codes get kafkajs's own descriptions).
async function wrongPassword (broker, step) {
  const want = security.mechanism === 'PLAIN'
    ? 'Authentication failed: Invalid username or password'
    : 'Authentication failed during authentication due to invalid credentials with SASL mechanism ' + security.mechanism
  const admin = kafka(broker, step, WRONG_PASSWORD).admin()
  try {
    await admin.connect()
  } catch (e) {
    if (e.name !== 'KafkaJSSASLAuthenticationError' || !e.message.includes(want)) {
      throw new Error(`a wrong password got ${e.name}: ${e.message}, want KafkaJSSASLAuthenticationError with "${want}"`)
    }
    return `a wrong password refused: ${e.name}: ${e.message}`
  } finally {
    await admin.disconnect()
  }
  throw new Error('a wrong password was accepted')
}

function secureSteps (broker, n) {
  const label = securityLabel()
  const out = [[label + '-none', async () =>
    `${await produceConsume(broker, n, label + '-none', CompressionTypes.None)} over ${securityText()}`]]
  if (usesSASL()) out.push([label + '-wrong-password', () => wrongPassword(broker, label + '-wrong-password')])
  return out
}

function steps (broker, n) {
  if (security.protocol !== 'PLAINTEXT') return secureSteps(broker, n)
  const out = Object.entries(CODECS).map(([name, codec]) => [name, () => produceConsume(broker, n, name, codec)])
  out.push(['idempotent', () => idempotent(broker, n)])
  out.push(['group', () => group(broker, n)])
  out.push(['txn', () => transactions(broker, n)])
  return out
}

function withTimeout (promise, ms) {
  let timer
  const expired = new Promise((resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${ms}ms`)), ms)
  })
  return Promise.race([promise, expired]).finally(() => clearTimeout(timer))
}

async function main () {
  const args = { broker: '', n: 20, step: '' }
  const securityFlags = {
    'security-protocol': 'protocol', 'sasl-mechanism': 'mechanism', 'sasl-user': 'user', 'sasl-password': 'password', 'ca-file': 'caFile'
  }
  for (let i = 2; i < process.argv.length; i += 2) {
    const flag = process.argv[i].replace(/^--?/, '')
    if (flag in securityFlags) {
      security[securityFlags[flag]] = process.argv[i + 1]
      continue
    }
    if (!(flag in args)) throw new Error(`unknown flag ${process.argv[i]}`)
    args[flag] = flag === 'n' ? Number(process.argv[i + 1]) : process.argv[i + 1]
  }
  if (!args.broker || !(args.n >= 2)) throw new Error('need --broker host:port and --n >= 2')
  let failed = 0
  for (const [name, run] of steps(args.broker, args.n)) {
    if (args.step && name !== args.step) continue
    const start = Date.now()
    try {
      const detail = await withTimeout(run(), STEP_TIMEOUT_MS)
      console.log(`ok ${NAME} ${name}: ${detail} (${Date.now() - start}ms)`)
    } catch (e) {
      failed++
      console.log(`FAIL ${NAME} ${name}: ${e.message} (after ${Date.now() - start}ms)`)
    }
  }
  return failed ? 1 : 0
}

main().then(code => process.exit(code), e => { console.error(`kafkajs client: ${e.message}`); process.exit(2) })
