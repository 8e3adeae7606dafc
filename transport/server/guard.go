package server

import (
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
)

// guard checks the Host and Origin of every request before the mux sees
// it, so that neither a page on another site nor a DNS-rebound one (a
// name of the attacker's that resolves to this server, making Origin and
// Host agree) can use the server from a visitor's browser.
//
// Host must name a loopback name (localhost, *.localhost), an IP address
// (which no DNS answer can rebind), or a name of AllowHosts. A request
// with an Origin header must come from the same origin, a loopback origin
// or one of AllowOrigins. A browser request without Origin that says it is
// cross-site (Sec-Fetch-Site: cross-site, as an <img> or a no-cors fetch
// sends) is refused too. Clients that are not browsers (curl, k6, serbench
// load) send neither header and pass.
type guard struct {
	next      http.Handler
	hosts     map[string]bool
	anyHost   bool
	origins   map[string]bool
	anyOrigin bool
}

func newGuard(next http.Handler, hosts, origins []string) *guard {
	g := &guard{next: next, hosts: map[string]bool{}, origins: map[string]bool{}}
	for _, h := range hosts {
		h = normHost(h)
		if h == "*" {
			g.anyHost = true
		}
		g.hosts[h] = true
	}
	for _, o := range origins {
		o = strings.ToLower(strings.TrimRight(strings.TrimSpace(o), "/"))
		if o == "*" {
			g.anyOrigin = true
		}
		g.origins[o] = true
	}
	return g
}

func (g *guard) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if host := hostOnly(r.Host); !g.hostAllowed(host) {
		http.Error(w, "server: Host "+quoteShort(r.Host)+" not allowed (allowed: localhost, *.localhost, IP addresses; add names with -allow-host)", http.StatusForbidden)
		return
	}
	origin := r.Header.Get("Origin")
	switch {
	case origin != "":
		if !g.originAllowed(origin, r.Host) {
			http.Error(w, "server: Origin "+quoteShort(origin)+" not allowed (allowed: the same origin, loopback origins; add more with -allow-origin)", http.StatusForbidden)
			return
		}
	case r.Header.Get("Sec-Fetch-Site") == "cross-site" && !g.anyOrigin:
		http.Error(w, "server: cross-site browser request without Origin refused (add the page's origin with -allow-origin)", http.StatusForbidden)
		return
	}
	g.next.ServeHTTP(w, r)
}

func (g *guard) hostAllowed(host string) bool {
	return g.anyHost || loopbackName(host) || isIP(host) || g.hosts[host]
}

func (g *guard) originAllowed(origin, reqHost string) bool {
	if g.anyOrigin {
		return true
	}
	u, err := url.Parse(origin)
	if err != nil || u.Host == "" || (u.Scheme != "http" && u.Scheme != "https") {
		return false // "null" (sandboxed pages, file:) among them
	}
	if strings.EqualFold(u.Host, reqHost) {
		return true // same origin; the Host check has passed
	}
	h := hostOnly(u.Host)
	if loopbackName(h) {
		return true
	}
	if ip, err := netip.ParseAddr(h); err == nil && ip.IsLoopback() {
		return true
	}
	return g.origins[strings.ToLower(strings.TrimRight(origin, "/"))]
}

// hostOnly returns the host of a host[:port] without the port, lower case,
// without a trailing dot or IPv6 brackets.
func hostOnly(hostport string) string {
	h := hostport
	if host, _, err := net.SplitHostPort(hostport); err == nil {
		h = host
	}
	return normHost(strings.TrimSuffix(strings.TrimPrefix(h, "["), "]"))
}

func normHost(h string) string { return strings.TrimSuffix(strings.ToLower(strings.TrimSpace(h)), ".") }

func loopbackName(h string) bool { return h == "localhost" || strings.HasSuffix(h, ".localhost") }

func isIP(h string) bool {
	_, err := netip.ParseAddr(h)
	return err == nil
}

// quoteShort quotes s (Go syntax, so control characters are escaped), cut
// to 64 bytes.
func quoteShort(s string) string {
	if len(s) > 64 {
		s = s[:64] + "..."
	}
	return strconv.Quote(s)
}
