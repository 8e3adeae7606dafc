//go:build linux

// Command deliveryfloor measures what one delivered message costs on this
// machine with nothing but TCP under it: no WebSocket framing, no codec,
// no stream bookkeeping. It is the floor under `serbench load`'s "CPU per
// message received" (docs/transport.md, "Cost per delivered message"):
// if the floor times 100,000 deliveries a second does not fit the
// machine's cores, no server written in Go over loopback TCP holds
// 100,000 subscribers at one message a second each on it.
//
//	go run ./scripts/deliveryfloor [-conns 10000] [-fanout 100] [-rate 100000] [-size 100] [-duration 20s] [-server direct|queue] [-client go|epoll]
//
// The server is this program again in a child process. It accepts -conns
// loopback TCP connections, deals them into -conns/-fanout streams and,
// once the client says go, publishes -rate messages a second in total
// (each stream its share, from its own ticker), each a -size byte write
// on every connection of the stream: -server direct writes them from the
// stream's goroutine, one write(2) per connection; -server queue hands
// each message to a goroutine per connection through a channel, as
// transport/server does. The client reads with a goroutine per connection
// (-client go: Go's poller, as load does) or with one thread waiting in
// epoll_wait(2) and reading each ready socket once (-client epoll:
// Linux only). Each side's CPU (getrusage: user + system) is taken over
// the publishing window only, so connection setup is left out, and
// divided by the messages the client received. Linux only (getrusage,
// epoll and the descriptor limit as Linux has them).
package main

import (
	"bufio"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

const serverEnv = "DELIVERYFLOOR_SERVER"

type options struct {
	conns, fanout, size int
	rate                float64
	duration            time.Duration
	server, client      string
}

func main() {
	var o options
	flag.IntVar(&o.conns, "conns", 10000, "TCP connections (each end holds one descriptor per connection)")
	flag.IntVar(&o.fanout, "fanout", 100, "connections per stream: each message is written to this many")
	flag.Float64Var(&o.rate, "rate", 100000, "deliveries per second in total (messages published × fan-out)")
	flag.IntVar(&o.size, "size", 100, "bytes per message (ws-message's WebSocket frame is about 85)")
	flag.DurationVar(&o.duration, "duration", 20*time.Second, "publishing window")
	flag.StringVar(&o.server, "server", "direct", "direct (the stream's goroutine writes to every connection) or queue (a goroutine per connection, fed by a channel)")
	flag.StringVar(&o.client, "client", "go", "go (a goroutine per connection) or epoll (one thread in epoll_wait)")
	flag.Parse()
	var err error
	if os.Getenv(serverEnv) != "" {
		err = serve(o)
	} else {
		err = run(o)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "deliveryfloor:", err)
		os.Exit(1)
	}
}

func check(o options) error {
	switch {
	case o.conns < 1 || o.fanout < 1 || o.conns%o.fanout != 0:
		return fmt.Errorf("-conns %d must be a positive multiple of -fanout %d", o.conns, o.fanout)
	case o.size < 1 || o.rate <= 0 || o.duration <= 0:
		return fmt.Errorf("-size, -rate and -duration must be positive")
	case o.server != "direct" && o.server != "queue":
		return fmt.Errorf("-server %q: want direct or queue", o.server)
	case o.client != "go" && o.client != "epoll":
		return fmt.Errorf("-client %q: want go or epoll", o.client)
	}
	return nil
}

// raiseFiles raises the soft descriptor limit to the hard one and checks
// that need descriptors fit.
func raiseFiles(need int) error {
	var l syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &l); err != nil {
		return err
	}
	l.Cur = l.Max
	if err := syscall.Setrlimit(syscall.RLIMIT_NOFILE, &l); err != nil {
		return err
	}
	if uint64(need) > l.Cur {
		return fmt.Errorf("%d descriptors needed, the hard limit is %d (ulimit -Hn): lower -conns", need, l.Cur)
	}
	return nil
}

// cpu is this process's user + system CPU time so far.
func cpu() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru) // cannot fail for RUSAGE_SELF
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// serve is the child: it prints its address, accepts o.conns connections,
// waits for a line on stdin, publishes for o.duration and prints its CPU
// over the publishing in ns and the writes it made.
func serve(o options) error {
	if err := raiseFiles(o.conns + 64); err != nil {
		return err
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	fmt.Println(ln.Addr())
	conns := make([]net.Conn, 0, o.conns)
	for len(conns) < o.conns {
		c, err := ln.Accept()
		if err != nil {
			return err
		}
		conns = append(conns, c)
	}
	in := bufio.NewReader(os.Stdin)
	if _, err := in.ReadString('\n'); err != nil {
		return err
	}
	streams := o.conns / o.fanout
	period := time.Duration(float64(time.Second) * float64(o.fanout*streams) / o.rate) // per stream
	var writes atomic.Int64
	send := make([]func([]byte), o.conns) // per connection
	for i, c := range conns {
		switch o.server {
		case "direct":
			send[i] = func(m []byte) {
				if _, err := c.Write(m); err == nil {
					writes.Add(1)
				}
			}
		case "queue":
			q := make(chan []byte, 64)
			go func() {
				for m := range q {
					if _, err := c.Write(m); err == nil {
						writes.Add(1)
					}
				}
			}()
			send[i] = func(m []byte) {
				select {
				case q <- m:
				default: // full: dropped, as serve's overflow would
				}
			}
		}
	}
	start := cpu()
	end := time.Now().Add(o.duration)
	var wg sync.WaitGroup
	for s := range streams {
		wg.Add(1)
		go func() {
			defer wg.Done()
			msg := make([]byte, o.size)
			// Streams start spread over one period, as serve's do.
			time.Sleep(period * time.Duration(s) / time.Duration(streams))
			t := time.NewTicker(period)
			defer t.Stop()
			for now := range t.C {
				if now.After(end) {
					return
				}
				for _, f := range send[s*o.fanout : (s+1)*o.fanout] {
					f(msg)
				}
			}
		}()
	}
	wg.Wait()
	time.Sleep(200 * time.Millisecond) // queued writes
	used := cpu() - start
	fmt.Println(int64(used), writes.Load())
	_, _ = io.Copy(io.Discard, in)
	return nil
}

// run is the parent: the client.
func run(o options) error {
	if err := check(o); err != nil {
		return err
	}
	if err := raiseFiles(o.conns + 64); err != nil {
		return err
	}
	exe, err := os.Executable()
	if err != nil {
		return err
	}
	cmd := exec.Command(exe, os.Args[1:]...)
	cmd.Env = append(os.Environ(), serverEnv+"=1")
	cmd.Stderr = os.Stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		return err
	}
	defer func() { stdin.Close(); _ = cmd.Wait() }()
	out := bufio.NewReader(stdout)
	addr, err := out.ReadString('\n')
	if err != nil {
		return fmt.Errorf("server: %w", err)
	}
	addr = strings.TrimSpace(addr)
	var received atomic.Int64
	var readers func(stop <-chan struct{}) error
	switch o.client {
	case "go":
		readers, err = goClient(o, addr, &received)
	case "epoll":
		readers, err = epollClient(o, addr, &received)
	}
	if err != nil {
		return err
	}
	stop := make(chan struct{})
	done := make(chan error, 1)
	go func() { done <- readers(stop) }()
	time.Sleep(500 * time.Millisecond) // the server's accept loop ends
	start, t0 := cpu(), time.Now()
	if _, err := io.WriteString(stdin, "go\n"); err != nil {
		return err
	}
	line, err := out.ReadString('\n')
	if err != nil {
		return fmt.Errorf("server: %w", err)
	}
	time.Sleep(200 * time.Millisecond) // the last messages in flight
	used, wall := cpu()-start, time.Since(t0)
	close(stop)
	var serverNs, writes int64
	if _, err := fmt.Sscan(line, &serverNs, &writes); err != nil {
		return fmt.Errorf("server said %q: %w", line, err)
	}
	n := received.Load() / int64(o.size)
	if n == 0 {
		return errors.New("no message received")
	}
	per := func(ns int64) float64 { return float64(ns) / float64(n) / 1e3 }
	sum := per(serverNs) + per(int64(used))
	fmt.Printf("conns %d fanout %d server %s client %s size %d B: %d of %d writes received (%.0f/s over %.1f s)\n",
		o.conns, o.fanout, o.server, o.client, o.size, n, writes, float64(n)/wall.Seconds(), wall.Seconds())
	fmt.Printf("CPU per delivered message: server %.2f µs, client %.2f µs, both %.2f µs; at 100,000 deliveries/s: %.2f cores (this machine has %d)\n",
		per(serverNs), per(int64(used)), sum, sum*1e5/1e6, runtime.NumCPU())
	return nil
}

// goClient dials o.conns connections and returns a function that reads
// them with a goroutine each until stop.
func goClient(o options, addr string, received *atomic.Int64) (func(<-chan struct{}) error, error) {
	conns := make([]net.Conn, o.conns)
	for i := range conns {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			return nil, fmt.Errorf("dial %d: %w", i, err)
		}
		conns[i] = c
	}
	return func(stop <-chan struct{}) error {
		for _, c := range conns {
			go func() {
				buf := make([]byte, o.size)
				for {
					if _, err := io.ReadFull(c, buf); err != nil {
						return
					}
					received.Add(int64(o.size))
				}
			}()
		}
		<-stop
		for _, c := range conns {
			c.Close()
		}
		return nil
	}, nil
}

// epollClient dials o.conns non-blocking sockets and returns a function
// that reads them from one thread in epoll_wait until stop.
func epollClient(o options, addr string, received *atomic.Int64) (func(<-chan struct{}) error, error) {
	host, portText, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, err
	}
	port, err := strconv.Atoi(portText)
	if err != nil {
		return nil, err
	}
	sa := &syscall.SockaddrInet4{Port: port}
	copy(sa.Addr[:], net.ParseIP(host).To4())
	ep, err := syscall.EpollCreate1(syscall.EPOLL_CLOEXEC)
	if err != nil {
		return nil, err
	}
	fds := make([]int, o.conns)
	for i := range fds {
		fd, err := syscall.Socket(syscall.AF_INET, syscall.SOCK_STREAM|syscall.SOCK_CLOEXEC, 0)
		if err != nil {
			return nil, err
		}
		if err := syscall.Connect(fd, sa); err != nil {
			return nil, fmt.Errorf("connect %d: %w", i, err)
		}
		if err := syscall.SetNonblock(fd, true); err != nil {
			return nil, err
		}
		ev := syscall.EpollEvent{Events: syscall.EPOLLIN, Fd: int32(fd)}
		if err := syscall.EpollCtl(ep, syscall.EPOLL_CTL_ADD, fd, &ev); err != nil {
			return nil, err
		}
		fds[i] = fd
	}
	return func(stop <-chan struct{}) error {
		runtime.LockOSThread()
		defer func() {
			for _, fd := range fds {
				syscall.Close(fd)
			}
			syscall.Close(ep)
		}()
		events := make([]syscall.EpollEvent, 1024)
		buf := make([]byte, 64<<10)
		for {
			select {
			case <-stop:
				return nil
			default:
			}
			n, err := syscall.EpollWait(ep, events, 100)
			if err != nil && err != syscall.EINTR {
				return err
			}
			for _, ev := range events[:max(n, 0)] {
				// One read per ready socket: level-triggered epoll
				// reports it again if more is left.
				if k, err := syscall.Read(int(ev.Fd), buf); err == nil && k > 0 {
					received.Add(int64(k))
				}
			}
		}
	}, nil
}
