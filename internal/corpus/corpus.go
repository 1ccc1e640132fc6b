// Package corpus locates Apache Kafka's upstream spec corpus (KAFKA_SPEC_DIR)
// and names the Go package generated from each of its spec folders.
package corpus

import (
	"os"
	"path/filepath"
	"runtime"
)

// Dir is one spec folder of the corpus and the Go package made from it.
type Dir struct {
	Package string // Go package name under conformance/gen
	Module  string // the "module" label of the Java vectors
	Path    string // folder relative to the corpus root
}

// Dirs are the corpus folders: the nine spec directories of the snapshot,
// counting the clients test fixtures separately.
var Dirs = []Dir{
	{"clients", "clients", "clients/src/main/resources/common/message"},
	{"clientstest", "clients", "clients/src/test/resources/common/message"},
	{"groupcoordinator", "group-coordinator", "group-coordinator/src/main/resources/common/message"},
	{"metadata", "metadata", "metadata/src/main/resources/common/metadata"},
	{"raft", "raft", "raft/src/main/resources/common/message"},
	{"sharecoordinator", "share-coordinator", "share-coordinator/src/main/resources/common/message"},
	{"storage", "storage", "storage/src/main/resources/message"},
	{"streams", "streams", "streams/src/main/resources/common/message"},
	{"transactioncoordinator", "transaction-coordinator", "transaction-coordinator/src/main/resources/common/message"},
}

// ModuleRoot is the repository root (the folder holding go.mod).
func ModuleRoot() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..")
}

// SpecDir is KAFKA_SPEC_DIR, or ../shared/kafka-spec beside the repository.
func SpecDir() string {
	if d := os.Getenv("KAFKA_SPEC_DIR"); d != "" {
		return d
	}
	return filepath.Join(ModuleRoot(), "..", "shared", "kafka-spec")
}

// VectorDir is KAFKA_VECTORS_DIR, or ../shared/kafka-vectors beside the repository.
func VectorDir() string {
	if d := os.Getenv("KAFKA_VECTORS_DIR"); d != "" {
		return d
	}
	return filepath.Join(ModuleRoot(), "..", "shared", "kafka-vectors")
}

// Available reports whether the corpus is present.
func Available() bool {
	st, err := os.Stat(filepath.Join(SpecDir(), Dirs[0].Path))
	return err == nil && st.IsDir()
}

// ReleaseDirs are the spec folders of Kafka releases (KAFKA_SPEC_RELEASES_DIR)
// that the conformance suite generates beside the corpus: Kafka 4.1.1's
// client protocol, which the java-4.1.1 vectors and the kmsg differential
// check, and its coordinator records, which kmsg knows in part. Path is
// relative to the releases root.
var ReleaseDirs = []Dir{
	{"k411clients", "clients", "4.1.1/clients/src/main/resources/common/message"},
	{"k411groupcoordinator", "group-coordinator", "4.1.1/group-coordinator/src/main/resources/common/message"},
	{"k411sharecoordinator", "share-coordinator", "4.1.1/share-coordinator/src/main/resources/common/message"},
	{"k411transactioncoordinator", "transaction-coordinator", "4.1.1/transaction-coordinator/src/main/resources/common/message"},
}

// ReleasesDir is KAFKA_SPEC_RELEASES_DIR, or ../shared/kafka-spec-releases
// beside the repository.
func ReleasesDir() string {
	if d := os.Getenv("KAFKA_SPEC_RELEASES_DIR"); d != "" {
		return d
	}
	return filepath.Join(ModuleRoot(), "..", "shared", "kafka-spec-releases")
}

// ReleasesAvailable reports whether every folder of ReleaseDirs is present.
func ReleasesAvailable() bool {
	for _, d := range ReleaseDirs {
		st, err := os.Stat(filepath.Join(ReleasesDir(), d.Path))
		if err != nil || !st.IsDir() {
			return false
		}
	}
	return true
}
