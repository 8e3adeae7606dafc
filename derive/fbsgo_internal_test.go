package derive

import "testing"

// The Go names flatc 2.0.8 gave these field names (flatc --go on a table
// of them): a Kubernetes object's json names (hostPID, podIPs) are not
// snake_case, and the generated conversion must call what flatc wrote.
func TestFlatcGoName(t *testing.T) {
	for name, want := range map[string]string{
		"hostPID": "HostPid", "podIPs": "PodIps", "resourceID": "ResourceId", "a1b": "A1b",
		"x_y": "XY", "HTTPHeaders": "Httpheaders", "ID": "Id", "fooBar_baz": "FooBarBaz",
		"ipv6Addr": "Ipv6addr", "v1beta1": "V1beta1", "hTTPGet": "HTtpget", "aB_cD": "ABCD",
		"tcp_socket": "TcpSocket", "x__y": "X_y", "k8sURL": "K8sUrl", "already_Snake": "AlreadySnake",
		"abcD1E": "AbcD1e", "_links": "_links", "__x": "_X", "a_": "A_", "_1a": "_1a",
		"created_at": "CreatedAt", "name": "Name",
	} {
		if got := flatcGoName(name); got != want {
			t.Errorf("flatcGoName(%q) = %q, flatc wrote %q", name, got, want)
		}
	}
}
