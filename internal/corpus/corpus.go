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
