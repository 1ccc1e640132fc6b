//go:build corpus

package conformance

import (
	"github.com/kafkagen/kafkagen/conformance/gen/clients"
	"github.com/kafkagen/kafkagen/conformance/gen/clientstest"
	"github.com/kafkagen/kafkagen/conformance/gen/groupcoordinator"
	"github.com/kafkagen/kafkagen/conformance/gen/metadata"
	"github.com/kafkagen/kafkagen/conformance/gen/raft"
	"github.com/kafkagen/kafkagen/conformance/gen/sharecoordinator"
	"github.com/kafkagen/kafkagen/conformance/gen/storage"
	"github.com/kafkagen/kafkagen/conformance/gen/streams"
	"github.com/kafkagen/kafkagen/conformance/gen/transactioncoordinator"
	"github.com/kafkagen/kafkagen/runtime"
)

// genPackage is the registry of one package generated from the corpus.
type genPackage struct {
	newByName func(string) runtime.Message
	specNames func() []string
}

// packages maps corpus.Dir.Package to its generated package.
var packages = map[string]genPackage{
	"clients":                {clients.NewByName, clients.SpecNames},
	"clientstest":            {clientstest.NewByName, clientstest.SpecNames},
	"groupcoordinator":       {groupcoordinator.NewByName, groupcoordinator.SpecNames},
	"metadata":               {metadata.NewByName, metadata.SpecNames},
	"raft":                   {raft.NewByName, raft.SpecNames},
	"sharecoordinator":       {sharecoordinator.NewByName, sharecoordinator.SpecNames},
	"storage":                {storage.NewByName, storage.SpecNames},
	"streams":                {streams.NewByName, streams.SpecNames},
	"transactioncoordinator": {transactioncoordinator.NewByName, transactioncoordinator.SpecNames},
}
