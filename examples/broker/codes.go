package main

// codeNone is the error code of success; every other code the broker
// answers with comes from wire/kerrors' table (kerrors.UnknownTopicOrPartition.Code...).
const codeNone int16 = 0
