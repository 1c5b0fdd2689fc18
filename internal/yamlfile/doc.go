// Package yamlfile bounds what faultbench's YAML loaders (scenario files
// and strategy files) accept before the YAML parser sees a byte.
//
// goccy/go-yaml, the parser, costs time and memory that grow with the
// square of a document's nesting depth (each level rebuilds its whole
// path string) and of the number of keys of one block mapping (each key
// recurses and copies the keys after it): 16,000 nested brackets, a 32 KB
// file, allocate 400 MB; a mapping of 20,000 keys takes seconds and
// 1.6 GB. So a file is refused, with its line, when it is larger than
// MaxBytes, nested deeper than MaxDepth or holds a mapping of more than
// MaxKeys keys; and one that is not text (a NUL byte, invalid UTF-8) is
// refused without quoting it, so that a file such as /proc/self/environ
// named x.yaml is never echoed into a log.
//
// ReadFile reads only regular files: a FIFO, a device, a socket or a
// folder is refused before it is read (a FIFO is opened without blocking),
// so that /dev/zero cannot exhaust memory and a FIFO cannot hang a run.
package yamlfile
