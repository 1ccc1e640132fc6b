// Package compat checks that a Kafka message spec can evolve into another:
// that a new spec file (a KIP draft, the next release) keeps the wire format
// of every version the old one defined, and changes nothing that old readers
// and writers rely on. It is the model behind `kafkagen compat`.
//
// # The question asked
//
// A spec defines one encoding per version. Old and new peers can talk at a
// version when both specs define it and encode it the same way, so the
// checks look at the shared versions: the versions both validVersions
// ranges hold, less the old spec's early-access versions (below). Every
// rule reports the exact versions at which it fails, computed with interval
// arithmetic over the version ranges, never version by version, and the
// comparison walks each pair of structs once per span of versions: time is
// bounded by the size of the two files, whatever they contain.
//
// # Rules for the whole spec
//
//   - name, type and apiKey stay the same (an apiKey given on one side only
//     is a change).
//   - validVersions: the maximum never falls (a maximum that was unstable may
//     go); no version is added below the old minimum; at least one version
//     stays shared. The minimum may rise for requests, responses and headers,
//     whose peers negotiate versions (ApiVersions): a peer that only speaks
//     a dropped version is refused, loudly, so the drop is a removal (see
//     Severities). It may not rise for metadata and data specs, whose
//     records of every version stay in logs and snapshots that new code must
//     still read.
//   - an API removed whole ("validVersions": "none", as Kafka 4.0 removed
//     LeaderAndIsr, StopReplica, UpdateMetadata and ControlledShutdown) is a
//     removal of every old version; nothing else of it is compared.
//   - flexibleVersions only grow: no version at or above the new minimum
//     stops being flexible (flexibility may not start later), and no shared
//     version becomes flexible (its encoding would change under old peers).
//
// # Rules for fields
//
// Fields are matched by name within each pair of structs, the message body
// first, then recursively through struct and struct-array fields, common
// structs included (a struct may move between inline and common freely).
// Fields left over on both sides are matched as renames when they take the
// same slot on the wire with the same type: the same tag, or the same place
// between the fields matched by name with the same shared versions. For each
// matched pair, at the shared versions where the struct is written:
//
//   - renamed: a violation. The wire does not change, but the JSON form
//     (Kafka's request log, kafkagen's MarshalJSON and dump) and the
//     generated names do.
//   - type: the same wire type (array or not, element kind). A struct type
//     may be renamed (a note) and its fields are compared in turn.
//   - versions: a non-tagged field is written at exactly the same shared
//     versions; a tagged field may be added at shared versions (old readers
//     skip unknown tags) but not dropped from them.
//   - taggedVersions and tag: a field never moves between the fixed fields
//     and the tag section at a shared version, and keeps its tag.
//   - nullableVersions: the same at every shared version where the field is
//     written: a null one side may send is a null the other cannot read.
//   - order: fields of the fixed part are written in the same order.
//   - own flexibleVersions (string and bytes fields): the same length
//     encoding at every shared version.
//   - ignorable: a field may not become ignorable where it is absent at a
//     shared version (writers would drop values silently, and readers take
//     the default for what the sender meant); the reverse is noted.
//   - default: compared as values, not text ("0x10" equals "16"). A change is
//     a violation where readers fill the default in: at shared versions where
//     the field is tagged (writers omit a tagged field holding its default) or
//     absent from both specs; elsewhere it is noted.
//
// An old field with no partner may go only if it is not written at any
// shared version (it lived in versions since dropped). A new field with no
// partner must be tagged, or start above the highest shared version. A new
// tagged field may not take a tag that another old field used at a shared
// version: old readers would read it as that field.
//
// entityType, about, mapKey and zeroCopy do not reach the wire and are not
// compared.
//
// # Severities
//
// Each finding has a severity. A violation changes the bytes or the meaning
// of a version both specs define: peers misread each other without
// noticing. A removal is request, response or header versions the new
// spec no longer has: nothing shared changes, but a peer still sending
// them is refused, so removals are shown and counted apart from
// violations. An early-access change is any finding at a version the old
// spec declared early access, which Kafka changes in place (KIP-932's
// share group versions 0 of 3.9 and 4.0): the old spec's latest version
// when it is marked latestVersionUnstable, or when it is a response whose
// request beside it is so marked (responses carry no flag), and every
// version of a file whose comment says the schema "is subject to
// non-backwards-compatible changes". Those versions are compared on their
// own, so the changes are visible without counting as broken promises. A
// note is information that no old reader or writer gets wrong.
//
// # Coordinator records
//
// Kafka 4.1 retyped the coordinators' records from data to coordinator-key
// and coordinator-value, keyed by apiKey (the record type). A retyped value
// is compared as it is; a retyped key's old version k, where k is its new
// apiKey, is compared with its version 0: the int16 before a record's key
// that 4.0 read as the key's version is the record type 4.1 reads, so the
// bytes are the same (docs/protocol.md).
//
// # Trees of specs
//
// CompareTrees pairs the *.json files of two folders by file name, searching
// both recursively (a flat folder such as schemas/ against a Kafka checkout's
// module folders). A spec in one tree only is a note, not a violation: APIs
// come and go, and a KIP draft covers a few specs of a release. A spec that
// does not load cannot be checked, which is a violation, reported with the
// loader's own diagnostics; Options give each side the loader rules of its
// Kafka release.
//
// # Compared with Kafka's checker
//
// Kafka's own checker (EvolutionVerifier and Unifier, in its generator's
// checker package) pairs fields by position and compares type, versions,
// nullable versions, flexible versions and default texts. This package adds
// tags, tagged versions, the ignorable flag, renames, order, tag reuse and
// the rules on dropped versions; it compares every spec with itself cleanly
// (Kafka's reports any spec declaring a struct as "specified twice"), loads
// specs without fields, and cannot loop.
package compat
