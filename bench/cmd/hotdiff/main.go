// Command hotdiff compares the methods that encode and decode in two
// generated packages (two kafkagen versions' output for the same specs): a
// change to the generator that leaves them alike cannot have changed the
// generated code's speed, whatever a noisy benchmark says.
//
//	go run ./cmd/hotdiff OLD_DIR NEW_DIR
//
// It prints how many of those methods are the same, how many differ only
// in lines that build an error (paths taken when encoding fails), and
// names the others; it exits 1 when any differs otherwise.
package main

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/parser"
	"go/printer"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// hot are the methods on the encode and decode paths.
var hot = map[string]bool{
	"decode": true, "appendTo": true, "size": true, "Reset": true,
	"Decode": true, "DecodeAliased": true, "AppendTo": true, "Size": true,
}

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: hotdiff OLD_DIR NEW_DIR")
		os.Exit(2)
	}
	old, err := hotMethods(os.Args[1])
	if err == nil {
		var cur map[string]string
		if cur, err = hotMethods(os.Args[2]); err == nil {
			os.Exit(report(old, cur))
		}
	}
	fmt.Fprintln(os.Stderr, "hotdiff:", err)
	os.Exit(2)
}

// report prints the comparison and returns the exit code.
func report(old, cur map[string]string) int {
	var same, errorsOnly int
	var differ, gone, added []string
	for name, body := range old {
		now, ok := cur[name]
		switch {
		case !ok:
			gone = append(gone, name)
		case now == body:
			same++
		case withoutErrorLines(now) == withoutErrorLines(body):
			errorsOnly++
		default:
			differ = append(differ, name)
		}
	}
	for name := range cur {
		if _, ok := old[name]; !ok {
			added = append(added, name)
		}
	}
	fmt.Printf("hot methods: %d, same %d, differing only in lines that build an error %d, differing otherwise %d, only in the old package %d, only in the new %d\n",
		len(old), same, errorsOnly, len(differ), len(gone), len(added))
	for _, list := range []struct {
		what  string
		names []string
	}{{"differs", differ}, {"only old", gone}, {"only new", added}} {
		slices.Sort(list.names)
		for _, n := range list.names {
			fmt.Printf("  %s: %s\n", list.what, n)
		}
	}
	if len(differ)+len(gone)+len(added) > 0 {
		return 1
	}
	return 0
}

// hotMethods maps "Receiver.method" to the printed source of each hot
// method of the package in dir.
func hotMethods(dir string) (map[string]string, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil || len(files) == 0 {
		return nil, fmt.Errorf("%s: no Go files", dir)
	}
	out := map[string]string{}
	for _, file := range files {
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, file, nil, 0)
		if err != nil {
			return nil, err
		}
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Recv == nil || !hot[fd.Name.Name] {
				continue
			}
			var recv, src bytes.Buffer
			if err := printer.Fprint(&recv, fset, fd.Recv.List[0].Type); err != nil {
				return nil, err
			}
			if err := printer.Fprint(&src, fset, fd); err != nil {
				return nil, err
			}
			out[strings.TrimPrefix(recv.String(), "*")+"."+fd.Name.Name] = src.String()
		}
	}
	return out, nil
}

// withoutErrorLines drops the lines that call an error constructor.
func withoutErrorLines(src string) string {
	lines := strings.Split(src, "\n")
	return strings.Join(slices.DeleteFunc(lines, func(l string) bool { return strings.Contains(l, "Error(") }), "\n")
}
