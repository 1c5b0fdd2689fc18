//go:build !unix

package fakeclient

// tree knows no policy where there is no setsid.
func tree(string) (int, bool) { return 0, false }
